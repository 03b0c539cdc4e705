import Foundation
import Throbber
import ThrobberCPU
import ThrobberGL

/// The renderer a command draws with, chosen by `--backend`.
enum Backend: String, CaseIterable {
    /// The fastest on this machine: a hardware EGL device (a GPU), else the CPU renderer —
    /// without a GPU, GL runs on llvmpipe, a software rasterizer the CPU renderer outdraws
    /// (`FrameRenderer.autoReason`). Where GL itself is what is asked for (`parity`, a
    /// `--shader-dir`), a GPU, else OSMesa, else EGL on llvmpipe, else the CPU renderer.
    case auto
    /// OpenGL through Mesa's OSMesa (llvmpipe).
    case gl
    /// OpenGL through EGL without a display: `--device N`, else the first hardware device, else
    /// Mesa's surfaceless platform.
    case egl
    /// The pure-Swift reference renderer.
    case cpu
}

/// `--backend` and `--device`, shared by every command that renders.
enum BackendOptions {
    static let specs = [OptionSpec("--backend"), OptionSpec("--device")]

    static let help = """
          --backend B            auto (a GPU through EGL, else cpu: on a software rasterizer the
                                 CPU renderer is faster), gl (OSMesa), egl, or cpu (default auto)
          --device N             with egl: EGL device N (see `throbber info`)
        """

    /// The backend and device the options name (`fallback` when absent).
    static func parse(_ arguments: ParsedArguments, default fallback: String = "auto") throws -> (Backend, Int?) {
        let backend = Backend(rawValue: try arguments.choice("--backend", default: fallback, among: Backend.allCases.map(\.rawValue)))!
        let device = try arguments.value("--device").map { _ in try arguments.integer("--device", default: 0, range: 0...1024) }
        if device != nil && backend != .egl {
            throw ThrobberError("--device applies to --backend egl only", exitCode: .usage)
        }
        return (backend, device)
    }
}

/// A renderer of any backend behind one call, owned by the thread that made it.
final class FrameRenderer {
    private let gl: GLRenderer?
    private let cpu: CPURenderer?
    /// The backend actually used (never `auto`).
    let backend: Backend
    /// What renders, in the words of `GL_RENDERER`, with the platform.
    private(set) var description: String
    /// For `auto`: what was tried before the choice, and why it failed.
    let skipped: [String]
    /// For `auto`: why it chose what it did, in words for the run line and `throbber info`.
    let reason: String?

    /// Why `auto` draws with the CPU renderer where no GPU opens: measured with `throbber bench
    /// --scenes all --sizes 64,512 --stages frame` (README "Backends"), llvmpipe takes 1.4–300×
    /// the CPU renderer's time per frame for five scenes and 0.7–0.9× for the pull-wave, whose
    /// frames cost well under a PNG encode either way — and it adds a context and shader
    /// compiles before the first frame.
    static let autoReason = "no GPU opened through EGL; on a software rasterizer (llvmpipe) the CPU renderer draws these scenes faster"

    /// Opens the backend.
    ///
    /// - Throws: backend-unavailable when it cannot be opened (naming the package to install or
    ///   the EGL error); backend-failure when a shader does not compile.
    ///
    /// - Parameter glWanted: `auto` looks for a GL backend to the end (GPU, OSMesa, EGL on
    ///   llvmpipe) before the CPU renderer — for commands whose point is GL (`parity`).
    init(_ requested: Backend, device: Int? = nil, shaderDirectory: String?, glWanted: Bool = false) throws {
        let library = try shaderDirectory.map { try ShaderLibrary(directory: URL(fileURLWithPath: $0)) }
        if shaderDirectory != nil && requested == .cpu {
            throw ThrobberError("--shader-dir applies to the GL backends only", exitCode: .usage)
        }
        var skipped: [String] = []
        func openGL(_ platform: GLPlatform) throws -> GLRenderer {
            try GLRenderer(platform: platform, shaders: library ?? .embedded)
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
            var candidates: [(Backend, GLPlatform)] = []
            do {
                candidates += try GLRenderer.eglDevices().filter { !$0.isSoftware }.map { (.egl, .eglDevice($0.index)) }
            } catch let error as ThrobberError {
                skipped.append("EGL devices: \(error.message)")
            }
            let hardware = candidates.count
            // Software GL only where GL is the point: elsewhere the CPU renderer is faster.
            if glWanted || library != nil { candidates += [(.gl, .osmesa), (.egl, .eglSurfaceless)] }
            for (n, (backend, platform)) in candidates.enumerated() where chosen == nil {
                do {
                    chosen = (backend, try openGL(platform))
                    reason = n < hardware ? "a GPU through EGL" : "no GPU opened through EGL; GL was asked for, so software GL"
                } catch let error as ThrobberError where error.exitCode == .backendUnavailable {
                    skipped.append("\(platform): \(error.message)")
                }
            }
            if chosen == nil {
                if library != nil { throw ThrobberError("--shader-dir: no GL backend could be opened", exitCode: .backendUnavailable) }
                chosen = (.cpu, nil)
                reason = glWanted ? "no GL backend could be opened" : FrameRenderer.autoReason
            }
        }
        backend = chosen!.0
        gl = chosen!.1
        cpu = gl == nil ? CPURenderer() : nil
        self.skipped = skipped
        self.reason = reason
        if let gl {
            description = "\(backend.rawValue): \(gl.info.renderer) (\(gl.info.version), \(gl.info.platform))"
        } else {
            description = "cpu: \(cpu!.rendererDescription)"
        }
        if let reason { description += " [auto: \(reason)]" }
    }

    /// The largest canvas side this backend renders.
    var maxCanvasSide: Int { gl?.info.maxCanvasSide ?? Scene.maximumPixelSide }

    /// Renders one frame.
    ///
    /// - Parameter cpuThreads: how many threads the CPU renderer uses for it (default: every
    ///   core); the GL backends ignore it.
    func render(_ list: DrawList, cpuThreads: Int? = nil) throws -> Image {
        if let gl { return try gl.render(list) }
        return cpu!.render(list, threads: cpuThreads ?? cpu!.threadCount)
    }

    /// Renders frames in order, as many per draw as the backend takes (GL: a stack per draw).
    ///
    /// - Parameter cpuThreads: as `render(_:cpuThreads:)`.
    func render(_ lists: [DrawList], cpuThreads: Int? = nil) throws -> [Image] {
        if let gl { return try gl.render(lists) }
        return lists.map { cpu!.render($0, threads: cpuThreads ?? cpu!.threadCount) }
    }

    /// How many frames of `width` × `height` px to hand `render(_:cpuThreads:)` at once: a GL
    /// stack's worth, or 1 for the CPU renderer (which gains nothing from more).
    func framesPerCall(width: Int, height: Int) -> Int {
        gl?.framesPerDraw(width: width, height: height) ?? 1
    }

    /// For the CPU backend, renderers that encode jobs draw whole frames with, on every core at
    /// once (one thread per frame, each renderer its own frame memory), instead of this thread
    /// drawing row bands of one frame at a time while the jobs wait; nil for the GL backends,
    /// which draw on their context's thread.
    func frameWorkers() -> CPUFrameWorkers? {
        cpu.map { CPUFrameWorkers(like: $0) }
    }

    /// The GL renderer, for the benchmark's per-stage timings; nil for the CPU backend.
    var glRenderer: GLRenderer? { gl }

    /// The CPU renderer; nil for the GL backends.
    var cpuRenderer: CPURenderer? { cpu }
}

/// CPU renderers shared by encode jobs: a job takes one, draws its frames on its own thread and
/// gives it back. Each renderer keeps its own latest frames, so a job's consecutive frames keep
/// the rows they share (the renderers' frames are never mixed).
final class CPUFrameWorkers: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [CPURenderer] = []
    private let template: CPURenderer

    init(like renderer: CPURenderer) {
        var template = renderer
        template.threadCount = 1
        self.template = template
    }

    /// Runs `body` with a renderer no other job holds meanwhile.
    func with<T>(_ body: (CPURenderer) throws -> T) rethrows -> T {
        lock.lock()
        let renderer = idle.popLast() ?? {
            // A fresh one: its own frame memory and scratch, the template's settings.
            var fresh = CPURenderer(threadCount: 1)
            fresh.shortcuts = template.shortcuts
            fresh.solidRunsPerRow = template.solidRunsPerRow
            fresh.reusesUnchangedRows = template.reusesUnchangedRows
            return fresh
        }()
        lock.unlock()
        defer {
            lock.lock()
            idle.append(renderer)
            lock.unlock()
        }
        return try body(renderer)
    }

    /// Draws each item's frame on this thread, in order, with one renderer, and hands it on.
    func renderEach<Item>(_ items: [Item], drawList: (Item) -> DrawList, _ body: (Item, Image) throws -> Void) throws {
        try with { cpu in
            for item in items { try body(item, cpu.render(drawList(item), threads: 1)) }
        }
    }
}
