@preconcurrency import CGL
import Foundation
import Throbber

/// Readback through a ring of pixel-buffer objects: a frame's `glReadPixels` is started into
/// the next buffer and collected `size − 1` frames later, so that on a GPU the next frame
/// renders while the last one travels over the bus (`GLRenderer.renderPipelined`).
///
/// Each readback is fenced where the platform has sync objects (CGL's optional entries), so
/// that collecting it waits for that frame only; without them, mapping the buffer waits itself.
/// Holds its context, so that its buffers and fences are deleted while the context lives. Not
/// `Sendable`: used on the context's thread.
final class ReadbackRing {
    private let context: GLPlatformContext
    private let gl: GLFunctions
    private let size: Int
    private var buffers: [GLuint] = []
    /// The bytes each buffer holds: one frame of the canvas size now read.
    private var bufferBytes = 0
    private var next = 0
    /// The readbacks started and not yet collected, oldest first.
    private var pending: [(buffer: GLuint, fence: GLsync?, width: Int, height: Int)] = []

    /// A ring of `size` buffers, made when the first frame is read.
    init(_ context: GLPlatformContext, size: Int) {
        self.context = context
        gl = context.gl
        self.size = size
    }

    deinit { release() }

    /// Starts reading the `width` × `height` px at the origin of `target` into the next buffer.
    ///
    /// - Returns: the frame started `size − 1` calls earlier, nil until the ring has filled.
    /// - Throws: backend-failure when the canvas size changes while frames are in flight, or a
    ///   buffer cannot be mapped.
    func read(_ target: GLTarget, width: Int, height: Int) throws -> Image? {
        let bytes = width * height * 4
        if buffers.isEmpty || bufferBytes != bytes {
            guard pending.isEmpty else {
                throw ThrobberError("renderPipelined: call drainPipelined before changing the canvas size", kind: .backendFailure)
            }
            release()
            buffers = [GLuint](repeating: 0, count: size)
            gl.GenBuffers(GLsizei(size), &buffers)
            for buffer in buffers {
                gl.BindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), buffer)
                gl.BufferData(GLenum(GL_PIXEL_PACK_BUFFER), bytes, nil, GLenum(GL_STREAM_READ))
            }
            bufferBytes = bytes
        }
        let buffer = buffers[next]
        next = (next + 1) % buffers.count
        gl.BindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), target.framebuffer)
        gl.BindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), buffer)
        gl.PixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        gl.ReadPixels(0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
        let fence = gl.FenceSync?(GLenum(GL_SYNC_GPU_COMMANDS_COMPLETE), 0)
        gl.BindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0)
        pending.append((buffer, fence, width, height))
        guard pending.count >= buffers.count else { return nil }
        return try collectOldest()
    }

    /// The frames still in flight, oldest first.
    ///
    /// - Throws: backend-failure when a buffer cannot be mapped.
    func drain() throws -> [Image] {
        var images: [Image] = []
        while !pending.isEmpty { images.append(try collectOldest()) }
        return images
    }

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

    /// Drops the frames in flight and deletes the buffers.
    private func release() {
        for (_, fence, _, _) in pending { if let fence { gl.DeleteSync?(fence) } }
        pending.removeAll()
        if !buffers.isEmpty { gl.DeleteBuffers(GLsizei(buffers.count), buffers) }
        buffers = []
    }
}
