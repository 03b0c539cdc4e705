import Foundation
@preconcurrency import COSMesa
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

/// Renders draw lists with OpenGL through an OSMesa core-profile context.
///
/// Full-area primitives (disc, wave, arc) are bounding quads whose fragment shader computes the
/// SPEC §0 coverage per pixel; rounded boxes are one instanced draw call per batch. Painting
/// accumulates premultiplied colour in an RGBA32F texture; one resolve pass quantises into an
/// RGBA8 renderbuffer, which is read back.
///
/// Rows: GL row j holds image row j (image y down) — the vertex shaders map image coordinates
/// to clip space unflipped — so `glReadPixels`, which returns row 0 first, yields the image's
/// top row first. That is the single place the bottom-up convention of GL is accounted for.
///
/// Not `Sendable`: the context is current on the thread that created the renderer; use it there.
public final class GLRenderer {
    private let context: GLPlatformContext
    private let gl: COSMesa_GL
    /// The driver's strings and limits.
    public let info: GLInfo
    private let disc: GLProgram
    private let wave: GLProgram
    private let arc: GLProgram
    private let quad: GLProgram
    private let resolve: GLProgram
    private var vertexArray: GLuint = 0
    private var instanceBuffer: GLuint = 0
    private var instanceData: [Float] = []
    private var target: Target?
    private var pixelBuffers: [GLuint] = []
    private var pixelBufferSize = 0
    private var nextPixelBuffer = 0
    private var pending: [(buffer: GLuint, fence: GLsync?, width: Int, height: Int)] = []

    /// The framebuffers of one canvas size.
    private struct Target {
        var width: Int
        var height: Int
        var accumTexture: GLuint = 0
        var accumFramebuffer: GLuint = 0
        var outputRenderbuffer: GLuint = 0
        var outputFramebuffer: GLuint = 0
    }

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
                      maxCanvasSide: Int(min(renderbufferSide, textureSide, viewport[0], viewport[1])))
        let area = ["u_resolution", "u_rect", "u_annulus", "u_segments", "u_color"]
        disc = try GLProgram(gl, library: shaders, vertex: "area.vert", fragment: "disc.frag",
                             uniforms: area + ["u_circle"])
        wave = try GLProgram(gl, library: shaders, vertex: "area.vert", fragment: "wave.frag",
                             uniforms: area + ["u_wave", "u_baseline", "u_clip", "u_bottom"])
        arc = try GLProgram(gl, library: shaders, vertex: "area.vert", fragment: "arc.frag",
                            uniforms: area + ["u_arc", "u_sweep", "u_maskRotation"])
        quad = try GLProgram(gl, library: shaders, vertex: "quad.vert", fragment: "quad.frag", uniforms: ["u_resolution"])
        resolve = try GLProgram(gl, library: shaders, vertex: "area.vert", fragment: "resolve.frag",
                                uniforms: ["u_resolution", "u_rect", "u_annulus", "u_segments", "u_color", "u_accum"])
        setUpInstancing()
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
        gl.DeleteBuffers(1, &instanceBuffer)
        gl.DeleteVertexArrays(1, &vertexArray)
        for program in [disc, wave, arc, quad, resolve] { gl.DeleteProgram(program.id) }
    }

    /// Renders one frame and reads it back.
    ///
    /// - Throws: a usage error when the canvas exceeds the driver's limits; backend-failure when
    ///   the framebuffer is incomplete or GL reports an error.
    public func render(_ list: DrawList) throws -> Image {
        var pixels = [UInt8](repeating: 0, count: list.width * list.height * 4)
        try pixels.withUnsafeMutableBytes { try render(list, into: $0.baseAddress!) }
        return Image(width: list.width, height: list.height, pixels: pixels)
    }

    /// Renders one frame into `pixels` (width × height × 4 bytes, top-down straight-alpha RGBA8).
    ///
    /// - Throws: as `render(_:)`.
    public func render(_ list: DrawList, into pixels: UnsafeMutableRawPointer) throws {
        try draw(list)
        readBack(into: pixels)
        let error = gl.GetError()
        guard error == GL_NO_ERROR else {
            throw ThrobberError(String(format: "OpenGL error 0x%04X while rendering", error), exitCode: .backendFailure)
        }
    }

    /// Paints and resolves one frame without reading it back (for the benchmark's stages).
    ///
    /// - Throws: as `render(_:)`.
    public func draw(_ list: DrawList) throws {
        try prepareTarget(width: list.width, height: list.height)
        let width = Float(list.width), height = Float(list.height)
        // Only the union of the items' bounds can differ from the background, so only it is
        // cleared, painted and resolved; the rest of the output is cleared to the background's
        // final 8-bit colour directly.
        let union = PixelRect.union(list.items.map(\.bounds))
        let bg = list.background
        gl.Viewport(0, 0, GLsizei(list.width), GLsizei(list.height))
        gl.BindFramebuffer(GLenum(GL_FRAMEBUFFER), target!.outputFramebuffer)
        gl.Disable(GLenum(GL_SCISSOR_TEST))
        let final = resolvePixel(bg.r * bg.a, bg.g * bg.a, bg.b * bg.a, bg.a)
        gl.ClearColor(Float(final.0) / 255, Float(final.1) / 255, Float(final.2) / 255, Float(final.3) / 255)
        gl.Clear(GLbitfield(GL_COLOR_BUFFER_BIT))
        guard !union.isEmpty else { return }

        gl.BindFramebuffer(GLenum(GL_FRAMEBUFFER), target!.accumFramebuffer)
        // Clearing a float target costs llvmpipe ~3 ns a pixel on one thread (measured), so only
        // the union is cleared.
        gl.Enable(GLenum(GL_SCISSOR_TEST))
        scissor(union)
        gl.ClearColor(bg.r * bg.a, bg.g * bg.a, bg.b * bg.a, bg.a)
        gl.Clear(GLbitfield(GL_COLOR_BUFFER_BIT))
        gl.Enable(GLenum(GL_BLEND))
        // Premultiplied source-over: dst = s + dst·(1 − s.a) (SPEC §0).
        gl.BlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        gl.BindVertexArray(vertexArray)
        for item in list.items {
            let rect = item.bounds
            if rect.isEmpty { continue }
            switch item {
            case .disc(let d):
                use(disc, width, height, rect, d.color)
                gl.Uniform3f(disc["u_circle"], d.centerX, d.centerY, d.radius)
                drawArea(disc, rect, item.annulus)
            case .wave(let w):
                use(wave, width, height, rect, w.color)
                gl.Uniform4f(wave["u_wave"], w.originX, w.amplitude, w.k, w.phase)
                gl.Uniform1f(wave["u_baseline"], w.baseline)
                gl.Uniform3f(wave["u_clip"], w.clipCenterX, w.clipCenterY, w.clipRadius)
                gl.Uniform1f(wave["u_bottom"], w.bottom)
                drawArea(wave, rect, item.annulus)
            case .arc(let a):
                use(arc, width, height, rect, a.color)
                gl.Uniform4f(arc["u_arc"], a.centerX, a.centerY, a.radius, a.lineWidth)
                gl.Uniform2f(arc["u_sweep"], a.start, a.sweep)
                gl.Uniform1f(arc["u_maskRotation"], a.maskRotation)
                drawArea(arc, rect, item.annulus)
            case .quads(let batch):
                scissor(union)
                drawQuads(batch, width, height)
            }
        }
        // Resolve: the one quantisation, into the RGBA8 target.
        gl.Disable(GLenum(GL_BLEND))
        gl.BindFramebuffer(GLenum(GL_FRAMEBUFFER), target!.outputFramebuffer)
        gl.UseProgram(resolve.id)
        gl.Uniform2f(resolve["u_resolution"], width, height)
        gl.Uniform4f(resolve["u_color"], 0, 0, 0, 0)
        gl.ActiveTexture(GLenum(GL_TEXTURE0))
        gl.BindTexture(GLenum(GL_TEXTURE_2D), target!.accumTexture)
        gl.Uniform1i(resolve["u_accum"], 0)
        // Resolve only where something was painted: each item's ring (or rectangle) within its
        // bounds, skipping an item only when an area already resolved holds all of it — its ring
        // inside that ring AND its bounds inside those bounds, since each was resolved over
        // ring ∩ bounds. (A ring alone is not enough: a tick batch of 6 ticks has the ring of 100
        // but bounds that miss the top and bottom of it.) Resolving a pixel twice writes the
        // same value.
        var resolved: [(ring: Annulus, bounds: PixelRect)] = []
        for item in list.items where !item.bounds.isEmpty {
            guard let ring = item.annulus else {
                drawArea(resolve, item.bounds, nil)
                continue
            }
            if resolved.contains(where: { $0.ring.contains(ring) && $0.bounds.contains(item.bounds) }) { continue }
            resolved.append((ring, item.bounds))
            drawArea(resolve, item.bounds, ring)
        }
        gl.Disable(GLenum(GL_SCISSOR_TEST))
    }

    /// Reads the resolved frame of the last `draw` into `pixels`, top row first.
    public func readBack(into pixels: UnsafeMutableRawPointer) {
        guard let target else { return }
        gl.BindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), target.outputFramebuffer)
        gl.PixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        gl.ReadPixels(0, 0, GLsizei(target.width), GLsizei(target.height), GLenum(GL_RGBA),
                      GLenum(GL_UNSIGNED_BYTE), pixels)
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
                throw ThrobberError("renderPipelined: call drainPipelined before changing the canvas size", exitCode: .backendFailure)
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
        gl.BindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), target!.outputFramebuffer)
        gl.BindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), buffer)
        gl.PixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        gl.ReadPixels(0, 0, GLsizei(list.width), GLsizei(list.height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
        let fence = gl.FenceSync(GLenum(GL_SYNC_GPU_COMMANDS_COMPLETE), 0)
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
            _ = gl.ClientWaitSync(fence, GLbitfield(GL_SYNC_FLUSH_COMMANDS_BIT), 10_000_000_000)
            gl.DeleteSync(fence)
        }
        gl.BindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), buffer)
        defer { gl.BindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0) }
        let count = width * height * 4
        guard let mapped = gl.MapBufferRange(GLenum(GL_PIXEL_PACK_BUFFER), 0, count, GLbitfield(GL_MAP_READ_BIT)) else {
            throw ThrobberError(String(format: "glMapBufferRange failed (0x%04X)", gl.GetError()), exitCode: .backendFailure)
        }
        let pixels = [UInt8](UnsafeRawBufferPointer(start: mapped, count: count))
        _ = gl.UnmapBuffer(GLenum(GL_PIXEL_PACK_BUFFER))
        return Image(width: width, height: height, pixels: pixels)
    }

    private func releasePixelBuffers() {
        for (_, fence, _, _) in pending { if let fence { gl.DeleteSync(fence) } }
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
        gl.BindFramebuffer(GLenum(GL_FRAMEBUFFER), target!.outputFramebuffer)
        gl.Viewport(0, 0, GLsizei(width), GLsizei(height))
        gl.ClearColor(0, 0, 0, 0)
        gl.Clear(GLbitfield(GL_COLOR_BUFFER_BIT))
        readBack(into: pixels)
    }

    private func use(_ program: GLProgram, _ width: Float, _ height: Float, _ rect: PixelRect, _ color: PaintColor) {
        gl.UseProgram(program.id)
        gl.Uniform2f(program["u_resolution"], width, height)
        gl.Uniform4f(program["u_color"], color.r, color.g, color.b, color.a)
    }

    private func scissor(_ rect: PixelRect) {
        gl.Scissor(GLint(rect.x0), GLint(rect.y0), GLsizei(rect.x1 - rect.x0), GLsizei(rect.y1 - rect.y0))
    }

    /// Draws the current program over `rect`, or over `annulus` scissored to `rect`.
    private func drawArea(_ program: GLProgram, _ rect: PixelRect, _ annulus: Annulus?) {
        gl.Uniform4f(program["u_rect"], Float(rect.x0), Float(rect.y0), Float(rect.x1), Float(rect.y1))
        scissor(rect)
        guard let annulus else {
            gl.Uniform1i(program["u_segments"], 0)
            gl.DrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
            return
        }
        // Enough sides that the circumscribed polygon wastes ~2 % of the ring's area.
        let segments = Int32(min(256, max(12, (annulus.outer.squareRoot() * 2).rounded(.up))))
        gl.Uniform4f(program["u_annulus"], annulus.centerX, annulus.centerY, annulus.inner, annulus.outer)
        gl.Uniform1i(program["u_segments"], segments)
        gl.DrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 2 * (segments + 1))
    }

    private func drawQuads(_ batch: QuadBatch, _ width: Float, _ height: Float) {
        guard !batch.instances.isEmpty else { return }
        instanceData.removeAll(keepingCapacity: true)
        for q in batch.instances {
            instanceData.append(contentsOf: [q.centerX, q.centerY, q.halfX, q.halfY, q.rotation, q.cornerRadius,
                                             q.color.r, q.color.g, q.color.b, q.color.a])
        }
        gl.UseProgram(quad.id)
        gl.Uniform2f(quad["u_resolution"], width, height)
        gl.BindBuffer(GLenum(GL_ARRAY_BUFFER), instanceBuffer)
        instanceData.withUnsafeBytes { bytes in
            gl.BufferData(GLenum(GL_ARRAY_BUFFER), bytes.count, bytes.baseAddress, GLenum(GL_STREAM_DRAW))
        }
        gl.DrawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, 4, GLsizei(batch.instances.count))
    }

    private func setUpInstancing() {
        gl.GenVertexArrays(1, &vertexArray)
        gl.BindVertexArray(vertexArray)
        gl.GenBuffers(1, &instanceBuffer)
        gl.BindBuffer(GLenum(GL_ARRAY_BUFFER), instanceBuffer)
        // Per instance: centre (2), half extents (2), rotation, corner radius, colour (4).
        let stride = GLsizei(10 * MemoryLayout<Float>.size)
        let layout: [(location: GLuint, components: GLint, offset: Int)] = [(0, 2, 0), (1, 2, 2), (2, 1, 4), (3, 1, 5), (4, 4, 6)]
        for attribute in layout {
            gl.EnableVertexAttribArray(attribute.location)
            gl.VertexAttribPointer(attribute.location, attribute.components, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride,
                                   UnsafeRawPointer(bitPattern: attribute.offset * MemoryLayout<Float>.size))
            gl.VertexAttribDivisor(attribute.location, 1)
        }
    }

    private func prepareTarget(width: Int, height: Int) throws {
        if let target, target.width == width, target.height == height { return }
        guard width >= 1, height >= 1, width <= info.maxCanvasSide, height <= info.maxCanvasSide else {
            throw ThrobberError.invalid("canvas", "\(width)×\(height) px",
                                        allowed: "each side between 1 and \(info.maxCanvasSide) px on \(info.renderer)")
        }
        releaseTarget()
        var t = Target(width: width, height: height)
        gl.GenTextures(1, &t.accumTexture)
        gl.BindTexture(GLenum(GL_TEXTURE_2D), t.accumTexture)
        gl.TexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA32F, GLsizei(width), GLsizei(height), 0, GLenum(GL_RGBA),
                      GLenum(GL_FLOAT), nil)
        gl.TexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        gl.TexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        gl.GenFramebuffers(1, &t.accumFramebuffer)
        gl.BindFramebuffer(GLenum(GL_FRAMEBUFFER), t.accumFramebuffer)
        gl.FramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), t.accumTexture, 0)
        try checkFramebuffer("accumulation (RGBA32F)")
        gl.GenRenderbuffers(1, &t.outputRenderbuffer)
        gl.BindRenderbuffer(GLenum(GL_RENDERBUFFER), t.outputRenderbuffer)
        gl.RenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_RGBA8), GLsizei(width), GLsizei(height))
        gl.GenFramebuffers(1, &t.outputFramebuffer)
        gl.BindFramebuffer(GLenum(GL_FRAMEBUFFER), t.outputFramebuffer)
        gl.FramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER),
                                   t.outputRenderbuffer)
        try checkFramebuffer("output (RGBA8)")
        target = t
    }

    private func checkFramebuffer(_ what: String) throws {
        let status = gl.CheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GL_FRAMEBUFFER_COMPLETE else {
            throw ThrobberError(String(format: "the %@ framebuffer is incomplete (status 0x%04X)", what, status),
                                exitCode: .backendFailure)
        }
    }

    private func releaseTarget() {
        guard var t = target else { return }
        gl.DeleteFramebuffers(1, &t.accumFramebuffer)
        gl.DeleteFramebuffers(1, &t.outputFramebuffer)
        gl.DeleteTextures(1, &t.accumTexture)
        gl.DeleteRenderbuffers(1, &t.outputRenderbuffer)
        target = nil
    }
}
