import Foundation
import Throbber
import ThrobberRender
import ThrobberStudio

/// `throbber studio`: a local page to tune scenes live, served until SIGINT or SIGTERM.
enum StudioCommand: Subcommand {
    static var help: String { """
        USAGE: throbber studio [SCENE|FILE ...] [options]

        Serves a page on this machine (http://127.0.0.1:PORT/, printed on start) to tune scenes
        live (docs/studio.md): a control for every parameter, the frame redrawn by the studio as
        they move, a timeline, @1x/@2x/@3x, the CPU and GL renderers side by side with
        compare's heat map, "copy as command" and "copy as job JSON" for exactly the frame shown,
        and exports through the batch pipeline into --export-dir. Scene files and Lottie files
        are read again whenever they change on disk; one that does not read shows its
        FILE:LINE:COLUMN error until it does. Without SCENE, every built-in scene.

        The server answers only requests addressed to it (Host and Origin checked), bounded in
        size, time and number, and writes only under --export-dir. SIGINT or SIGTERM stops it
        (exit 0); an export in flight stops as `batch` does, leaving nothing partial.

        OPTIONS:
        \(OptionSpec.helpTable(options + [OptionSpec.helpFlag]))

        EXAMPLES:
          throbber studio
          throbber studio hud examples/scenes/material-spinner.scene.json --export-dir exports
        """ }

    static let port = OptionSpec("--port", value: "N", .integer(0...65535), default: "0", help: "the port (default {default}: a free one)")
    static let host = OptionSpec("--host", value: "ADDR", default: "127.0.0.1",
                                 help: "the IPv4 address to listen on (default {default}: this machine only)")
    static let exportDirectory = OptionSpec("--export-dir", value: "DIR",
                                            help: "where the page's exports go, each in a new directory (made if missing; default: exports off)")
    static let pageDirectory = OptionSpec("--page-dir", value: "DIR",
                                          help: "serve index.html, studio.js and studio.css from DIR (for working on the page)")

    static let options = [port, host, exportDirectory, BackendOptions.backend, pageDirectory, OptionSpec.quiet]

    static func execute(_ arguments: ParsedArguments) throws {
        let (backend, _) = try BackendOptions.parse(arguments)
        let port = try arguments.integer(Self.port)
        Interrupts.shared.doing("studio start")
        let studio = try Studio(references: arguments.positionals, backend: backend,
                                exportDirectory: arguments.value(exportDirectory), pageDirectory: arguments.value(pageDirectory),
                                cancellation: Interrupts.shared, version: throbberVersion)
        let server = try HTTPServer(host: arguments.text(host), port: UInt16(port), handler: studio)
        // Unbuffered: a script reading the URL from a pipe gets it now.
        FileHandle.standardOutput.write(Data("studio: \(server.url)\n".utf8))
        if !arguments.has(OptionSpec.quiet) {
            let scenes = studio.sceneEntries
            FileHandle.standardError.write(Data(("studio: \(scenes.count) scene\(scenes.count == 1 ? "" : "s") (\(scenes.map(\.id).joined(separator: ", "))), "
                + "drawn by \(studio.rendererDescription); exports \(studio.exportDirectory.map { "into \($0)" } ?? "off (--export-dir DIR)"); "
                + "Ctrl-C stops\n").utf8))
            for entry in scenes { if let error = entry.error { FileHandle.standardError.write(Data("studio: \(error)\n".utf8)) } }
        }
        Interrupts.shared.doing("studio")
        studio.startWatching()
        Interrupts.shared.whileFinishing {
            server.serve(shouldStop: { Interrupts.shared.signal != nil })
        }
        studio.stop()
        if !arguments.has(OptionSpec.quiet) {
            FileHandle.standardError.write(Data("studio: stopped (\(Interrupts.name(Interrupts.shared.signal)))\n".utf8))
        }
    }
}
