import Foundation
import PackagePlugin

/// Compiles the studio's page (`Page/` in the target: its HTML, JavaScript and CSS) into the
/// target as Swift string literals, so `throbber studio` serves it from the binary and never
/// looks for files at run time.
@main
struct EmbedStudioPage: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let pageDirectory = context.package.directoryURL.appending(path: "Sources/ThrobberStudio/Page")
        let files = try FileManager.default.contentsOfDirectory(at: pageDirectory, includingPropertiesForKeys: nil)
            .filter { ["html", "js", "css"].contains($0.pathExtension) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedPage.swift")
        return [
            .buildCommand(
                displayName: "Embedding the studio's \(files.count) page files from Page/",
                executable: try context.tool(named: "ShaderEmbedder").url,
                arguments: ["--enum", "EmbeddedPage", output.path] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output]
            )
        ]
    }
}
