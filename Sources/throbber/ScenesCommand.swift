import Foundation
import Throbber
import ThrobberBatch
import ThrobberRender

/// `throbber scenes`: every scene with its parameters, defaults, units and ranges.
enum ScenesCommand: Subcommand {
    static let help = """
        USAGE: throbber scenes [--json]

        Lists every scene with its parameters: name, type, default, unit, allowed values, and
        the loop a job's "loop": true gives it at 60 fps (its length, and how much the part
        retimed most changes speed).

        OPTIONS:
          --json                 machine-readable output
          -h, --help             show this help
        """

    struct Listing: Codable {
        var id: String
        var summary: String
        var canvas: [String: Double]
        /// The default loop's length at 60 fps (`"loop": true` without `loopSeconds`).
        var loopSeconds: Double
        /// The largest |speed change| of a part in that loop, in percent.
        var loopSpeedChangePercent: Double
        var parameters: [ParameterInfo]
    }

    static let options: [OptionSpec] = [OptionSpec("--json", value: false)]

    static func execute(_ arguments: ParsedArguments) throws {
        let listings = try SceneRegistry.all.map { type -> Listing in
            let model = type.init()
            let loop = try model.defaultLoop()
            return Listing(id: type.id, summary: type.summary,
                           canvas: ["width": model.canvasSize.width, "height": model.canvasSize.height],
                           loopSeconds: loop.duration, loopSpeedChangePercent: loop.worstSpeedChangePercent,
                           parameters: model.parameterInfos)
        }
        if arguments.has("--json") {
            let encoder = JSONOutput.encoder
            print(String(decoding: try encoder.encode(listings), as: UTF8.self))
            return
        }
        for listing in listings {
            print("\(listing.id) — \(listing.summary)")
            let canvas = "\(formatNumber(listing.canvas["width"]!)) × \(formatNumber(listing.canvas["height"]!)) pt"
            print("  canvas \(canvas), loops every \(LoopPlan.shortSeconds(listing.loopSeconds)) s"
                  + String(format: " by default (largest part speed change %.2f%%)", listing.loopSpeedChangePercent))
            let nameWidth = listing.parameters.map(\.name.count).max() ?? 0
            for p in listing.parameters {
                let name = p.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
                let unit = p.unit.isEmpty ? "" : " \(p.unit)"
                print("  \(name)  \(p.defaultValue)\(unit)  — \(p.summary); \(p.allowed)")
            }
            print("")
        }
    }
}
