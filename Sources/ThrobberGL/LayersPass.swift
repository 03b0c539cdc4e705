@preconcurrency import CGL
import Throbber

/// The layers pass (Shaders/area.vert + layers.frag): tiles of every frame of a stack, whose
/// fragment shader paints every disc, wave, arc, single box and ring of boxes (tick rings,
/// spinner leaves) that reaches the tile, per pixel, in paint order, blending source-over in
/// registers and quantising once (SPEC §0).
///
/// The program is compiled once per shape of the layers it paints (`LayerPlan`) and kept; the
/// numbers reach it as flat varyings, fetched per vertex from a texture (`u_values`).
///
/// Holds its context, so that its programs, buffers and textures are deleted while the context
/// lives. Not `Sendable`: used on the context's thread.
final class LayersPass {
    private let context: GLPlatformContext
    private let gl: GLFunctions
    private let library: ShaderLibrary
    /// Layers programs by shape (`LayerPlan.program`) and number of vec4s.
    private var programs: [[Int]: GLProgram] = [:]
    /// The most vec4 a fragment shader takes in (`GL_MAX_FRAGMENT_INPUT_COMPONENTS` / 4).
    private let maxVaryingVectors: Int
    /// The most texels a data texture holds (`FrameStack.textureWidth` × `GL_MAX_TEXTURE_SIZE`).
    private let maxTexels: Int
    /// The driver's name, for messages.
    private let renderer: String
    /// The tiles (area.vert's `i_rect`), in their own vertex array.
    private var tileArray: GLuint = 0
    private var tileBuffer: GLuint = 0
    /// The layers' numbers of every tile group of the stack (area.vert's `u_values`).
    private var valueTexture: GLuint = 0

    /// The most layers programs kept compiled; past it the cache starts again. A scene at one
    /// size makes a few dozen shapes (tiles reached by different runs of layers); compiling one
    /// costs tens of milliseconds, so they are kept across sizes.
    static let maximumPrograms = 512
    /// The most layers one tile's program paints. Its statements are compiled together, and
    /// llvmpipe's compile time grows faster than their count: 64 full-canvas waves take 0.9 s
    /// for a frame, 128 take 2 s, 256 take 7 s and 1,000 took 39 s and 470 MB, during which no
    /// signal is seen. The built-ins and the example scene files reach a tile with at most a
    /// dozen (a ring of boxes is one layer; replicated boxes go to the boxes pass).
    static let maximumLayersPerTile = 64
    /// How many coverage textures one stack reads (layers.frag's `u_coverage0` …
    /// `u_coverage3`, on texture units 1 to 4).
    static let coverageUnits = 4

    /// Sets up the tiles' vertex array and the values texture, and compiles the plainest shape,
    /// so that a broken shader is reported before any frame.
    ///
    /// - Parameters:
    ///   - maxTexels: the most texels a data texture may hold.
    ///   - renderer: the driver's name (`GL_RENDERER`), for messages.
    /// - Throws: backend-failure when the layers shaders do not compile (with the driver's log).
    init(_ context: GLPlatformContext, library: ShaderLibrary, maxTexels: Int, renderer: String) throws {
        self.context = context
        let gl = context.gl
        self.gl = gl
        self.library = library
        self.maxTexels = maxTexels
        self.renderer = renderer
        var inputComponents: GLint = 0
        gl.GetIntegerv(GLenum(GL_MAX_FRAGMENT_INPUT_COMPONENTS), &inputComponents)
        maxVaryingVectors = Int(inputComponents) / 4
        gl.GenVertexArrays(1, &tileArray)
        gl.BindVertexArray(tileArray)
        gl.GenBuffers(1, &tileBuffer)
        gl.BindBuffer(GLenum(GL_ARRAY_BUFFER), tileBuffer)
        // Per tile: rectangle (4 ints, read as floats), frame's top row and first texel (2 ints).
        gl.EnableVertexAttribArray(0)
        gl.VertexAttribPointer(0, 4, GLenum(GL_INT), GLboolean(GL_FALSE), 24, nil)
        gl.VertexAttribDivisor(0, 1)
        gl.EnableVertexAttribArray(1)
        gl.VertexAttribIPointer(1, 2, GLenum(GL_INT), 24, UnsafeRawPointer(bitPattern: 16))
        gl.VertexAttribDivisor(1, 1)
        valueTexture = gl.makeDataTextures(1)[0]
        _ = try program([-1], vectorCount: 1) { "" }
    }

    deinit {
        gl.DeleteTextures(1, &valueTexture)
        gl.DeleteBuffers(1, &tileBuffer)
        gl.DeleteVertexArrays(1, &tileArray)
        for program in programs.values { gl.DeleteProgram(program.id) }
    }

    /// The side of the tiles the layers pass groups by the layers reaching them: an eighth of
    /// the frame's longer side, at least 64 px (a small frame is a tile or a few).
    static func tileSide(width: Int, height: Int) -> Int {
        max(64, (max(width, height) + 7) / 8)
    }

    /// Paints the layers of `plans`, frame f at rows f × `height` of the bound stack target.
    ///
    /// Every tile of every frame is grouped by the shape of the layers that can reach it (no
    /// layer: the background alone); each shape is one instanced draw over the whole stack, each
    /// tile reading its frame's numbers for those layers from `u_values`.
    ///
    /// - Parameters:
    ///   - coverage: the ring coverage textures the plans draw from, by unit (`RingCoverageCache`).
    ///   - resolution: the stack target's size in px.
    ///   - checkpoint: when given, asked after each draw (it finishes the GL work and says
    ///     whether to stop).
    /// - Returns: false when `checkpoint` said to stop (the frames are not whole).
    /// - Throws: a usage error when the stack holds more numbers than a texture does;
    ///   backend-failure when a layers program does not compile.
    @discardableResult
    func draw(_ plans: [LayerPlan], coverage: [GLuint], width: Int, height: Int, resolution: (Float, Float),
              checkpoint: (() -> Bool)? = nil) throws -> Bool {
        let side = LayersPass.tileSide(width: width, height: height)
        var values: [Float] = []
        // One instanced draw per program key, in the order first met.
        var draws: [(plan: Int, layers: [Int], vectorCount: Int, key: [Int], tiles: [Int32])] = []
        var drawIndex: [[Int]: Int] = [:]
        for (f, plan) in plans.enumerated() {
            // Layers reaching a tile → its draw and the first texel of their numbers, worked out
            // once per frame for each set of layers.
            var groups: [[Int]: (draw: Int, first: Int32)] = [:]
            for y0 in stride(from: 0, to: height, by: side) {
                for x0 in stride(from: 0, to: width, by: side) {
                    let tile = PixelRect(x0: x0, y0: y0, x1: min(width, x0 + side), y1: min(height, y0 + side))
                    let reaching = plan.bounds.intersects(tile) ? plan.layers.indices.filter { plan.layers[$0].reaches(tile) } : []
                    guard reaching.count <= LayersPass.maximumLayersPerTile else {
                        throw ThrobberError.invalid(
                            "draw list", "\(reaching.count) discs, waves, arcs and single boxes over one \(side)-px tile",
                            allowed: "at most \(LayersPass.maximumLayersPerTile) on GL, whose program painting them in one pass "
                                + "would take seconds to minutes to compile, a wait no signal can cut short (draw fewer, or use --backend cpu)")
                    }
                    let group: (draw: Int, first: Int32)
                    if let known = groups[reaching] {
                        group = known
                    } else {
                        // The shape fixes the number of vec4s; -1 keeps the empty shape a key.
                        let (shape, vectors) = plan.program(reaching)
                        let key = shape + [-1]
                        let index = drawIndex[key] ?? draws.count
                        if index == draws.count {
                            drawIndex[key] = index
                            draws.append((f, reaching, vectors.count / 4, key, []))
                        }
                        group = (index, Int32(values.count / 4))
                        values += vectors
                        groups[reaching] = group
                    }
                    draws[group.draw].tiles += [Int32(tile.x0), Int32(tile.y0), Int32(tile.x1), Int32(tile.y1), Int32(f * height), group.first]
                }
            }
        }
        FrameStack.padToTextureRows(&values, components: 4)
        guard values.count / 4 <= maxTexels else {
            throw ThrobberError.invalid("draw list", "\(values.count / 4) vectors of discs, waves, arcs and boxes in a stack",
                                        allowed: "at most \(maxTexels) on \(renderer)")
        }
        gl.upload(values, components: 4, to: valueTexture, internalFormat: GL_RGBA32F, format: GL_RGBA, type: GL_FLOAT)
        gl.ActiveTexture(GLenum(GL_TEXTURE0))
        gl.BindTexture(GLenum(GL_TEXTURE_2D), valueTexture)
        for (unit, texture) in coverage.enumerated() {
            gl.ActiveTexture(GLenum(GL_TEXTURE1 + Int32(unit)))
            gl.BindTexture(GLenum(GL_TEXTURE_2D), texture)
        }
        gl.ActiveTexture(GLenum(GL_TEXTURE0))
        gl.BindVertexArray(tileArray)
        gl.BindBuffer(GLenum(GL_ARRAY_BUFFER), tileBuffer)
        for draw in draws {
            let plan = plans[draw.plan]
            let program = try program(draw.key, vectorCount: draw.vectorCount) { plan.code(draw.layers) }
            gl.UseProgram(program.id)
            gl.Uniform2f(program["u_resolution"], resolution.0, resolution.1)
            gl.Uniform1i(program["u_values"], 0)
            for unit in coverage.indices { gl.Uniform1i(program["u_coverage\(unit)"], GLint(1 + unit)) }
            draw.tiles.withUnsafeBytes { gl.BufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STREAM_DRAW)) }
            gl.DrawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, 4, GLsizei(draw.tiles.count / 6))
            if let checkpoint, checkpoint() { return false }
        }
        return true
    }

    /// Paints one tile of `width` × `height` px at the origin of the bound framebuffer with the
    /// raw-output program of shape `key` (`LayerPlan.coverageProgram`): a ring's coverage, not
    /// a colour.
    ///
    /// - Throws: backend-failure when the program does not compile.
    func drawCoverage(_ key: [Int], code: String, vectors: [Float], width: Int, height: Int) throws {
        let program = try program(key, vectorCount: vectors.count / 4, raw: true) { code }
        var values = vectors
        FrameStack.padToTextureRows(&values, components: 4)
        gl.upload(values, components: 4, to: valueTexture, internalFormat: GL_RGBA32F, format: GL_RGBA, type: GL_FLOAT)
        gl.BindTexture(GLenum(GL_TEXTURE_2D), valueTexture)
        gl.Viewport(0, 0, GLsizei(width), GLsizei(height))
        gl.BindVertexArray(tileArray)
        gl.BindBuffer(GLenum(GL_ARRAY_BUFFER), tileBuffer)
        gl.UseProgram(program.id)
        gl.Uniform2f(program["u_resolution"], Float(width), Float(height))
        gl.Uniform1i(program["u_values"], 0)
        let tile: [Int32] = [0, 0, Int32(width), Int32(height), 0, 0]
        tile.withUnsafeBytes { gl.BufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STREAM_DRAW)) }
        gl.DrawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, 4, 1)
    }

    /// The layers program of shape `key` (`LayerPlan.program`'s shape) reading `vectorCount`
    /// vec4s, compiled from `code` (LAYERS) on first use.
    ///
    /// - Throws: backend-failure when it does not compile (with the driver's log).
    private func program(_ key: [Int], vectorCount: Int, raw: Bool = false, code: () -> String) throws -> GLProgram {
        if let program = programs[key] { return program }
        if programs.count >= LayersPass.maximumPrograms {
            for program in programs.values { gl.DeleteProgram(program.id) }
            programs.removeAll()
        }
        // Flat varyings where they fit (a few are kept for the driver's own), else texels.
        let fromTexture = vectorCount > maxVaryingVectors - 2
        let program = try GLProgram(gl, library: library, vertex: "area.vert", fragment: "layers.frag",
                                    defines: ["LAYER_VECTORS \(vectorCount)", "LAYERS \(code())"] + (fromTexture ? ["LAYERS_FROM_TEXTURE"] : [])
                                        + (raw ? ["RAW_OUTPUT"] : []),
                                    uniforms: ["u_resolution", "u_values"] + (0..<LayersPass.coverageUnits).map { "u_coverage\($0)" })
        programs[key] = program
        return program
    }
}
