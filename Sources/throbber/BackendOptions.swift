import Foundation
import Throbber
import ThrobberGL
import ThrobberRender
import ThrobberBatch

/// `--backend`, `--device` and `--shader-dir`, shared by every command that renders.
enum BackendOptions {
    static let specs = [OptionSpec("--backend"), OptionSpec("--device")]

    static let help = """
          --backend B            auto (a GPU through EGL, else cpu: on a software rasterizer the
                                 CPU renderer is faster), gl (OSMesa), egl, or cpu (default auto)
          --device N             with egl: EGL device N (see `throbber info`)
        """

    /// The backend and device the options name (`fallback` when absent).
    static func parse(_ arguments: ParsedArguments, default fallback: String = "auto") throws -> (Backend, Int?) {
        let backend = Backend(rawValue: try arguments.choice("--backend", default: fallback, among: Backend.names))!
        let device = try arguments.value("--device").map { _ in try arguments.integer("--device", default: 0, range: 0...1024) }
        if device != nil && backend != .egl {
            throw ThrobberError("--device applies to --backend egl only", kind: .usage)
        }
        return (backend, device)
    }

    /// The shaders `--shader-dir` names, checked against the backend first so the message names
    /// the flag.
    static func shaders(_ directory: String?, backend: Backend) throws -> ShaderLibrary? {
        guard let directory else { return nil }
        if backend == .cpu { throw ThrobberError("--shader-dir applies to the GL backends only", kind: .usage) }
        return try ShaderLibrary(directory: URL(fileURLWithPath: directory), field: "--shader-dir")
    }
}
