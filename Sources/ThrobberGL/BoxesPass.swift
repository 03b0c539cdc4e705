@preconcurrency import CGL
import Throbber

/// The boxes pass (Shaders/boxes.vert + boxes.frag), only for quad batches that are not a
/// usable ring: instanced quads, each pixel of a box computing its whole stack — every item
/// that can reach it — the same way, over what the layers pass wrote there (`FrameStack`).
///
/// The records and lists reach the shader as textures `FrameStack.textureWidth` texels wide.
/// Holds its context, so that its programs, buffers and textures are deleted while the context
/// lives. Not `Sendable`: used on the context's thread.
final class BoxesPass {
    private let context: GLPlatformContext
    private let gl: GLFunctions
    private let boxes: GLProgram
    /// `boxes` without the branch on the kind, for stacks whose boxes overlap only boxes.
    private let boxesOnly: GLProgram
    /// `boxes` for stacks that draw paths: a pixel under a path computed by one instance.
    private let withPaths: GLProgram
    /// `boxes` for frames that hold a layer (SPEC §10): one instance per frame, layer operations
    /// among the records (`drawLayered`).
    private let layered: GLProgram
    /// The most texels a data texture holds (`FrameStack.textureWidth` × `GL_MAX_TEXTURE_SIZE`).
    private let maxTexels: Int
    /// The driver's name, for messages.
    private let renderer: String
    private var vertexArray: GLuint = 0
    private var instanceBuffer: GLuint = 0
    private var recordTexture: GLuint = 0
    private var entryTexture: GLuint = 0
    /// The glyph atlas (R8) of the stacks drawn, and the atlas it holds (compared by size and
    /// revision: `CoverageAtlas`), so an atlas is uploaded once for the frames that share it.
    private var atlasTexture: GLuint = 0
    private var atlasHeld: CoverageAtlas?
    /// The paths' chords, bands and paints (RGBA32F, `FrameStack.pathData`).
    private var pathTexture: GLuint = 0
    /// The images the stacks read (RGBA8), each uploaded once and kept (`BitmapPlacement`).
    private let bitmapTextures: BitmapTextures

    /// Compiles the boxes programs and sets up the instances' attributes (boxes.vert) and the
    /// textures boxes.frag reads.
    ///
    /// - Parameters:
    ///   - maxTexels: the most texels a data texture may hold.
    ///   - renderer: the driver's name (`GL_RENDERER`), for messages.
    /// - Throws: backend-failure when a shader does not compile (with the driver's log).
    init(_ context: GLPlatformContext, library: ShaderLibrary, maxTexels: Int, renderer: String) throws {
        self.context = context
        let gl = context.gl
        self.gl = gl
        self.maxTexels = maxTexels
        self.renderer = renderer
        bitmapTextures = BitmapTextures(context, maxRows: maxTexels / FrameStack.textureWidth, renderer: renderer)
        let uniforms = ["u_resolution", "u_items", "u_lists", "u_atlas", "u_paths", "u_bitmaps"]
        boxes = try GLProgram(gl, library: library, vertex: "boxes.vert", fragment: "boxes.frag", uniforms: uniforms)
        boxesOnly = try GLProgram(gl, library: library, vertex: "boxes.vert", fragment: "boxes.frag", defines: ["BOXES_ONLY"],
                                  uniforms: uniforms)
        withPaths = try GLProgram(gl, library: library, vertex: "boxes.vert", fragment: "boxes.frag", defines: ["PATHS"], uniforms: uniforms)
        layered = try GLProgram(gl, library: library, vertex: "boxes.vert", fragment: "boxes.frag",
                                defines: ["LAYERED", "LAYER_RECORD \(Int(Layer.recordKind))", "LAYER_DEPTH \(Layer.maximumDepth)"],
                                uniforms: uniforms)
        gl.GenVertexArrays(1, &vertexArray)
        gl.BindVertexArray(vertexArray)
        gl.GenBuffers(1, &instanceBuffer)
        gl.BindBuffer(GLenum(GL_ARRAY_BUFFER), instanceBuffer)
        for location: GLuint in 0...4 { gl.EnableVertexAttribArray(location) }
        pointInstances(from: 0)
        for location: GLuint in 0...4 { gl.VertexAttribDivisor(location, 1) }
        let textures = gl.makeDataTextures(4)
        (recordTexture, entryTexture, atlasTexture, pathTexture) = (textures[0], textures[1], textures[2], textures[3])
    }

    deinit {
        var textures = [recordTexture, entryTexture, atlasTexture, pathTexture]
        gl.DeleteTextures(4, &textures)
        gl.DeleteBuffers(1, &instanceBuffer)
        gl.DeleteVertexArrays(1, &vertexArray)
        gl.DeleteProgram(boxes.id)
        gl.DeleteProgram(boxesOnly.id)
        gl.DeleteProgram(withPaths.id)
        gl.DeleteProgram(layered.id)
    }

    /// Points the instances' attributes (boxes.vert) at the instance buffer from instance `first`
    /// on: a draw of some of the instances starts there (no base instance in GL 3.3).
    private func pointInstances(from first: Int) {
        // FrameStack.instanceWords per instance: centre, half extents, axis, list, background.
        let stride = GLsizei(FrameStack.instanceWords * 4)
        let base = first * FrameStack.instanceWords * 4
        for (location, offset) in [(GLuint(0), 0), (1, 2), (2, 4), (4, 10)] {
            gl.VertexAttribPointer(location, location == 4 ? 4 : 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride,
                                   UnsafeRawPointer(bitPattern: base + offset * 4))
        }
        gl.VertexAttribIPointer(3, 4, GLenum(GL_INT), stride, UnsafeRawPointer(bitPattern: base + 6 * 4))
    }

    /// How much work a draw between two looks at a stop may hold, in pixel × item evaluations:
    /// a box costs its quad's pixels times the records in its list (every pixel computes its whole
    /// stack). The estimate runs low where many boxes overlap: 2²⁶ of it was over a second of
    /// llvmpipe's work for 1,000 overlapping 50 × 5 px boxes, and a SIGINT waited 1.3 s (the heavy
    /// fuzz family); 2²² keeps a stop within 0.1 s there, and the frames of ordinary scenes are
    /// one run as before (1,000 such boxes draw 8 % slower, within this machine's noise).
    static let workPerStopCheck = 1 << 22

    /// Where the instances of `stack` are cut into draws between two looks at a stop: runs whose
    /// work (`workPerStopCheck`) stays under the bound, at least one instance each.
    static func chunks(_ stack: FrameStack) -> [Range<Int>] {
        let words = FrameStack.instanceWords
        var chunks: [Range<Int>] = []
        var first = 0, work = 0.0
        for i in 0..<stack.instanceCount {
            let halfX = Double(Float(bitPattern: stack.instances[i * words + 2])), halfY = Double(Float(bitPattern: stack.instances[i * words + 3]))
            let count = Double(max(1, Int32(bitPattern: stack.instances[i * words + 7])))
            let cost = (2 * halfX + 2) * (2 * halfY + 2) * count
            if i > first && work + cost > Double(workPerStopCheck) {
                chunks.append(first..<i)
                first = i
                work = 0
            }
            work += cost
        }
        if first < stack.instanceCount { chunks.append(first..<stack.instanceCount) }
        return chunks
    }

    /// Paints the boxes of `plans` (`LayerPlan.boxItems`) over what the layers pass wrote into
    /// the bound stack target; nothing when no plan has any.
    ///
    /// - Parameters:
    ///   - frames: the stack's frames as prepared (`GLFrame`), of `width` × `height` px each.
    ///   - resolution: the stack target's size in px.
    ///   - checkpoint: when given, the boxes are drawn in runs of bounded work (`chunks`), and
    ///     asked after each (it finishes the GL work and says whether to stop).
    /// - Returns: false when `checkpoint` said to stop (the frames are not whole).
    /// - Throws: a usage error when the stack holds more primitives than a texture does.
    @discardableResult
    func draw(_ frames: [GLFrame], plans: [LayerPlan], width: Int, height: Int, resolution: (Float, Float),
              checkpoint: (() -> Bool)? = nil) throws -> Bool {
        guard plans.contains(where: { !$0.boxItems.isEmpty }) else { return true }
        gl.BindVertexArray(vertexArray)
        let stack = FrameStack(frames, boxItems: plans.map(\.boxItems), width: width, height: height, entryLimit: maxTexels,
                               stopping: checkpoint)
        guard stack.records.count / 4 <= maxTexels else {
            throw ThrobberError.invalid("draw list", "\(stack.recordCount) primitives",
                                        allowed: "at most \(maxTexels / 5) primitives in a stack on \(renderer)")
        }
        // Each box lists the records that reach it: many overlapping boxes are boxes × boxes
        // entries (refused as soon as they outgrow the texture, not once all are built).
        guard stack.entries.count <= maxTexels else {
            throw ThrobberError("invalid draw list: the lists of the records reaching its first \(stack.instanceCount) boxes already hold "
                                + "\(stack.entries.count) entries; at most \(maxTexels) in a stack on \(renderer) (overlapping boxes list each other: "
                                + "draw fewer, or use --backend cpu)", kind: .usage, field: "draw list")
        }
        // Every path's chords (listed once per band they cross) and paint; path.glsl indexes them
        // by floats, exact to 2²⁴.
        let pathTexels = min(maxTexels, 1 << 24)
        guard stack.pathData.count / 4 <= pathTexels else {
            throw ThrobberError("invalid draw list: its paths need \(stack.pathData.count / 4) texels of chords, bands and paints; "
                                + "at most \(pathTexels) in a stack on \(renderer) (draw fewer or simpler paths, or use --backend cpu)",
                                kind: .usage, field: "draw list")
        }
        if stack.cutShort { return false }
        return try draw(stack, program: stack.boxesOnly ? boxesOnly : stack.hasPaths ? withPaths : boxes, frames: frames,
                        resolution: resolution, checkpoint: checkpoint)
    }

    /// Paints whole frames that hold layers (SPEC §10) into the bound stack target: one instance
    /// per frame whose pixels run every record of the frame in paint order, a layer's operations
    /// among them (boxes.frag with LAYERED; `FrameStack.init(wholeFrames:)`). The layers pass
    /// draws nothing of these frames.
    ///
    /// - Returns: false when `checkpoint` said to stop.
    /// - Throws: a usage error when the stack holds more records or path data than a texture does.
    func drawLayered(_ frames: [GLFrame], width: Int, height: Int, resolution: (Float, Float), checkpoint: (() -> Bool)? = nil) throws -> Bool {
        gl.BindVertexArray(vertexArray)
        let stack = FrameStack(wholeFrames: frames, width: width, height: height)
        let pathTexels = min(maxTexels, 1 << 24)
        guard stack.records.count / 4 <= maxTexels, stack.entries.count <= maxTexels, stack.pathData.count / 4 <= pathTexels else {
            throw ThrobberError.invalid("draw list", "\(stack.recordCount) records and \(stack.pathData.count / 4) texels of path data",
                                        allowed: "at most \(maxTexels / 5) records and \(pathTexels) texels in a stack of frames with layers "
                                            + "on \(renderer) (draw fewer or simpler shapes, or use --backend cpu)")
        }
        return try draw(stack, program: layered, frames: frames, resolution: resolution, checkpoint: checkpoint)
    }

    /// Uploads `stack` and draws its instances with `program`, in runs between looks at `checkpoint`.
    private func draw(_ stack: FrameStack, program: GLProgram, frames: [GLFrame], resolution: (Float, Float),
                      checkpoint: (() -> Bool)?) throws -> Bool {
        var stack = stack
        // The images the records read, uploaded where the texture lacks them; each record told its image's row.
        if !stack.bitmaps.isEmpty { stack.placeBitmaps(rows: try bitmapTextures.place(stack.bitmaps)) }
        gl.upload(stack.records, components: 4, to: recordTexture, internalFormat: GL_RGBA32F, format: GL_RGBA, type: GL_FLOAT)
        gl.upload(stack.entries, components: 1, to: entryTexture, internalFormat: GL_R32I, format: GL_RED_INTEGER, type: GL_INT)
        gl.upload(stack.pathData, components: 4, to: pathTexture, internalFormat: GL_RGBA32F, format: GL_RGBA, type: GL_FLOAT)
        gl.UseProgram(program.id)
        gl.Uniform2f(program["u_resolution"], resolution.0, resolution.1)
        // A stack's frames share their resources (GLRenderer stacks only such frames): one atlas
        // at most, read by glyph records.
        let resources = frames.first?.list.resources ?? DrawResources()
        precondition(resources.atlases.count <= 1, "a draw list reads one atlas at most")
        if let atlas = resources.atlases.values.first, atlas != atlasHeld {
            gl.BindTexture(GLenum(GL_TEXTURE_2D), atlasTexture)
            gl.PixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
            atlas.coverage.withUnsafeBytes { bytes in
                gl.TexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_R8, GLsizei(atlas.width), GLsizei(atlas.height), 0, GLenum(GL_RED),
                              GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
            }
            gl.PixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
            atlasHeld = atlas
        }
        for (unit, texture, name) in [(0, recordTexture, "u_items"), (1, entryTexture, "u_lists"), (2, atlasTexture, "u_atlas"), (3, pathTexture, "u_paths"),
                                      (4, bitmapTextures.texture, "u_bitmaps")] {
            gl.ActiveTexture(GLenum(GL_TEXTURE0 + Int32(unit)))
            gl.BindTexture(GLenum(GL_TEXTURE_2D), texture)
            gl.Uniform1i(program[name], GLint(unit))
        }
        gl.BindBuffer(GLenum(GL_ARRAY_BUFFER), instanceBuffer)
        stack.instances.withUnsafeBytes { bytes in
            gl.BufferData(GLenum(GL_ARRAY_BUFFER), bytes.count, bytes.baseAddress, GLenum(GL_STREAM_DRAW))
        }
        guard let checkpoint else {
            pointInstances(from: 0)
            gl.DrawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, 4, GLsizei(stack.instanceCount))
            return true
        }
        for chunk in BoxesPass.chunks(stack) {
            pointInstances(from: chunk.lowerBound)
            gl.DrawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, 4, GLsizei(chunk.count))
            if checkpoint() { return false }
        }
        return true
    }
}
