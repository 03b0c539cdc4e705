import Foundation
import PackagePlugin

/// Compiles the GLSL in the package's top-level `Shaders/` (and `Shaders/Primitives/`) into the target as Swift string
/// literals, so the binary carries its shaders and never looks them up at run time.
@main
struct EmbedShaders: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        // Shaders/ and its Primitives/ (one file per kind of primitive).
        let shaderDirectory = context.package.directoryURL.appending(path: "Shaders")
        let shaders = try [shaderDirectory, shaderDirectory.appending(path: "Primitives")].flatMap { directory in
            try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
                .filter { ["glsl", "vert", "frag"].contains($0.pathExtension) }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedShaders.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(shaders.count) shaders from Shaders/",
                executable: try context.tool(named: "ShaderEmbedder").url,
                arguments: [output.path] + shaders.map(\.path),
                inputFiles: shaders,
                outputFiles: [output]
            )
        ]
    }
}
