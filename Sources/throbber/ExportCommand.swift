import Foundation
import Throbber
import ThrobberBatch
import ThrobberLottie

/// `throbber export`: a scene as a Lottie animation, its colours as slots, with themes.
enum ExportCommand: Subcommand {
    static var help: String { """
        USAGE: throbber export SCENE -o OUT.json|OUT.lottie [options]

        Writes one loop of SCENE (a built-in, a scene file or a Lottie file) as a Lottie animation
        that plays in ThorVG, rlottie, lottie-web and the other players (docs/lottie.md "Writing Lottie"):
        its canvas is the scene's in pt, frame f is the scene at start + f / fps, and every shape
        stays within the tolerance of the scene's at every half frame. Each colour parameter is a
        slot named after it (and NAME.opacity for its alpha where that is the paint's). A .lottie
        carries the animation, its manifest and one theme per --theme: the --set options after a
        --theme are that theme's parameters; those before the first are the scene's.

        OPTIONS:
        \(OptionSpec.helpTable(options + [OptionSpec.helpFlag]))

        A scene that draws what Lottie cannot hold the same way (an image, a mask layer, a stroke
        under a skewing transform) is refused with one line naming the item (exit 65); nothing is written.

        EXAMPLES:
          throbber export wave-ball -o wave-ball.json
          throbber export ring -o ring.lottie --theme dark --set style=dark --theme brand --set ringColor=#ff5722
        """ }

    static let output = OptionSpec("-o", "--output", value: "FILE", help: "the file to write: .json (Lottie) or .lottie (dotLottie with themes)")
    static let theme = OptionSpec("--theme", value: "NAME", help: "a theme of the .lottie: the --set options after it are its parameters (repeatable)")
    static let fps = OptionSpec("--fps", value: "N", .number(.aboveAtMost(0, 1000)), help: "Lottie frames per second (default: the scene's own, else 60)")
    static let start = OptionSpec("--start", value: "T", .number(Limits.timeRange), default: "0", help: "scene time of frame 0 (default {default})")
    static let duration = OptionSpec("--duration", value: "D", .number(Limits.spanRange), help: "seconds written (default: the scene's loop)")
    static let tolerance = OptionSpec("--tolerance", value: "PT", .number(.closed(0.001, 1)), default: "0.01",
                                      help: "how far (pt) a written shape may be from the scene's (default {default})")
    static let overwrite = OptionSpec("--overwrite", help: "replace an existing file")

    static let options = SceneOptions.all + [output, theme, fps, start, duration, tolerance, overwrite, OptionSpec.quiet]

    static func execute(_ arguments: ParsedArguments) throws {
        guard arguments.positionals.count == 1, let sceneID = arguments.positionals.first else {
            throw ThrobberError("export takes one SCENE (one of \(SceneRegistry.ids.joined(separator: ", ")), or a file)", kind: .usage)
        }
        guard let output = arguments.value(Self.output) else {
            throw ThrobberError("export needs an output file: -o OUT.json or -o OUT.lottie", kind: .usage)
        }
        let archive = output.hasSuffix(".lottie")
        guard archive || output.hasSuffix(".json") else {
            throw ThrobberError.invalid("-o", output, allowed: "a file ending .json (Lottie) or .lottie (dotLottie)")
        }
        if let scale = arguments.value(SceneOptions.scale), Double(scale) != 1 {
            throw ThrobberError.invalid("--scale", scale, allowed: "1: a Lottie's canvas is in pt and its player scales it")
        }
        // --set before the first --theme is the scene's; after a --theme, that theme's.
        var sets: [String] = []
        var themeSets: [(name: String, sets: [String])] = []
        for (option, value) in arguments.sequence {
            if option == Self.theme.canonical {
                guard !value.isEmpty, value.range(of: "^[A-Za-z0-9_-]{1,64}$", options: .regularExpression) != nil else {
                    throw ThrobberError.invalid("--theme", value, allowed: "1 to 64 letters, digits, '_' or '-'")
                }
                guard !themeSets.contains(where: { $0.name == value }) else {
                    throw ThrobberError.invalid("--theme", value, allowed: "a name not given before")
                }
                themeSets.append((value, []))
            } else if option == SceneOptions.set.canonical {
                if themeSets.isEmpty { sets.append(value) } else { themeSets[themeSets.count - 1].sets.append(value) }
            }
        }
        guard themeSets.isEmpty || archive else {
            throw ThrobberError("--theme: themes travel in a .lottie; write -o OUT.lottie (a .json holds the slots' defaults only)", kind: .usage)
        }
        let scene = try SceneOptions.scene(sceneID, arguments, sets: sets)
        let themes = try themeSets.map { theme in
            LottieExportTheme(name: theme.name, scene: try SceneOptions.scene(sceneID, arguments, sets: sets + theme.sets))
        }
        var options = LottieExportOptions(start: try arguments.number(Self.start), tolerance: try arguments.number(Self.tolerance))
        if arguments.has(Self.duration) { options.duration = try arguments.number(Self.duration) }
        if arguments.has(Self.fps) { options.frameRate = try arguments.number(Self.fps) }
        let overwrite = arguments.has(Self.overwrite)

        let file = URL(fileURLWithPath: output)
        var claims = OutputClaims()
        if try claims.claimOutput(file.path, role: "the Lottie file", source: .commandLine) == .file, !overwrite {
            throw ThrobberError("\(file.path) exists; pass --overwrite to replace it", kind: .cannotCreate)
        }
        let began = ContinuousClock.now
        let export = try LottieExporter.export(scene, themes: themes, options: options)
        let data = archive
            ? try DotLottieWriter.archive(id: scene.model.id, json: export.json, themes: export.themes, generator: "throbber \(throbberVersion)")
            : export.json
        let took = (ContinuousClock.now - began).seconds
        try AtomicFile.prepareDirectory(file.deletingLastPathComponent())
        try AtomicFile.write(data, to: file, overwrite: overwrite)
        if !arguments.has(OptionSpec.quiet) {
            let slots = export.slots.map(\.id).joined(separator: ", ")
            var line = String(format: "wrote %@ (%@, %d bytes%@; %d slots%@; %.0f ms)", file.path, sceneID, data.count,
                              archive ? ", Lottie JSON \(export.json.count) bytes" : "", export.slots.count,
                              slots.isEmpty ? "" : ": " + slots, took * 1000)
            if !export.unslotted.isEmpty {
                line += "; not slots (the scene draws no paint that is the colour itself): " + export.unslotted.joined(separator: ", ")
            }
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    }
}
