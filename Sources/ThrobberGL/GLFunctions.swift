@preconcurrency import CGL
import Foundation
import Throbber

/// The GL entry points Throbber calls, resolved for one context (CGL's table, filled through
/// OSMesa's or EGL's GetProcAddress).
///
/// The optional entries (the sync objects `FenceSync`, `ClientWaitSync`, `DeleteSync`) are nil
/// where the platform lacks them; callers do without.
typealias GLFunctions = CGL_Functions

extension GLFunctions {
    /// A GL entry point that a platform lacks and Throbber cannot do without.
    struct Missing: Error {
        /// The GL name, e.g. `glDrawArraysInstanced`.
        let name: String
    }

    /// Resolves every entry point through `resolve` (a platform's GetProcAddress).
    ///
    /// - Parameter resolve: the address of a GL function by name, nil where there is none.
    /// - Throws: `Missing` naming the first required entry point `resolve` lacks; an
    ///   optional one missing is left nil.
    init(resolving resolve: (String) -> UnsafeMutableRawPointer?) throws(Missing) {
        typealias Lookup = (String) -> UnsafeMutableRawPointer?
        let table = UnsafeMutablePointer<GLFunctions>.allocate(capacity: 1)
        defer { table.deallocate() }
        let missing: String? = withoutActuallyEscaping(resolve) { resolve in
            var lookup: Lookup = resolve
            return withUnsafeMutablePointer(to: &lookup) { lookup in
                CGL_load(table, { context, name in
                    context!.assumingMemoryBound(to: Lookup.self).pointee(String(cString: name))
                }, lookup).map { String(cString: $0) }
            }
        }
        if let missing { throw Missing(name: missing) }
        self = table.pointee
    }

    /// Throws when GL has recorded an error since the last call.
    ///
    /// - Throws: backend-failure naming the GL error code.
    func checkError() throws {
        let error = GetError()
        guard error == GL_NO_ERROR else {
            throw ThrobberError(String(format: "OpenGL error 0x%04X while rendering", error), kind: .backendFailure)
        }
    }

    /// Throws unless the bound framebuffer is complete.
    ///
    /// - Parameter what: the framebuffer, for the message (`output (RGBA8)`).
    /// - Throws: backend-failure with the status GL reports.
    func checkFramebuffer(_ what: String) throws {
        let status = CheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GL_FRAMEBUFFER_COMPLETE else {
            throw ThrobberError(String(format: "the %@ framebuffer is incomplete (status 0x%04X)", what, status),
                                kind: .backendFailure)
        }
    }

    /// `count` new textures for data the shaders read with `texelFetch`: nearest filtering, no
    /// storage yet (`upload` gives it), texture 0 bound afterwards.
    func makeDataTextures(_ count: Int) -> [GLuint] {
        var textures = [GLuint](repeating: 0, count: count)
        GenTextures(GLsizei(count), &textures)
        for texture in textures {
            BindTexture(GLenum(GL_TEXTURE_2D), texture)
            TexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
            TexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        }
        BindTexture(GLenum(GL_TEXTURE_2D), 0)
        return textures
    }

    /// Replaces `texture` with `values`: rows of `FrameStack.textureWidth` texels of `components`
    /// values each (`FrameStack` pads them to whole rows), read by the shaders with `texelFetch`.
    func upload<T>(_ values: [T], components: Int, to texture: GLuint, internalFormat: Int32, format: Int32, type: Int32) {
        let rows = values.count / (components * FrameStack.textureWidth)
        BindTexture(GLenum(GL_TEXTURE_2D), texture)
        PixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        values.withUnsafeBytes { bytes in
            TexImage2D(GLenum(GL_TEXTURE_2D), 0, internalFormat, GLsizei(FrameStack.textureWidth), GLsizei(rows), 0,
                       GLenum(format), GLenum(type), bytes.baseAddress)
        }
    }
}
