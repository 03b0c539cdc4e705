import Foundation
import Throbber
import ThrobberGL
import ThrobberRender
import ThrobberBatch

/// `--backend`, `--device` and `--shader-dir`, shared by every command that renders.
enum BackendOptions {
    static let backend = OptionSpec("--backend", value: "B", .choice(Backend.names), default: "auto", help: """
        auto (a GPU through EGL, else cpu: on a software rasterizer the
        CPU renderer is faster), gl (OSMesa), egl, or cpu (default {default})
        """)
    static let device = OptionSpec("--device", value: "N", .integer(0...1024), help: "with egl: EGL device N (see `throbber info`)")
    /// GL only: checked by `shaders(_:backend:)`.
    static let shaderDirectory = OptionSpec("--shader-dir", value: "DIR",
                                            help: "load the GLSL from DIR instead of the copy built in (GL backends)")

    /// `--backend` and `--device`, in the order the help lists them.
    static let all = [backend, device]

    /// The backend and device the options name (`fallback` when absent: `batch` takes the job's).
    ///
    /// - Throws: a usage error for an unknown backend, a device out of range, or a device without egl.
    static func parse(_ arguments: ParsedArguments, default fallback: String? = nil) throws -> (Backend, Int?) {
        let backend = Backend(rawValue: try arguments.choice(Self.backend, default: fallback))!
        let device = try arguments.integerIfGiven(Self.device)
        if device != nil && backend != .egl {
            throw ThrobberError("--device applies to --backend egl only", kind: .usage)
        }
        return (backend, device)
    }

    /// The shaders `--shader-dir` names, checked against the backend first so the message names
    /// the flag.
    static func shaders(_ arguments: ParsedArguments, backend: Backend) throws -> ShaderLibrary? {
        guard let directory = arguments.value(shaderDirectory) else { return nil }
        if backend == .cpu { throw ThrobberError("--shader-dir applies to the GL backends only", kind: .usage) }
        return try ShaderLibrary(directory: URL(fileURLWithPath: directory), field: shaderDirectory.canonical)
    }
}
