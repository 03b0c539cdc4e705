import Foundation
import Throbber
import ThrobberBatch
import ThrobberRender

/// `throbber scenes`: every scene with its parameters, defaults, units and ranges.
enum ScenesCommand: Subcommand {
    static let help = """
        USAGE: throbber scenes [--json]

        Lists every scene with its parameters: name, type, default, unit, allowed values.

        OPTIONS:
          --json                 machine-readable output
          -h, --help             show this help
        """

    struct Listing: Codable {
        var id: String
        var summary: String
        var canvas: [String: Double]
        var loopSeconds: Double?
        var parameters: [ParameterInfo]
    }

    static let options: [OptionSpec] = [OptionSpec("--json", value: false)]

    static func execute(_ arguments: ParsedArguments) throws {
        let listings = SceneRegistry.all.map { type -> Listing in
            let model = type.init()
            return Listing(id: type.id, summary: type.summary,
                           canvas: ["width": model.canvasSize.width, "height": model.canvasSize.height],
                           loopSeconds: model.loopDuration, parameters: model.parameterInfos)
        }
        if arguments.has("--json") {
            let encoder = JSONOutput.encoder
            print(String(decoding: try encoder.encode(listings), as: UTF8.self))
            return
        }
        for listing in listings {
            print("\(listing.id) — \(listing.summary)")
            let canvas = "\(formatNumber(listing.canvas["width"]!)) × \(formatNumber(listing.canvas["height"]!)) pt"
            print("  canvas \(canvas)" + (listing.loopSeconds.map { ", loops every \(formatNumber($0)) s" } ?? ""))
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
