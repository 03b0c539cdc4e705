import Foundation
import Throbber
import ThrobberCPU
import ThrobberGL

/// The renderer a command draws with, chosen by `--backend`.
enum Backend: String, CaseIterable {
    case gl
    case cpu
}

/// A renderer of either backend behind one call, owned by the thread that made it.
final class FrameRenderer {
    private let gl: GLRenderer?
    private let cpu: CPURenderer?
    /// What renders, in the words of `GL_RENDERER`.
    let description: String
    let backend: Backend

    /// Opens the backend.
    ///
    /// - Throws: backend-unavailable when GL cannot be opened (naming the package to install);
    ///   backend-failure when a shader does not compile.
    init(_ backend: Backend, shaderDirectory: String?) throws {
        self.backend = backend
        switch backend {
        case .gl:
            let library = try shaderDirectory.map { try ShaderLibrary(directory: URL(fileURLWithPath: $0)) } ?? .embedded
            let renderer = try GLRenderer(shaders: library)
            gl = renderer
            cpu = nil
            description = "gl: \(renderer.info.renderer) (\(renderer.info.version))"
        case .cpu:
            if shaderDirectory != nil {
                throw ThrobberError("--shader-dir applies to --backend gl only", exitCode: .usage)
            }
            let renderer = CPURenderer()
            cpu = renderer
            gl = nil
            description = "cpu: \(renderer.rendererDescription)"
        }
    }

    /// The largest canvas side this backend renders.
    var maxCanvasSide: Int { gl?.info.maxCanvasSide ?? Scene.maximumPixelSide }

    /// Renders one frame.
    func render(_ list: DrawList) throws -> Image {
        if let gl { return try gl.render(list) }
        return cpu!.render(list)
    }

    /// The GL renderer, for the benchmark's per-stage timings; nil for the CPU backend.
    var glRenderer: GLRenderer? { gl }

    /// The CPU renderer; nil for the GL backend.
    var cpuRenderer: CPURenderer? { cpu }
}
