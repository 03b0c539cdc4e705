import Foundation
import Throbber
import ThrobberBatch
import ThrobberRender

/// `throbber scenes`: every scene with its parameters, defaults, units and ranges.
enum ScenesCommand: Subcommand {
    static var help: String { """
        USAGE: throbber scenes [FILE.scene.json ...] [--json]

        Lists every built-in scene, or the scene files given (docs/scene-files.md), with
        their parameters: name, type, default, unit, allowed values, and the loop a job's "loop": true gives it at 60 fps (its length, and how much the part
        retimed most changes speed). With --json the values are typed: numbers as numbers,
        colours as [r, g, b, a] arrays, an unset optional parameter as null with what it
        follows, ranges as min/max bounds, choices as lists, and the rules between parameters
        (docs/schemas/scenes.schema.json).

        OPTIONS:
        \(OptionSpec.helpTable([json, OptionSpec.helpFlag]))
        """ }

    /// What `--json` prints for a scene: typed values (numbers as numbers, colours as
    /// [r, g, b, a] arrays, ranges as bounds), the rules between parameters, the default loop.
    struct TypedListing: Codable {
        var id: String
        var summary: String
        /// A file scene's file: its path as given and the SHA-256 of its bytes; nil for a built-in.
        var source: [String: String]?
        /// The canvas in points at the defaults.
        var canvas: [String: Double]
        /// The default loop at 60 fps: its length and its largest part speed change (percent).
        var loop: [String: Double]
        var parameters: [ParameterSchema]
        /// Rules between parameters, in words (beyond each parameter's own range).
        var relations: [String]
    }

    static let json = OptionSpec("--json", help: "machine-readable output")

    static let options = [json]

    /// The built-ins at their defaults, or the files named on the command line.
    static func models(_ arguments: ParsedArguments) throws -> [any SceneModel] {
        arguments.positionals.isEmpty ? SceneRegistry.defaults : try arguments.positionals.map { try SceneReference.model($0) }
    }

    /// The loop a job's `"loop": true` gives `model` at 60 fps: its length, its largest part
    /// speed change, and why there is none at 60 fps when the scene's own loop is longer than a
    /// clip may be (a valid scene file may loop every 10⁶ s: it renders, and is listed with its
    /// own loop and the reason, never refused as if a command-line value were wrong).
    static func defaultLoop(_ model: any SceneModel) -> (seconds: Double, speedChangePercent: Double, note: String?) {
        do {
            let loop = try model.defaultLoop()
            return (loop.duration, loop.worstSpeedChangePercent, nil)
        } catch {
            let message = (error as? ThrobberError)?.message ?? "\(error)"
            return (model.naturalLoop, 0, "no loop of it fits a clip at 60 fps: \(message)")
        }
    }

    static func execute(_ arguments: ParsedArguments) throws {
        if arguments.has(Self.json) {
            let typed = try models(arguments).map { model -> TypedListing in
                let loop = defaultLoop(model)
                let source = model.origin.map { ["path": $0.path, "sha256": $0.digest] }
                return TypedListing(id: model.id, summary: model.summary, source: source,
                                    canvas: ["width": model.canvasSize.width, "height": model.canvasSize.height],
                                    loop: ["seconds": loop.seconds, "speedChangePercent": loop.speedChangePercent],
                                    parameters: model.parameterSchemas, relations: model.relations)
            }
            print(try JSONOutput.text(typed))
            return
        }
        for model in try models(arguments) {
            let loop = defaultLoop(model)
            print("\(model.id) — \(model.summary)")
            let canvas = "\(formatNumber(model.canvasSize.width)) × \(formatNumber(model.canvasSize.height)) pt"
            if let note = loop.note {
                print("  canvas \(canvas), loops every \(LoopPlan.shortSeconds(loop.seconds)) s (\(note))")
            } else {
                print("  canvas \(canvas), loops every \(LoopPlan.shortSeconds(loop.seconds)) s"
                      + String(format: " by default (largest part speed change %.2f%%)", loop.speedChangePercent))
            }
            let parameters = model.parameterInfos
            let nameWidth = parameters.map(\.name.count).max() ?? 0
            for p in parameters {
                let name = p.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
                let unit = p.unit.isEmpty ? "" : " \(p.unit)"
                print("  \(name)  \(p.defaultValue)\(unit)  — \(p.summary); \(p.allowed)")
            }
            print("")
        }
    }
}
