@preconcurrency import CGL
import Throbber

/// Where a GL context comes from. OSMesa and EGL on Mesa's llvmpipe render on the CPU; an EGL
/// device can be a GPU (NVIDIA's EGL exposes each GPU as a device).
public enum GLPlatform: Sendable, Equatable, CustomStringConvertible {
    /// Mesa's OSMesa (llvmpipe), in-process.
    case osmesa
    /// EGL device `index` of `eglQueryDevicesEXT` (EGL_EXT_platform_device).
    case eglDevice(Int)
    /// Mesa's EGL_MESA_platform_surfaceless (llvmpipe here, or the default GPU driver).
    case eglSurfaceless

    public var description: String {
        switch self {
        case .osmesa: return "OSMesa"
        case .eglDevice(let index): return "EGL device \(index)"
        case .eglSurfaceless: return "EGL surfaceless"
        }
    }
}

/// A current GL context of some platform, with its function table: the one small type an
/// OSMesa or EGL context hides behind. Not `Sendable`: current on the thread that made it.
protocol GLPlatformContext: AnyObject {
    /// The GL functions, resolved for this context.
    var gl: GLFunctions { get }
    /// What the context is, for reports.
    var platform: String { get }
}

extension GLPlatform {
    /// Opens a context of this platform on the calling thread.
    ///
    /// - Throws: backend-unavailable naming the missing library or the failing call.
    func makeContext() throws -> GLPlatformContext {
        switch self {
        case .osmesa: return try OSMesaGLContext()
        case .eglDevice(let index): return try EGLGLContext(device: index)
        case .eglSurfaceless: return try EGLGLContext(device: nil)
        }
    }
}
