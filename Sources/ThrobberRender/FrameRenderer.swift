import Foundation
import Throbber
import ThrobberCPU
import ThrobberGL

/// A renderer of any backend behind one type, opened by `Backend`; owned by the thread that made
/// it (a GL context is current on one thread).
public final class FrameRenderer: Renderer {
    /// The one renderer that draws: a GL backend's, or the CPU renderer.
    private enum Drawing {
        case gl(GLRenderer)
        case cpu(CPURenderer)

        /// The renderer itself, which every `Renderer` call is handed on to.
        var renderer: any Renderer {
            switch self {
            case .gl(let gl): gl
            case .cpu(let cpu): cpu
            }
        }
    }

    private let drawing: Drawing
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
        let chosen: (backend: Backend, gl: GLRenderer?)
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
            let choice = try BackendChoice.choose(devices: devices, glWanted: wantsGL, skipped: &skipped) { try openGL($0) }
            if choice.opened == nil && shaders != nil {
                throw ThrobberError("no GL backend could be opened for the given shaders", kind: .backendUnavailable)
            }
            chosen = (choice.backend, choice.opened)
            reason = choice.reason
        }
        backend = chosen.backend
        if let gl = chosen.gl {
            drawing = .gl(gl)
        } else {
            drawing = .cpu(CPURenderer(threadCount: cpuThreads ?? UsableCPUs.current.usable))
        }
        self.skipped = skipped
        self.reason = reason
        description = "\(backend.rawValue): \(drawing.renderer.rendererDescription)"
        if let reason { description += " [auto: \(reason)]" }
    }

    public var rendererDescription: String { description }

    /// The renderer itself, without the backend or `auto`'s reasons: GL_RENDERER with its
    /// platform, or the CPU renderer's description (what a frame's provenance records).
    public var driver: String { drawing.renderer.rendererDescription }

    /// The largest canvas side this backend renders.
    public var maxCanvasSide: Int { drawing.renderer.maxCanvasSide }

    public func render(_ list: DrawList) throws -> Image {
        try drawing.renderer.render(list)
    }

    /// Renders frames in order, as many per draw as the backend takes (GL: a stack per draw).
    public func render(_ lists: [DrawList]) throws -> [Image] {
        try drawing.renderer.render(lists)
    }

    /// How many frames of `width` × `height` px to hand `render(_:)` at once: a GL stack's worth,
    /// or 1 for the CPU renderer (which gains nothing from more).
    public func framesPerDraw(width: Int, height: Int) -> Int {
        drawing.renderer.framesPerDraw(width: width, height: height)
    }

    /// The backend's own way of drawing a pipeline's frames (`Renderer.render(_:on:)`).
    public func render(_ sequence: FrameSequence, on executor: some FrameExecutor) throws -> Int {
        try drawing.renderer.render(sequence, on: executor)
    }

    /// What the CPU renderer (and the workers it drew with) did with its bands; nil for GL.
    public var reuseStatistics: ReuseStatistics? { cpuRenderer?.reuseStatistics }

    /// The GL renderer, for the benchmark's per-stage timings; nil for the CPU backend.
    public var glRenderer: GLRenderer? {
        if case .gl(let gl) = drawing { return gl }
        return nil
    }

    /// The CPU renderer; nil for the GL backends.
    public var cpuRenderer: CPURenderer? {
        if case .cpu(let cpu) = drawing { return cpu }
        return nil
    }
}
