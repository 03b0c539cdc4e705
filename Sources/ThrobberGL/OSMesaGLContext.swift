@preconcurrency import CGL
@preconcurrency import COSMesa
import Foundation
import Throbber

/// An in-process OpenGL 3.3+ core-profile context from Mesa's OSMesa (llvmpipe): no display,
/// no GPU. The one small type that owns the platform context; an EGL context can take its place.
///
/// Not `Sendable`: a GL context is current on one thread. Create it, use it and let it go on
/// the same thread.
final class OSMesaGLContext: GLPlatformContext {
    /// The loaded library.
    let api: UnsafeMutablePointer<COSMesa_API>
    let gl: GLFunctions
    private let context: OpaquePointer
    /// OSMesa needs a colour buffer to make a context current; we render into our own
    /// framebuffer objects, so a single pixel does.
    private let dummy = UnsafeMutablePointer<UInt8>.allocate(capacity: 4)

    /// The environment variable that names the libOSMesa file to open, for unusual installs
    /// (and for tests of the missing-library path).
    static let libraryPathVariable = "THROBBER_OSMESA_LIBRARY"

    /// Loads libOSMesa and makes a core-profile context current on this thread.
    ///
    /// - Throws: a backend-unavailable error naming the missing package or the failing call.
    init() throws {
        var message = [CChar](repeating: 0, count: 512)
        let path = ProcessInfo.processInfo.environment[OSMesaGLContext.libraryPathVariable]
        guard let api = COSMesa_load(path, &message, message.count) else {
            dummy.deallocate()
            throw ThrobberError(String(nulTerminated: message), kind: .backendUnavailable)
        }
        do {
            gl = try GLFunctions { name in COSMesa_resolve(api, name) }
        } catch {
            COSMesa_unload(api)
            dummy.deallocate()
            // Worded as COSMesa_load words an OSMesa entry point missing.
            throw ThrobberError("libOSMesa lacks \(error.name); install a newer libosmesa6 (Mesa ≥ 20)", kind: .backendUnavailable)
        }
        let attributes: [Int32] = [
            OSMESA_FORMAT, GL_RGBA,
            OSMESA_DEPTH_BITS, 0,
            OSMESA_STENCIL_BITS, 0,
            OSMESA_PROFILE, OSMESA_CORE_PROFILE,
            OSMESA_CONTEXT_MAJOR_VERSION, 3,
            OSMESA_CONTEXT_MINOR_VERSION, 3,
            0,
        ]
        guard let context = api.pointee.CreateContextAttribs(attributes, nil) else {
            COSMesa_unload(api)
            dummy.deallocate()
            throw ThrobberError("OSMesaCreateContextAttribs could not create an OpenGL 3.3 core context",
                                kind: .backendUnavailable)
        }
        guard api.pointee.MakeCurrent(context, dummy, GLenum(GL_UNSIGNED_BYTE), 1, 1) != 0 else {
            api.pointee.DestroyContext(context)
            COSMesa_unload(api)
            dummy.deallocate()
            throw ThrobberError("OSMesaMakeCurrent failed", kind: .backendUnavailable)
        }
        self.api = api
        self.context = context
    }

    var platform: String { "OSMesa" }

    deinit {
        api.pointee.DestroyContext(context)
        COSMesa_unload(api)
        dummy.deallocate()
    }
}
