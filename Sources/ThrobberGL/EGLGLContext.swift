@preconcurrency import CEGL
@preconcurrency import CGL
import Foundation
import Throbber

/// One EGL device as `eglQueryDevicesEXT` lists it.
public struct EGLDeviceDescription: Sendable, Equatable, Codable {
    public var index: Int
    /// The DRM node (`/dev/dri/card0`), when the device has one.
    public var drmFile: String?
    /// Device extensions.
    public var extensions: [String]
    /// Whether this is Mesa's software device (llvmpipe) rather than hardware.
    public var isSoftware: Bool { extensions.contains("EGL_MESA_device_software") }
}

/// An OpenGL 3.3+ core context from EGL with no display and no surface: rendering goes to
/// framebuffer objects, exactly as with OSMesa.
final class EGLGLContext: GLPlatformContext {
    let api: UnsafeMutablePointer<CEGL_API>
    let display: EGLDisplay
    let context: EGLContext
    let gl: GLFunctions
    let platform: String

    /// The environment variable that names the libEGL file to open.
    static let libraryPathVariable = "THROBBER_EGL_LIBRARY"

    /// Opens libEGL.
    ///
    /// - Throws: backend-unavailable naming the packages to install.
    static func loadLibrary() throws -> UnsafeMutablePointer<CEGL_API> {
        var message = [CChar](repeating: 0, count: 512)
        guard let api = CEGL_load(ProcessInfo.processInfo.environment[libraryPathVariable], &message, message.count) else {
            throw ThrobberError(String(nulTerminated: message), kind: .backendUnavailable)
        }
        return api
    }

    /// The devices EGL can open without a display.
    ///
    /// - Throws: backend-unavailable when libEGL or EGL_EXT_device_enumeration is missing.
    static func devices() throws -> [EGLDeviceDescription] {
        let api = try loadLibrary()
        defer { CEGL_unload(api) }
        return try devices(api).map(\.description)
    }

    private static func devices(_ api: UnsafeMutablePointer<CEGL_API>) throws -> [(device: EGLDeviceEXT, description: EGLDeviceDescription)] {
        guard let query = api.pointee.QueryDevicesEXT, let string = api.pointee.QueryDeviceStringEXT else {
            throw ThrobberError("libEGL lacks EGL_EXT_device_enumeration (eglQueryDevicesEXT)", kind: .backendUnavailable)
        }
        var count: EGLint = 0
        guard query(0, nil, &count) == EGL_TRUE else {
            throw ThrobberError("eglQueryDevicesEXT failed: \(errorName(api.pointee.GetError()))", kind: .backendUnavailable)
        }
        var devices = [EGLDeviceEXT?](repeating: nil, count: Int(count))
        guard count > 0, query(count, &devices, &count) == EGL_TRUE else { return [] }
        return devices.prefix(Int(count)).enumerated().compactMap { index, device in
            guard let device else { return nil }
            let extensions = string(device, EGL_EXTENSIONS).map { String(cString: $0) } ?? ""
            let drm = string(device, EGL_DRM_DEVICE_FILE_EXT).map { String(cString: $0) }
            return (device, EGLDeviceDescription(index: index, drmFile: drm,
                                                 extensions: extensions.split(separator: " ").map(String.init)))
        }
    }

    /// Creates a core-profile context on EGL device `device`, or on Mesa's surfaceless platform
    /// when `device` is nil, and makes it current on this thread.
    ///
    /// - Throws: backend-unavailable naming the missing piece or the EGL error.
    init(device: Int?) throws {
        let api = try EGLGLContext.loadLibrary()
        var done = false
        defer { if !done { CEGL_unload(api) } }
        guard let platformDisplay = api.pointee.GetPlatformDisplayEXT else {
            throw ThrobberError("libEGL lacks EGL_EXT_platform_base (eglGetPlatformDisplayEXT)", kind: .backendUnavailable)
        }
        let clientExtensions = api.pointee.QueryString(CEGL_NO_DISPLAY, EGL_EXTENSIONS).map { String(cString: $0) } ?? ""
        var display: EGLDisplay?
        var label: String
        if let device {
            guard clientExtensions.contains("EGL_EXT_platform_device") else {
                throw ThrobberError("libEGL lacks EGL_EXT_platform_device", kind: .backendUnavailable)
            }
            let devices = try EGLGLContext.devices(api)
            guard devices.indices.contains(device) else {
                throw ThrobberError(devices.isEmpty ? "EGL lists no devices" : "no EGL device \(device) (devices: 0–\(devices.count - 1))",
                                    kind: .backendUnavailable)
            }
            display = platformDisplay(EGLenum(EGL_PLATFORM_DEVICE_EXT), devices[device].device, nil)
            let description = devices[device].description
            label = "EGL device \(device)" + (description.drmFile.map { " (\($0))" } ?? (description.isSoftware ? " (software)" : ""))
        } else {
            guard clientExtensions.contains("EGL_MESA_platform_surfaceless") else {
                throw ThrobberError("libEGL lacks EGL_MESA_platform_surfaceless", kind: .backendUnavailable)
            }
            display = platformDisplay(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, nil)
            label = "EGL surfaceless"
        }
        guard let display, display != CEGL_NO_DISPLAY else {
            throw ThrobberError("eglGetPlatformDisplayEXT found no display for \(device.map { "device \($0)" } ?? "surfaceless"): "
                                + EGLGLContext.errorName(api.pointee.GetError()), kind: .backendUnavailable)
        }
        var major: EGLint = 0, minor: EGLint = 0
        guard api.pointee.Initialize(display, &major, &minor) == EGL_TRUE else {
            throw ThrobberError("eglInitialize failed on \(label): \(EGLGLContext.errorName(api.pointee.GetError()))", kind: .backendUnavailable)
        }
        var initialized = true
        defer { if !done && initialized { _ = api.pointee.Terminate(display); initialized = false } }
        guard api.pointee.BindAPI(EGLenum(EGL_OPENGL_API)) == EGL_TRUE else {
            throw ThrobberError("eglBindAPI(EGL_OPENGL_API) failed on \(label): \(EGLGLContext.errorName(api.pointee.GetError()))",
                                kind: .backendUnavailable)
        }
        var config: EGLConfig? = CEGL_NO_CONFIG
        var configs: EGLint = 0
        let wanted: [EGLint] = [EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE]
        if api.pointee.ChooseConfig(display, wanted, &config, 1, &configs) != EGL_TRUE || configs == 0 {
            // No config at all: a context without one (EGL_KHR_no_config_context) still renders to FBOs.
            config = CEGL_NO_CONFIG
        }
        let attributes: [EGLint] = [
            EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
            EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE,
        ]
        guard let context = api.pointee.CreateContext(display, config, CEGL_NO_CONTEXT, attributes), context != CEGL_NO_CONTEXT else {
            throw ThrobberError("eglCreateContext (OpenGL 3.3 core) failed on \(label): \(EGLGLContext.errorName(api.pointee.GetError()))",
                                kind: .backendUnavailable)
        }
        guard api.pointee.MakeCurrent(display, CEGL_NO_SURFACE, CEGL_NO_SURFACE, context) == EGL_TRUE else {
            let error = EGLGLContext.errorName(api.pointee.GetError())
            _ = api.pointee.DestroyContext(display, context)
            throw ThrobberError("eglMakeCurrent without a surface failed on \(label): \(error)", kind: .backendUnavailable)
        }
        do {
            gl = try GLFunctions { name in CEGL_resolve(api, name) }
        } catch {
            _ = api.pointee.MakeCurrent(display, CEGL_NO_SURFACE, CEGL_NO_SURFACE, CEGL_NO_CONTEXT)
            _ = api.pointee.DestroyContext(display, context)
            throw ThrobberError("EGL on \(label) lacks \(error.name)", kind: .backendUnavailable)
        }
        self.api = api
        self.display = display
        self.context = context
        platform = label
        done = true
    }

    deinit {
        _ = api.pointee.MakeCurrent(display, CEGL_NO_SURFACE, CEGL_NO_SURFACE, CEGL_NO_CONTEXT)
        _ = api.pointee.DestroyContext(display, context)
        _ = api.pointee.Terminate(display)
        _ = api.pointee.ReleaseThread()
        CEGL_unload(api)
    }

    /// The name of an EGL error code, e.g. `EGL_BAD_MATCH`.
    static func errorName(_ code: EGLint) -> String {
        let names: [EGLint: String] = [
            0x3000: "EGL_SUCCESS", 0x3001: "EGL_NOT_INITIALIZED", 0x3002: "EGL_BAD_ACCESS", 0x3003: "EGL_BAD_ALLOC",
            0x3004: "EGL_BAD_ATTRIBUTE", 0x3005: "EGL_BAD_CONFIG", 0x3006: "EGL_BAD_CONTEXT",
            0x3007: "EGL_BAD_CURRENT_SURFACE", 0x3008: "EGL_BAD_DISPLAY", 0x3009: "EGL_BAD_MATCH",
            0x300A: "EGL_BAD_NATIVE_PIXMAP", 0x300B: "EGL_BAD_NATIVE_WINDOW", 0x300C: "EGL_BAD_PARAMETER",
            0x300D: "EGL_BAD_SURFACE", 0x300E: "EGL_CONTEXT_LOST",
        ]
        return names[code] ?? String(format: "EGL error 0x%04X", code)
    }
}
