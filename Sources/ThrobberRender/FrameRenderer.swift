import Foundation
import Throbber
import ThrobberCPU
import ThrobberGL

/// A renderer of any backend behind one type, opened by `Backend`; owned by the thread that made
/// it (a GL context is current on one thread).
public final class FrameRenderer: Renderer {
    private let gl: GLRenderer?
    private let cpu: CPURenderer?
    /// The backend actually used (never `auto`).
    public let backend: Backend
    /// What renders, in the words of `GL_RENDERER`, with the platform, and for `auto` why.
    public private(set) var description: String
    /// For `auto`: what was tried before the choice, and why it failed.
    public let skipped: [String]
    /// For `auto`: why it chose what it did, in words for the run line and `throbber info`.
    public let reason: String?

    /// Opens a backend.
    ///
    /// - Parameters:
    ///   - requested: the backend; `auto` chooses as `BackendChoice` says.
    ///   - device: for `egl`, the EGL device to open (`GLRenderer.eglDevices()`); else the first
    ///     hardware device, else EGL surfaceless.
    ///   - shaders: GL shaders other than the embedded ones (GL backends only); `auto` then
    ///     looks for a GL backend to the end.
    ///   - glWanted: `auto` looks for a GL backend to the end (GPU, OSMesa, EGL on llvmpipe)
    ///     before the CPU renderer — for callers whose point is GL (`parity`).
    ///   - cpuThreads: the CPU renderer's threads (nil: the CPUs this process may use,
    ///     `UsableCPUs.current`); the GL backends ignore it.
    /// - Throws: `.backendUnavailable` when it cannot be opened (naming the package to install or
    ///   the EGL error); `.backendFailure` when a shader does not compile; `.usage` for shaders
    ///   with the CPU backend or a device with another backend than `egl`.
    public init(_ requested: Backend, device: Int? = nil, shaders: ShaderLibrary? = nil, glWanted: Bool = false,
                cpuThreads: Int? = nil) throws {
        if shaders != nil && requested == .cpu {
            throw ThrobberError("shaders apply to the GL backends only", kind: .usage)
        }
        if device != nil && requested != .egl {
            throw ThrobberError("an EGL device applies to the egl backend only", kind: .usage)
        }
        var skipped: [String] = []
        func openGL(_ platform: GLPlatform) throws -> GLRenderer {
            try GLRenderer(platform: platform, shaders: shaders ?? .embedded)
        }
        var chosen: (Backend, GLRenderer?)?
        var reason: String?
        switch requested {
        case .gl:
            chosen = (.gl, try openGL(.osmesa))
        case .egl:
            if let device {
                chosen = (.egl, try openGL(.eglDevice(device)))
            } else {
                let hardware = (try? GLRenderer.eglDevices())?.first { !$0.isSoftware }
                chosen = (.egl, try openGL(hardware.map { .eglDevice($0.index) } ?? .eglSurfaceless))
            }
        case .cpu:
            chosen = (.cpu, nil)
        case .auto:
            var devices: [EGLDeviceDescription] = []
            do {
                devices = try GLRenderer.eglDevices()
            } catch let error as ThrobberError {
                skipped.append("EGL devices: \(error.message)")
            }
            let wantsGL = glWanted || shaders != nil
            for candidate in BackendChoice.candidates(devices: devices, glWanted: wantsGL) where chosen == nil {
                do {
                    chosen = (candidate.backend, try openGL(candidate.platform))
                    reason = candidate.platform.isHardwareDevice(in: devices) ? BackendChoice.gpuReason : BackendChoice.softwareGLReason
                } catch let error as ThrobberError where error.kind == .backendUnavailable {
                    skipped.append("\(candidate.platform): \(error.message)")
                }
            }
            if chosen == nil {
                if shaders != nil { throw ThrobberError("no GL backend could be opened for the given shaders", kind: .backendUnavailable) }
                chosen = (.cpu, nil)
                reason = wantsGL ? BackendChoice.noGLReason : BackendChoice.autoReason
            }
        }
        backend = chosen!.0
        gl = chosen!.1
        cpu = gl == nil ? CPURenderer(threadCount: cpuThreads ?? UsableCPUs.current.usable) : nil
        self.skipped = skipped
        self.reason = reason
        description = "\(backend.rawValue): \(gl?.rendererDescription ?? cpu!.rendererDescription)"
        if let reason { description += " [auto: \(reason)]" }
    }

    public var rendererDescription: String { description }

    /// The renderer itself, without the backend or `auto`'s reasons: GL_RENDERER with its
    /// platform, or the CPU renderer's description (what a frame's provenance records).
    public var driver: String { gl?.rendererDescription ?? cpu!.rendererDescription }

    /// The largest canvas side this backend renders.
    public var maxCanvasSide: Int { gl?.maxCanvasSide ?? Scene.maximumPixelSide }

    public func render(_ list: DrawList) throws -> Image { try render(list, cpuThreads: nil) }

    public func render(_ lists: [DrawList]) throws -> [Image] { try render(lists, cpuThreads: nil) }

    /// Renders one frame.
    ///
    /// - Parameter cpuThreads: how many threads the CPU renderer uses for it (nil: its own count);
    ///   the GL backends ignore it.
    public func render(_ list: DrawList, cpuThreads: Int?) throws -> Image {
        if let gl { return try gl.render(list) }
        return cpu!.render(list, threads: cpuThreads ?? cpu!.threadCount)
    }

    /// Renders frames in order, as many per draw as the backend takes (GL: a stack per draw).
    ///
    /// - Parameter cpuThreads: as `render(_:cpuThreads:)`.
    public func render(_ lists: [DrawList], cpuThreads: Int?) throws -> [Image] {
        if let gl { return try gl.render(lists) }
        return lists.map { cpu!.render($0, threads: cpuThreads ?? cpu!.threadCount) }
    }

    /// How many frames of `width` × `height` px to hand `render(_:)` at once: a GL stack's worth,
    /// or 1 for the CPU renderer (which gains nothing from more).
    public func framesPerDraw(width: Int, height: Int) -> Int {
        gl?.framesPerDraw(width: width, height: height) ?? 1
    }

    /// For the CPU backend, renderers that encode jobs draw whole frames with, on every core at
    /// once (one thread per frame, each renderer its own frame memory), instead of this thread
    /// drawing row bands of one frame at a time while the jobs wait; nil for the GL backends,
    /// which draw on their context's thread.
    public func frameWorkers() -> CPUFrameWorkers? {
        cpu.map { CPUFrameWorkers(like: $0) }
    }

    /// The GL renderer, for the benchmark's per-stage timings; nil for the CPU backend.
    public var glRenderer: GLRenderer? { gl }

    /// The CPU renderer; nil for the GL backends.
    public var cpuRenderer: CPURenderer? { cpu }
}

extension GLPlatform {
    /// Whether this platform is one of `devices` that is not a software rasterizer.
    func isHardwareDevice(in devices: [EGLDeviceDescription]) -> Bool {
        if case .eglDevice(let index) = self { return devices.contains { $0.index == index && !$0.isSoftware } }
        return false
    }
}
