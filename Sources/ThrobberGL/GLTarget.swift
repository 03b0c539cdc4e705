@preconcurrency import CGL

/// The framebuffer of one stack size: an RGBA8 renderbuffer the passes draw final pixels into
/// and the readback reads.
///
/// Holds its context, so that its GL objects are deleted while the context lives, whenever the
/// target goes. Not `Sendable`: used on the context's thread.
final class GLTarget {
    let width: Int
    let height: Int
    let framebuffer: GLuint
    private let renderbuffer: GLuint
    private let context: GLPlatformContext
    private let gl: GLFunctions

    /// Makes a `width` × `height` target and checks that it is complete.
    ///
    /// - Throws: backend-failure when the framebuffer is incomplete.
    init(_ context: GLPlatformContext, width: Int, height: Int) throws {
        self.context = context
        let gl = context.gl
        self.gl = gl
        self.width = width
        self.height = height
        var renderbuffer: GLuint = 0
        var framebuffer: GLuint = 0
        gl.GenRenderbuffers(1, &renderbuffer)
        gl.BindRenderbuffer(GLenum(GL_RENDERBUFFER), renderbuffer)
        gl.RenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_RGBA8), GLsizei(width), GLsizei(height))
        gl.GenFramebuffers(1, &framebuffer)
        gl.BindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        gl.FramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), renderbuffer)
        self.renderbuffer = renderbuffer
        self.framebuffer = framebuffer
        // An incomplete target is released (deinit) before the error leaves.
        try gl.checkFramebuffer("output (RGBA8)")
    }

    deinit {
        var framebuffer = framebuffer, renderbuffer = renderbuffer
        gl.DeleteFramebuffers(1, &framebuffer)
        gl.DeleteRenderbuffers(1, &renderbuffer)
    }

    /// Binds the target for drawing, its viewport the whole target.
    func bind() {
        gl.BindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        gl.Viewport(0, 0, GLsizei(width), GLsizei(height))
    }

    /// Reads `rows` of the target into `pixels`, top row first (GL row j is image row j: the
    /// vertex shaders map image coordinates to clip space unflipped).
    func readBack(rows: Range<Int>, into pixels: UnsafeMutableRawPointer) {
        gl.BindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), framebuffer)
        gl.PixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        gl.ReadPixels(0, GLint(rows.lowerBound), GLsizei(width), GLsizei(rows.count), GLenum(GL_RGBA),
                      GLenum(GL_UNSIGNED_BYTE), pixels)
    }
}
