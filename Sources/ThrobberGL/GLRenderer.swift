@preconcurrency import CGL
import Throbber

/// Renders draw lists with OpenGL through an OSMesa or EGL core-profile context.
///
/// One pass where one pass can do it, writing final 8-bit pixels — no float target, no separate
/// resolve:
/// - *layers* (`LayersPass`, Shaders/layers.frag): tiles of the frame, whose fragment shader
///   paints every disc, wave, arc, single box and ring of boxes (tick rings, spinner leaves) that
///   reaches the tile, per pixel, in paint order, blending source-over in registers and
///   quantising once (SPEC §0). The program is compiled once per shape of the layers it paints
///   (`LayerPlan`); the numbers reach it as flat varyings, fetched per vertex from a texture.
///   Rings that recur from frame to frame are read from coverage textures (`RingCoverageCache`).
/// - *boxes* (`BoxesPass`, Shaders/boxes.frag), only for quad batches that are not a usable
///   ring: instanced quads, each pixel of a box computing its whole stack — every item that can
///   reach it — the same way, over what the layers pass wrote there (`FrameStack`).
///
/// - *layered* (`BoxesPass.drawLayered`), for a stack in which some frame holds a `Layer`
///   (SPEC §10), instead of both: one instance over each whole frame, running every record of the
///   frame in paint order with the layers' operations on float registers (boxes.frag's LAYERED).
///
/// Many frames per flush: `render(_ lists:)` paints a stack of frames one above the other in one
/// target (`GLTarget`) — one instanced layers draw per shape and one instanced boxes draw for all
/// of them — and reads the stack back at once, so the fixed cost of a draw, a flush and a
/// readback is paid per stack, not per frame.
///
/// Rows: GL row j holds image row j (image y down) — the vertex shaders map image coordinates
/// to clip space unflipped — so `glReadPixels`, which returns row 0 first, yields the image's
/// top row first. That is the single place the bottom-up convention of GL is accounted for.
///
/// Not `Sendable`: the context is current on the thread that created the renderer; use it there.
public final class GLRenderer {
    private let context: GLPlatformContext
    let gl: GLFunctions
    /// The driver's strings and limits.
    public let info: GLInfo
    private let layers: LayersPass
    private let boxes: BoxesPass
    private let ringCoverage: RingCoverageCache
    private let readbackRing: ReadbackRing
    /// The target of the last stack drawn (nil before the first).
    private(set) var target: GLTarget?
    /// The rows of the target the last frame drawn by `draw` occupies.
    var frameRows = 0..<0
    /// Where `render(_ lists:)` reads a whole stack back at once.
    private var stackPixels: [UInt8] = []
    /// What the items of the frames drawn last were prepared into, by identity (`GLPreparedItems`).
    private var preparedItems = GLPreparedItems()
    /// Whether rings that recur from frame to frame are drawn from coverage textures (on by
    /// default; the pixels are the same either way, up to the last bit of a coverage).
    public var cachesRingCoverage = true
    /// How many coverage textures are kept, and their bytes (for tests).
    var coverageTextureCount: Int { ringCoverage.count }
    var coverageBytes: Int { ringCoverage.bytes }

    /// The most frames one stack holds: enough that the fixed cost of a draw and a flush
    /// vanishes against the frames' own.
    public static let maximumFramesPerStack = 64
    /// The most pixels one stack holds (1 MB of RGBA8). On llvmpipe stacks pay off for small
    /// frames only (measured with bench/floor-vs-gl.sh: 64 px 0.11 ms a frame in stacks of 64
    /// against 0.19 one by one; 256 px and 512 px no faster), so a 512×512 frame is a stack alone.
    public static let maximumStackPixels = 1 << 18
    /// How many frames the readback ring holds in flight.
    public static let ringSize = 3

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
        info = GLInfo(platform: context.platform, vendor: string(GL_VENDOR), renderer: string(GL_RENDERER), version: string(GL_VERSION),
                      maxCanvasSide: Int(min(renderbufferSide, viewport[0], viewport[1])))
        // The records, lists and values are textures `FrameStack.textureWidth` texels wide, of
        // at most GL_MAX_TEXTURE_SIZE rows.
        let maxTexels = FrameStack.textureWidth * Int(textureSide)
        boxes = try BoxesPass(context, library: shaders, maxTexels: maxTexels, renderer: info.renderer)
        layers = try LayersPass(context, library: shaders, maxTexels: maxTexels, renderer: info.renderer)
        ringCoverage = RingCoverageCache(context)
        readbackRing = ReadbackRing(context, size: GLRenderer.ringSize)
    }

    /// The EGL devices this machine offers (a GPU each, and Mesa's software device).
    ///
    /// - Throws: backend-unavailable when libEGL or device enumeration is missing.
    public static func eglDevices() throws -> [EGLDeviceDescription] {
        try EGLGLContext.devices()
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
    /// Consecutive lists of one canvas size and equal resources share a stack (`framesPerDraw(width:height:)` at most).
    ///
    /// - Returns: one image per list, in order.
    /// - Throws: as `render(_:)`.
    public func render(_ lists: [DrawList]) throws -> [Image] {
        try render(lists, stopping: nil)
    }

    /// Renders frames as ``render(_:)-([DrawList])`` does, giving up once `stopping` says so: it
    /// is asked after each draw, the GL work finished first (`glFinish`), and a boxes draw is cut
    /// into runs of bounded work (`BoxesPass.chunks`), so that one heavy stack does not hold up
    /// a run that was asked to stop. What `stopping` looks at is the caller's; it must be cheap.
    ///
    /// - Returns: the frames of the stacks drawn whole before the stop, in order (all of them
    ///   when it never said so).
    /// - Throws: as `render(_:)`.
    public func render(_ lists: [DrawList], stopping: (() -> Bool)?) throws -> [Image] {
        var images: [Image] = []
        images.reserveCapacity(lists.count)
        var start = lists.startIndex
        while start < lists.endIndex {
            let (width, height) = (lists[start].width, lists[start].height)
            let limit = framesPerDraw(width: width, height: height)
            var end = start + 1
            // A stack's frames share one canvas size and the resources they read (one atlas).
            while end < lists.endIndex, end - start < limit, lists[end].width == width, lists[end].height == height,
                  lists[end].resources == lists[start].resources { end += 1 }
            guard try draw(lists[start..<end], stopping: stopping) else { return images }
            // One readback for the whole stack, rather than a glReadPixels call (each mapping
            // the target) per frame; a frame alone is read straight into its image.
            let frameBytes = width * height * 4, count = end - start
            if count == 1 {
                images.append(Image(width: width, height: height, pixels: [UInt8](unsafeUninitializedCapacity: frameBytes) { buffer, done in
                    target?.readBack(rows: 0..<height, into: UnsafeMutableRawPointer(buffer.baseAddress!))
                    done = frameBytes
                }))
            } else {
                if stackPixels.count < frameBytes * count { stackPixels = [UInt8](repeating: 0, count: frameBytes * count) }
                stackPixels.withUnsafeMutableBytes { target?.readBack(rows: 0..<(height * count), into: $0.baseAddress!) }
                for f in 0..<count {
                    images.append(Image(width: width, height: height, pixels: Array(stackPixels[(f * frameBytes)..<((f + 1) * frameBytes)])))
                }
            }
            try gl.checkError()
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
        try gl.checkError()
    }

    /// Renders `list` and starts its readback into a pixel-buffer object, then returns the frame
    /// started `ringSize − 1` calls earlier (nil until the ring has filled). On a GPU the next
    /// frame renders while the last one travels over the bus; `drainPipelined` returns the rest
    /// (call it before changing the canvas size).
    ///
    /// - Throws: as `render(_:)`.
    public func renderPipelined(_ list: DrawList) throws -> Image? {
        try draw(list)
        return try readbackRing.read(target!, width: list.width, height: list.height)
    }

    /// The frames `renderPipelined` still holds, oldest first.
    ///
    /// - Throws: backend-failure when a buffer cannot be mapped.
    public func drainPipelined() throws -> [Image] {
        try readbackRing.drain()
    }

    /// How many frames of `width` × `height` px one stack holds: as many as fit the driver's
    /// largest target side and `maximumStackPixels`, at most `maximumFramesPerStack`, at least 1.
    public func framesPerDraw(width: Int, height: Int) -> Int {
        let bySide = info.maxCanvasSide / max(1, height)
        let byPixels = GLRenderer.maximumStackPixels / max(1, width * height)
        return max(1, min(GLRenderer.maximumFramesPerStack, bySide, byPixels))
    }

    /// Paints a stack of frames of one canvas size: the ring coverage the stack reads, then the
    /// layers pass, then the boxes pass, into a target of the whole stack.
    ///
    /// - Parameter stopping: when given, asked after each draw, the GL work finished first.
    /// - Returns: false when `stopping` said to stop (the stack is not whole).
    @discardableResult
    func draw(_ lists: ArraySlice<DrawList>, stopping: (() -> Bool)? = nil) throws -> Bool {
        if let stopping, stopping() { return false }
        let width = lists.first!.width, height = lists.first!.height
        try Canvas.check(width: width, height: height, maxSide: info.maxCanvasSide, renderer: info.renderer)
        // Each item as GL draws it, kept from the frames before while it is unchanged.
        let frames = lists.map { preparedItems.frame($0) }
        // SPEC §10: a stack with a layer in some frame is drawn by the layered path, whole frames
        // per instance; every other stack as before.
        let layered = lists.flatMap(\.items).compactMap { $0.primitive(as: Layer.self) }
        if !layered.isEmpty {
            if let deepest = layered.map(\.depth).max(), deepest > Layer.maximumDepth {
                throw ThrobberError.invalid("draw list", "layers nested \(deepest) deep",
                                            allowed: "at most \(Layer.maximumDepth) (content and matte sources counted) on GL; use --backend cpu")
            }
            let stackHeight = height * lists.count
            let target = try prepareTarget(width: width, height: stackHeight)
            frameRows = 0..<height
            target.bind()
            let gl = self.gl
            let checkpoint = stopping.map { stopping in { () -> Bool in
                gl.Finish()
                return stopping()
            } }
            return try boxes.drawLayered(frames, width: width, height: height, resolution: (Float(width), Float(stackHeight)),
                                         checkpoint: checkpoint)
        }
        var plans = frames.map(LayerPlan.init)
        let coverage = cachesRingCoverage ? try ringCoverage.use(&plans, width: width, height: height, layers: layers) : []
        let stackHeight = height * lists.count
        let target = try prepareTarget(width: width, height: stackHeight)
        frameRows = 0..<height
        let resolution = (Float(width), Float(stackHeight))
        target.bind()
        let gl = self.gl
        let checkpoint = stopping.map { stopping in { () -> Bool in
            gl.Finish()
            return stopping()
        } }
        guard try layers.draw(plans, coverage: coverage, width: width, height: height, resolution: resolution, checkpoint: checkpoint) else {
            return false
        }
        return try boxes.draw(frames, plans: plans, width: width, height: height, resolution: resolution, checkpoint: checkpoint)
    }

    /// The target of `width` × `height` px: the last one when it has that size, else a new one
    /// (the last one deleted first).
    ///
    /// - Throws: backend-failure when the framebuffer is incomplete.
    func prepareTarget(width: Int, height: Int) throws -> GLTarget {
        if let target, target.width == width, target.height == height { return target }
        target = nil
        let made = try GLTarget(context, width: width, height: height)
        target = made
        return made
    }
}
