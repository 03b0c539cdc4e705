import Foundation
@preconcurrency import CGL
import Throbber

/// What the driver says about itself, for reports (`GL_VENDOR`, `GL_RENDERER`, `GL_VERSION`) and
/// the limits a canvas must respect.
public struct GLInfo: Sendable, Equatable, Codable {
    /// Where the context came from: OSMesa, an EGL device, EGL surfaceless.
    public var platform: String
    public var vendor: String
    public var renderer: String
    public var version: String
    /// The largest side of a renderbuffer or texture, and of the viewport: the largest canvas.
    public var maxCanvasSide: Int
}

/// Renders draw lists with OpenGL through an OSMesa or EGL core-profile context.
///
/// One pass where one pass can do it, writing final 8-bit pixels — no float target, no separate
/// resolve:
/// - *layers* (Shaders/layers.frag): tiles of the frame, whose fragment shader paints every
///   disc, wave, arc, single box and ring of boxes (tick rings, spinner leaves) that reaches the
///   tile, per pixel, in paint order, blending source-over in registers and quantising once
///   (SPEC §0). The program is compiled once per shape of the layers it paints (`LayerPlan`); the
///   numbers reach it as flat varyings, fetched per vertex from a texture.
/// - *boxes* (Shaders/boxes.frag), only for quad batches that are not a usable ring: instanced
///   quads, each pixel of a box computing its whole stack — every item that can reach it — the
///   same way, over what the layers pass wrote there (`FrameStack`).
///
/// Many frames per flush: `render(_ lists:)` paints a stack of frames one above the other in one
/// target — one instanced layers draw per shape and one instanced boxes draw for all of them —
/// and reads the stack back at once, so the fixed cost of a draw, a flush and a readback is paid
/// per stack, not per frame.
///
/// Rows: GL row j holds image row j (image y down) — the vertex shaders map image coordinates
/// to clip space unflipped — so `glReadPixels`, which returns row 0 first, yields the image's
/// top row first. That is the single place the bottom-up convention of GL is accounted for.
///
/// Not `Sendable`: the context is current on the thread that created the renderer; use it there.
public final class GLRenderer {
    private let context: GLPlatformContext
    private let gl: GLFunctions
    /// The driver's strings and limits.
    public let info: GLInfo
    private let library: ShaderLibrary
    /// Layers programs by shape (`LayerPlan.program`) and number of vec4s.
    private var layerPrograms: [[Int]: GLProgram] = [:]
    /// The most vec4 a fragment shader takes in (`GL_MAX_FRAGMENT_INPUT_COMPONENTS` / 4).
    private let maxVaryingVectors: Int
    private let boxes: GLProgram
    /// `boxes` without the branch on the kind, for stacks whose boxes overlap only boxes.
    private let boxesOnly: GLProgram
    private var vertexArray: GLuint = 0
    /// The layers pass's tiles (area.vert's `i_rect`), in their own vertex array.
    private var tileArray: GLuint = 0
    private var tileBuffer: GLuint = 0
    private var instanceBuffer: GLuint = 0
    private var recordTexture: GLuint = 0
    private var entryTexture: GLuint = 0
    /// The layers' numbers of every tile group of the stack (area.vert's `u_values`).
    private var valueTexture: GLuint = 0
    /// Rows a texture may have (`GL_MAX_TEXTURE_SIZE`): the records and lists are textures
    /// `FrameStack.textureWidth` texels wide.
    private let maxTextureRows: Int
    private var target: Target?
    /// The rows of the target the last frame drawn by `draw` occupies.
    private var frameRows = 0..<0
    private var pixelBuffers: [GLuint] = []
    private var pixelBufferSize = 0
    private var nextPixelBuffer = 0
    /// Coverage textures of rings that recur from frame to frame (`LayerPlan.drawFromCoverage`),
    /// by `LayerPlan.coverageKey`, with their size and when each was last used.
    private var coverageTextures: [[UInt32]: (texture: GLuint, bytes: Int, used: Int)] = [:]
    /// In how many frames each ring's coverage key was seen; a ring seen twice gets a texture.
    private var coverageSightings: [[UInt32]: Int] = [:]
    private var coverageClock = 0
    private var coverageFramebuffer: GLuint = 0
    /// Whether rings that recur from frame to frame are drawn from coverage textures (on by
    /// default; the pixels are the same either way, up to the last bit of a coverage).
    public var cachesRingCoverage = true
    /// How many coverage textures are kept, and their bytes (for tests).
    var coverageTextureCount: Int { coverageTextures.count }
    var coverageBytes: Int { coverageTextures.values.reduce(0) { $0 + $1.bytes } }
    /// Where `render(_ lists:)` reads a whole stack back at once.
    private var stackPixels: [UInt8] = []
    private var pending: [(buffer: GLuint, fence: GLsync?, width: Int, height: Int)] = []

    /// The framebuffer of one stack size.
    private struct Target {
        var width: Int
        var height: Int
        var renderbuffer: GLuint = 0
        var framebuffer: GLuint = 0
    }

    /// The most layers programs kept compiled; past it the cache starts again. A scene at one
    /// size makes a few dozen shapes (tiles reached by different runs of layers); compiling one
    /// costs tens of milliseconds, so they are kept across sizes.
    static let maximumLayerPrograms = 512
    /// How many coverage textures one stack reads (layers.frag's `u_coverage0` …
    /// `u_coverage3`, on texture units 1 to 4).
    static let coverageUnits = 4
    /// The most bytes of coverage textures kept; past it the least recently used go.
    static let maximumCoverageBytes = 64 << 20
    /// The most ring keys whose sightings are counted; past it the count starts again.
    static let maximumCoverageSightings = 1024
    /// The most frames one stack holds: enough that the fixed cost of a draw and a flush
    /// vanishes against the frames' own.
    public static let maximumFramesPerStack = 64
    /// The most pixels one stack holds (1 MB of RGBA8). On llvmpipe stacks pay off for small
    /// frames only (measured with bench/floor-vs-gl.sh: 64 px 0.11 ms a frame in stacks of 64
    /// against 0.19 one by one; 256 px and 512 px no faster), so a 512×512 frame is a stack alone.
    public static let maximumStackPixels = 1 << 18

    /// Opens a context of `platform` on this thread and compiles the shaders.
    ///
    /// - Parameters:
    ///   - platform: OSMesa (default) or EGL.
    ///   - shaders: where the GLSL comes from (default: compiled into the binary).
    /// - Throws: backend-unavailable when the library or a core context cannot be had (the message
    ///   names the package to install or the EGL error); backend-failure when a shader does not compile.
    public init(platform: GLPlatform = .osmesa, shaders: ShaderLibrary = .embedded) throws {
        context = try platform.makeContext()
        let gl = context.gl
        self.gl = gl
        func string(_ name: Int32) -> String {
            gl.GetString(GLenum(name)).map { String(cString: $0) } ?? "unknown"
        }
        var renderbufferSide: GLint = 0
        var textureSide: GLint = 0
        var viewport: [GLint] = [0, 0]
        gl.GetIntegerv(GLenum(GL_MAX_RENDERBUFFER_SIZE), &renderbufferSide)
        gl.GetIntegerv(GLenum(GL_MAX_TEXTURE_SIZE), &textureSide)
        gl.GetIntegerv(GLenum(GL_MAX_VIEWPORT_DIMS), &viewport)
        maxTextureRows = Int(textureSide)
        var inputComponents: GLint = 0
        gl.GetIntegerv(GLenum(GL_MAX_FRAGMENT_INPUT_COMPONENTS), &inputComponents)
        maxVaryingVectors = Int(inputComponents) / 4
        library = shaders
        info = GLInfo(platform: context.platform, vendor: string(GL_VENDOR), renderer: string(GL_RENDERER), version: string(GL_VERSION),
                      maxCanvasSide: Int(min(renderbufferSide, viewport[0], viewport[1])))
        let boxUniforms = ["u_resolution", "u_items", "u_lists"]
        boxes = try GLProgram(gl, library: shaders, vertex: "boxes.vert", fragment: "boxes.frag", uniforms: boxUniforms)
        boxesOnly = try GLProgram(gl, library: shaders, vertex: "boxes.vert", fragment: "boxes.frag", defines: ["BOXES_ONLY"],
                                  uniforms: boxUniforms)
        setUpBuffers()
        // The plainest shape compiles now, so a broken shader is reported before any frame.
        _ = try layerProgram([-1], vectorCount: 1) { "" }
    }

    /// The EGL devices this machine offers (a GPU each, and Mesa's software device).
    ///
    /// - Throws: backend-unavailable when libEGL or device enumeration is missing.
    public static func eglDevices() throws -> [EGLDeviceDescription] {
        try EGLGLContext.devices()
    }

    deinit {
        releasePixelBuffers()
        releaseTarget()
        for (texture, _, _) in coverageTextures.values { var t = texture; gl.DeleteTextures(1, &t) }
        if coverageFramebuffer != 0 { gl.DeleteFramebuffers(1, &coverageFramebuffer) }
        var textures = [recordTexture, entryTexture, valueTexture]
        gl.DeleteTextures(3, &textures)
        gl.DeleteBuffers(1, &instanceBuffer)
        gl.DeleteBuffers(1, &tileBuffer)
        gl.DeleteVertexArrays(1, &vertexArray)
        gl.DeleteVertexArrays(1, &tileArray)
        for program in Array(layerPrograms.values) + [boxes, boxesOnly] { gl.DeleteProgram(program.id) }
    }

    /// Renders one frame and reads it back.
    ///
    /// - Throws: a usage error when the canvas exceeds the driver's limits or a stack holds more
    ///   numbers than the driver's textures do; backend-failure when the framebuffer is
    ///   incomplete, a layers program does not compile or GL reports an error.
    public func render(_ list: DrawList) throws -> Image {
        try render([list])[0]
    }

    /// Renders frames in order, a stack of them per flush and per readback.
    ///
    /// Consecutive lists of one canvas size share a stack (`framesPerDraw(width:height:)` at most).
    ///
    /// - Returns: one image per list, in order.
    /// - Throws: as `render(_:)`.
    public func render(_ lists: [DrawList]) throws -> [Image] {
        var images: [Image] = []
        images.reserveCapacity(lists.count)
        var start = lists.startIndex
        while start < lists.endIndex {
            let (width, height) = (lists[start].width, lists[start].height)
            let limit = framesPerDraw(width: width, height: height)
            var end = start + 1
            while end < lists.endIndex, end - start < limit, lists[end].width == width, lists[end].height == height { end += 1 }
            try draw(lists[start..<end])
            // One readback for the whole stack, rather than a glReadPixels call (each mapping
            // the target) per frame; a frame alone is read straight into its image.
            let frameBytes = width * height * 4, count = end - start
            if count == 1 {
                images.append(Image(width: width, height: height, pixels: [UInt8](unsafeUninitializedCapacity: frameBytes) { buffer, done in
                    readBack(rows: 0..<height, into: UnsafeMutableRawPointer(buffer.baseAddress!))
                    done = frameBytes
                }))
            } else {
                if stackPixels.count < frameBytes * count { stackPixels = [UInt8](repeating: 0, count: frameBytes * count) }
                stackPixels.withUnsafeMutableBytes { readBack(rows: 0..<(height * count), into: $0.baseAddress!) }
                for f in 0..<count {
                    images.append(Image(width: width, height: height, pixels: Array(stackPixels[(f * frameBytes)..<((f + 1) * frameBytes)])))
                }
            }
            try checkError()
            start = end
        }
        return images
    }

    /// Renders one frame into `pixels` (width × height × 4 bytes, top-down straight-alpha RGBA8).
    ///
    /// - Throws: as `render(_:)`.
    public func render(_ list: DrawList, into pixels: UnsafeMutableRawPointer) throws {
        try draw(list)
        readBack(into: pixels)
        try checkError()
    }

    /// How many frames of `width` × `height` px one stack holds: as many as fit the driver's
    /// largest target side and `maximumStackPixels`, at most `maximumFramesPerStack`, at least 1.
    public func framesPerDraw(width: Int, height: Int) -> Int {
        let bySide = info.maxCanvasSide / max(1, height)
        let byPixels = GLRenderer.maximumStackPixels / max(1, width * height)
        return max(1, min(GLRenderer.maximumFramesPerStack, bySide, byPixels))
    }

    /// Paints one frame without reading it back (for the benchmark's stages).
    ///
    /// - Throws: as `render(_:)`.
    public func draw(_ list: DrawList) throws {
        try draw([list][...])
    }

    /// Paints a stack of frames of one canvas size.
    private func draw(_ lists: ArraySlice<DrawList>) throws {
        let width = lists.first!.width, height = lists.first!.height
        guard width >= 1, height >= 1, width <= info.maxCanvasSide, height <= info.maxCanvasSide else {
            throw ThrobberError.invalid("canvas", "\(width)×\(height) px",
                                        allowed: "each side between 1 and \(info.maxCanvasSide) px on \(info.renderer)")
        }
        var plans = lists.map(LayerPlan.init)
        let coverage = try useRingCoverage(&plans, width: width, height: height)
        let stackHeight = height * lists.count
        try prepareTarget(width: width, height: stackHeight)
        frameRows = 0..<height
        let resolution = (Float(width), Float(stackHeight))
        gl.BindFramebuffer(GLenum(GL_FRAMEBUFFER), target!.framebuffer)
        gl.Viewport(0, 0, GLsizei(width), GLsizei(stackHeight))
        // Every tile of every frame, grouped by the shape of the layers that can reach it (no
        // layer: the background alone); each shape is one instanced draw over the whole stack,
        // each tile reading its frame's numbers for those layers from `values`.
        let side = GLRenderer.tileSide(width: width, height: height)
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
        let maxTexels = FrameStack.textureWidth * maxTextureRows
        guard values.count / 4 <= maxTexels else {
            throw ThrobberError.invalid("draw list", "\(values.count / 4) vectors of discs, waves, arcs and boxes in a stack",
                                        allowed: "at most \(maxTexels) on \(info.renderer)")
        }
        upload(values, components: 4, to: valueTexture, internalFormat: GL_RGBA32F, format: GL_RGBA, type: GL_FLOAT)
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
            let program = try layerProgram(draw.key, vectorCount: draw.vectorCount) { plan.code(draw.layers) }
            gl.UseProgram(program.id)
            gl.Uniform2f(program["u_resolution"], resolution.0, resolution.1)
            gl.Uniform1i(program["u_values"], 0)
            for unit in coverage.indices { gl.Uniform1i(program["u_coverage\(unit)"], GLint(1 + unit)) }
            draw.tiles.withUnsafeBytes { gl.BufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STREAM_DRAW)) }
            gl.DrawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, 4, GLsizei(draw.tiles.count / 6))
        }
        guard plans.contains(where: { !$0.boxItems.isEmpty }) else { return }
        gl.BindVertexArray(vertexArray)
        let stack = FrameStack(lists, boxItems: plans.map(\.boxItems), width: width, height: height)
        guard stack.records.count / 4 <= maxTexels, stack.entries.count <= maxTexels else {
            throw ThrobberError.invalid("draw list", "\(stack.recordCount) primitives",
                                        allowed: "at most \(maxTexels / 5) primitives in a stack on \(info.renderer)")
        }
        let program = stack.boxesOnly ? boxesOnly : boxes
        upload(stack.records, components: 4, to: recordTexture, internalFormat: GL_RGBA32F, format: GL_RGBA, type: GL_FLOAT)
        upload(stack.entries, components: 1, to: entryTexture, internalFormat: GL_R32I, format: GL_RED_INTEGER, type: GL_INT)
        gl.UseProgram(program.id)
        gl.Uniform2f(program["u_resolution"], resolution.0, resolution.1)
        for (unit, texture, name) in [(0, recordTexture, "u_items"), (1, entryTexture, "u_lists")] {
            gl.ActiveTexture(GLenum(GL_TEXTURE0 + Int32(unit)))
            gl.BindTexture(GLenum(GL_TEXTURE_2D), texture)
            gl.Uniform1i(program[name], GLint(unit))
        }
        gl.BindBuffer(GLenum(GL_ARRAY_BUFFER), instanceBuffer)
        stack.instances.withUnsafeBytes { bytes in
            gl.BufferData(GLenum(GL_ARRAY_BUFFER), bytes.count, bytes.baseAddress, GLenum(GL_STREAM_DRAW))
        }
        gl.DrawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, 4, GLsizei(stack.instanceCount))
    }

    /// The side of the tiles the layers pass groups by the layers reaching them: an eighth of
    /// the frame's longer side, at least 64 px (a small frame is a tile or a few).
    static func tileSide(width: Int, height: Int) -> Int {
        max(64, (max(width, height) + 7) / 8)
    }

    /// The layers program of shape `key` (`LayerPlan.program`'s shape) reading `vectorCount`
    /// vec4s, compiled from `code` (LAYERS) on first use.
    ///
    /// - Throws: backend-failure when it does not compile (with the driver's log).
    private func layerProgram(_ key: [Int], vectorCount: Int, raw: Bool = false, code: () -> String) throws -> GLProgram {
        if let program = layerPrograms[key] { return program }
        if layerPrograms.count >= GLRenderer.maximumLayerPrograms {
            for program in layerPrograms.values { gl.DeleteProgram(program.id) }
            layerPrograms.removeAll()
        }
        // Flat varyings where they fit (a few are kept for the driver's own), else texels.
        let fromTexture = vectorCount > maxVaryingVectors - 2
        let program = try GLProgram(gl, library: library, vertex: "area.vert", fragment: "layers.frag",
                                    defines: ["LAYER_VECTORS \(vectorCount)", "LAYERS \(code())"] + (fromTexture ? ["LAYERS_FROM_TEXTURE"] : [])
                                        + (raw ? ["RAW_OUTPUT"] : []),
                                    uniforms: ["u_resolution", "u_values"] + (0..<GLRenderer.coverageUnits).map { "u_coverage\($0)" })
        layerPrograms[key] = program
        return program
    }

    /// Gives the rings of `plans` that recur — seen in two frames, in this stack or before —
    /// coverage textures, at most `coverageUnits` a stack, and has the plans draw them from
    /// those (`LayerPlan.drawFromCoverage`).
    ///
    /// - Returns: the texture of each unit, in order.
    /// - Throws: backend-failure when a coverage pass does not compile or its framebuffer is
    ///   incomplete.
    private func useRingCoverage(_ plans: inout [LayerPlan], width: Int, height: Int) throws -> [GLuint] {
        guard cachesRingCoverage else { return [] }
        var keys: [[UInt32]] = []
        var frames: [[UInt32]: Int] = [:]
        var found: [(frame: Int, layer: Int, key: [UInt32])] = []
        for (f, plan) in plans.enumerated() {
            for layer in plan.cachableLayers {
                let key = plan.coverageKey(layer, width: width, height: height)
                if frames[key] == nil { keys.append(key) }
                frames[key, default: 0] += 1
                found.append((f, layer, key))
            }
        }
        guard !found.isEmpty else { return [] }
        var units: [[UInt32]: Int] = [:]
        var textures: [GLuint] = []
        for key in keys where textures.count < GLRenderer.coverageUnits {
            guard coverageTextures[key] != nil || frames[key]! + (coverageSightings[key] ?? 0) >= 2 else { continue }
            let first = found.first { $0.key == key }!
            // The textures this stack already reads stay, whatever else must go.
            guard let texture = try coverageTexture(key, plans[first.frame], layer: first.layer, width: width, height: height,
                                                    keeping: Set(units.keys)) else { continue }
            units[key] = textures.count
            textures.append(texture)
        }
        if coverageSightings.count > GLRenderer.maximumCoverageSightings { coverageSightings.removeAll() }
        for key in keys { coverageSightings[key, default: 0] += frames[key]! }
        for (f, layer, key) in found {
            if let unit = units[key] { plans[f].drawFromCoverage(layer, unit: unit) }
        }
        return textures
    }

    /// The coverage texture of `plan`'s layer `layer`, computed now unless it is kept, by the
    /// expression the layers pass would evaluate (LayerPlan.coverageProgram), into a
    /// single-channel float texture of the frame's size; nil when it cannot be kept within
    /// `maximumCoverageBytes` without dropping one of `keeping`.
    private func coverageTexture(_ key: [UInt32], _ plan: LayerPlan, layer: Int, width: Int, height: Int,
                                 keeping: Set<[UInt32]>) throws -> GLuint? {
        coverageClock += 1
        if let kept = coverageTextures[key] {
            coverageTextures[key]!.used = coverageClock
            return kept.texture
        }
        let bytes = width * height * 4
        let held = coverageTextures.filter { keeping.contains($0.key) }.values.reduce(0) { $0 + $1.bytes }
        guard held + bytes <= GLRenderer.maximumCoverageBytes else { return nil }
        var total = coverageTextures.values.reduce(0) { $0 + $1.bytes }
        while total + bytes > GLRenderer.maximumCoverageBytes,
              let oldest = coverageTextures.filter({ !keeping.contains($0.key) }).min(by: { $0.value.used < $1.value.used }) {
            var texture = oldest.value.texture
            gl.DeleteTextures(1, &texture)
            coverageTextures[oldest.key] = nil
            total -= oldest.value.bytes
        }
        var texture: GLuint = 0
        gl.GenTextures(1, &texture)
        gl.ActiveTexture(GLenum(GL_TEXTURE0))
        gl.BindTexture(GLenum(GL_TEXTURE_2D), texture)
        gl.TexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        gl.TexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        gl.TexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_R32F, GLsizei(width), GLsizei(height), 0, GLenum(GL_RED), GLenum(GL_FLOAT), nil)
        if coverageFramebuffer == 0 { gl.GenFramebuffers(1, &coverageFramebuffer) }
        gl.BindFramebuffer(GLenum(GL_FRAMEBUFFER), coverageFramebuffer)
        gl.FramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
        do {
            try checkFramebuffer("ring coverage (R32F)")
            let (programKey, code, vectors) = plan.coverageProgram(layer)
            let program = try layerProgram(programKey, vectorCount: vectors.count / 4, raw: true) { code }
            var values = vectors
            FrameStack.padToTextureRows(&values, components: 4)
            upload(values, components: 4, to: valueTexture, internalFormat: GL_RGBA32F, format: GL_RGBA, type: GL_FLOAT)
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
        } catch {
            gl.DeleteTextures(1, &texture)
            throw error
        }
        coverageTextures[key] = (texture, bytes, coverageClock)
        return texture
    }

    /// Reads the frame of the last `draw` into `pixels`, top row first.
    public func readBack(into pixels: UnsafeMutableRawPointer) {
        readBack(rows: frameRows, into: pixels)
    }

    /// Reads rows of the current target into `pixels`, top row first.
    private func readBack(rows: Range<Int>, into pixels: UnsafeMutableRawPointer) {
        guard let target else { return }
        gl.BindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), target.framebuffer)
        gl.PixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        gl.ReadPixels(0, GLint(rows.lowerBound), GLsizei(target.width), GLsizei(rows.count), GLenum(GL_RGBA),
                      GLenum(GL_UNSIGNED_BYTE), pixels)
    }

    private func checkError() throws {
        let error = gl.GetError()
        guard error == GL_NO_ERROR else {
            throw ThrobberError(String(format: "OpenGL error 0x%04X while rendering", error), kind: .backendFailure)
        }
    }

    /// Renders `list` and starts its readback into a pixel-buffer object, then returns the frame
    /// started `ringSize − 1` calls earlier (nil until the ring has filled). On a GPU the next
    /// frame renders while the last one travels over the bus; `drainPipelined` returns the rest
    /// (call it before changing the canvas size).
    ///
    /// - Throws: as `render(_:)`.
    public func renderPipelined(_ list: DrawList) throws -> Image? {
        try draw(list)
        let size = list.width * list.height * 4
        if pixelBuffers.isEmpty || pixelBufferSize != size {
            guard pending.isEmpty else {
                throw ThrobberError("renderPipelined: call drainPipelined before changing the canvas size", kind: .backendFailure)
            }
            releasePixelBuffers()
            pixelBuffers = [GLuint](repeating: 0, count: GLRenderer.ringSize)
            gl.GenBuffers(GLsizei(GLRenderer.ringSize), &pixelBuffers)
            for buffer in pixelBuffers {
                gl.BindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), buffer)
                gl.BufferData(GLenum(GL_PIXEL_PACK_BUFFER), size, nil, GLenum(GL_STREAM_READ))
            }
            pixelBufferSize = size
        }
        let buffer = pixelBuffers[nextPixelBuffer]
        nextPixelBuffer = (nextPixelBuffer + 1) % pixelBuffers.count
        gl.BindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), target!.framebuffer)
        gl.BindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), buffer)
        gl.PixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        gl.ReadPixels(0, 0, GLsizei(list.width), GLsizei(list.height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
        let fence = gl.FenceSync?(GLenum(GL_SYNC_GPU_COMMANDS_COMPLETE), 0)
        gl.BindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0)
        pending.append((buffer, fence, list.width, list.height))
        guard pending.count >= pixelBuffers.count else { return nil }
        return try collectOldest()
    }

    /// The frames `renderPipelined` still holds, oldest first.
    ///
    /// - Throws: backend-failure when a buffer cannot be mapped.
    public func drainPipelined() throws -> [Image] {
        var images: [Image] = []
        while !pending.isEmpty { images.append(try collectOldest()) }
        return images
    }

    /// How many frames the readback ring holds in flight.
    public static let ringSize = 3

    private func collectOldest() throws -> Image {
        let (buffer, fence, width, height) = pending.removeFirst()
        if let fence {
            _ = gl.ClientWaitSync?(fence, GLbitfield(GL_SYNC_FLUSH_COMMANDS_BIT), 10_000_000_000)
            gl.DeleteSync?(fence)
        }
        gl.BindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), buffer)
        defer { gl.BindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0) }
        let count = width * height * 4
        guard let mapped = gl.MapBufferRange(GLenum(GL_PIXEL_PACK_BUFFER), 0, count, GLbitfield(GL_MAP_READ_BIT)) else {
            throw ThrobberError(String(format: "glMapBufferRange failed (0x%04X)", gl.GetError()), kind: .backendFailure)
        }
        let pixels = [UInt8](UnsafeRawBufferPointer(start: mapped, count: count))
        _ = gl.UnmapBuffer(GLenum(GL_PIXEL_PACK_BUFFER))
        return Image(width: width, height: height, pixels: pixels)
    }

    private func releasePixelBuffers() {
        for (_, fence, _, _) in pending { if let fence { gl.DeleteSync?(fence) } }
        pending.removeAll()
        if !pixelBuffers.isEmpty { gl.DeleteBuffers(GLsizei(pixelBuffers.count), pixelBuffers) }
        pixelBuffers = []
    }

    /// Waits until the driver has finished every command issued so far.
    public func finish() { gl.Finish() }

    /// The floor under every frame: clear a `width` × `height` target and read it back, with no
    /// drawing at all (the benchmark's "clear + readback" ceiling).
    ///
    /// - Throws: as `render(_:)`.
    public func clearAndReadBack(width: Int, height: Int, into pixels: UnsafeMutableRawPointer) throws {
        try prepareTarget(width: width, height: height)
        frameRows = 0..<height
        gl.BindFramebuffer(GLenum(GL_FRAMEBUFFER), target!.framebuffer)
        gl.Viewport(0, 0, GLsizei(width), GLsizei(height))
        gl.ClearColor(0, 0, 0, 0)
        gl.Clear(GLbitfield(GL_COLOR_BUFFER_BIT))
        readBack(into: pixels)
    }

    /// Replaces `texture` with `values`: rows of `FrameStack.textureWidth` texels of `components`
    /// values each (`FrameStack` pads them to whole rows), read by boxes.frag with `texelFetch`.
    private func upload<T>(_ values: [T], components: Int, to texture: GLuint, internalFormat: Int32, format: Int32, type: Int32) {
        let rows = values.count / (components * FrameStack.textureWidth)
        gl.BindTexture(GLenum(GL_TEXTURE_2D), texture)
        gl.PixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        values.withUnsafeBytes { bytes in
            gl.TexImage2D(GLenum(GL_TEXTURE_2D), 0, internalFormat, GLsizei(FrameStack.textureWidth), GLsizei(rows), 0,
                          GLenum(format), GLenum(type), bytes.baseAddress)
        }
    }

    /// The box instances' attributes (boxes.vert) and the two textures boxes.frag reads.
    private func setUpBuffers() {
        gl.GenVertexArrays(1, &vertexArray)
        gl.BindVertexArray(vertexArray)
        gl.GenBuffers(1, &instanceBuffer)
        gl.BindBuffer(GLenum(GL_ARRAY_BUFFER), instanceBuffer)
        // FrameStack.instanceWords per instance: centre, half extents, axis, list, background.
        let stride = GLsizei(FrameStack.instanceWords * 4)
        for (location, offset) in [(GLuint(0), 0), (1, 2), (2, 4), (4, 10)] {
            gl.EnableVertexAttribArray(location)
            gl.VertexAttribPointer(location, location == 4 ? 4 : 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride,
                                   UnsafeRawPointer(bitPattern: offset * 4))
        }
        gl.EnableVertexAttribArray(3)
        gl.VertexAttribIPointer(3, 4, GLenum(GL_INT), stride, UnsafeRawPointer(bitPattern: 6 * 4))
        for location: GLuint in 0...4 { gl.VertexAttribDivisor(location, 1) }
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
        var textures: [GLuint] = [0, 0, 0]
        gl.GenTextures(3, &textures)
        (recordTexture, entryTexture, valueTexture) = (textures[0], textures[1], textures[2])
        for texture in textures {
            gl.BindTexture(GLenum(GL_TEXTURE_2D), texture)
            gl.TexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
            gl.TexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        }
        gl.BindTexture(GLenum(GL_TEXTURE_2D), 0)
    }

    private func prepareTarget(width: Int, height: Int) throws {
        if let target, target.width == width, target.height == height { return }
        releaseTarget()
        var t = Target(width: width, height: height)
        gl.GenRenderbuffers(1, &t.renderbuffer)
        gl.BindRenderbuffer(GLenum(GL_RENDERBUFFER), t.renderbuffer)
        gl.RenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_RGBA8), GLsizei(width), GLsizei(height))
        gl.GenFramebuffers(1, &t.framebuffer)
        gl.BindFramebuffer(GLenum(GL_FRAMEBUFFER), t.framebuffer)
        gl.FramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), t.renderbuffer)
        target = t
        do {
            try checkFramebuffer("output (RGBA8)")
        } catch {
            releaseTarget()
            throw error
        }
    }

    private func checkFramebuffer(_ what: String) throws {
        let status = gl.CheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GL_FRAMEBUFFER_COMPLETE else {
            throw ThrobberError(String(format: "the %@ framebuffer is incomplete (status 0x%04X)", what, status),
                                kind: .backendFailure)
        }
    }

    private func releaseTarget() {
        guard var t = target else { return }
        gl.DeleteFramebuffers(1, &t.framebuffer)
        gl.DeleteRenderbuffers(1, &t.renderbuffer)
        target = nil
    }
}
