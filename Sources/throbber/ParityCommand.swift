import Foundation
import Throbber
import ThrobberCPU
import ThrobberPNG

/// `throbber parity`: a backend against the CPU reference over scenes × scales × times.
enum ParityCommand: Subcommand {
    static let help = """
        USAGE: throbber parity [options]

        Renders every case of the matrix with the chosen backend and with the CPU reference and
        compares decoded pixels. One line per case (scene, scale, t, largest channel difference,
        pixels off by more than 1 and by more than D, PSNR) and a summary. For every failing case,
        expected, observed and a heat map of the differences are written into --out.
        Exit 0 when every case passes, 1 when any mismatches.

        OPTIONS:
          --scenes all|A,B       scenes (default all)
          --scales 1,2,3         pixel scales (default 1,2,3)
          --times N              N times spread over each scene's loop (default 6)
          --at T1,T2,…           explicit times in seconds instead of --times
        \(BackendOptions.help)
          --max-diff D           allowed difference per channel in 8-bit steps (default 2)
          --max-pixels K         pixels allowed beyond D per case (default 0)
          --json FILE            write every case and the summary as JSON
          --out DIR              where failing cases' images go (default parity-failures)
          -q, --quiet            print only failures and the summary
          -h, --help             show this help
        """

    struct Case: Codable {
        var scene: String
        var scale: Double
        var t: Double
        var width: Int
        var height: Int
        var figures: DiffFigures
        var files: [String]?
    }

    struct Report: Codable {
        var backend: String
        var renderer: RendererStrings
        var reference: String
        var cases: [Case]
        var summary: Summary
    }

    struct Summary: Codable {
        var cases: Int
        var passed: Int
        var failed: Int
        var worst: Case?
        var seconds: Double
    }

    static let options: [OptionSpec] = DiffOptions.specs + BackendOptions.specs + [
            OptionSpec("--scenes"), OptionSpec("--scales"), OptionSpec("--times"), OptionSpec("--at"),
            OptionSpec("--json"), OptionSpec("--out"), OptionSpec("-q", "--quiet", value: false),
            ]

    static func execute(_ arguments: ParsedArguments) throws {
        guard arguments.positionals.isEmpty else {
            throw ThrobberError("parity takes no positional arguments: \(arguments.positionals.joined(separator: " "))", exitCode: .usage)
        }
        let (maxDiff, maxPixels) = try DiffOptions.bounds(arguments)
        var scenes = (arguments.value("--scenes") ?? "all").split(separator: ",").map(String.init)
        if scenes == ["all"] { scenes = SceneRegistry.ids }
        for id in scenes where !SceneRegistry.ids.contains(id) { throw ThrobberError.unknown("scene", id, known: SceneRegistry.ids) }
        let scales = try (arguments.value("--scales") ?? "1,2,3").split(separator: ",").map { text -> Double in
            guard let scale = Double(text), scale.isFinite, scale > 0 else {
                throw ThrobberError.invalid("--scales", String(text), allowed: "positive numbers, comma-separated")
            }
            return scale
        }
        let explicitTimes = try arguments.value("--at").map { list in
            try list.split(separator: ",").map { text -> Double in
                guard let t = Double(text), t.isFinite, t >= 0 else {
                    throw ThrobberError.invalid("--at", String(text), allowed: "times ≥ 0 in seconds, comma-separated")
                }
                return t
            }
        }
        if explicitTimes != nil && arguments.has("--times") {
            throw ThrobberError("--times and --at exclude each other", exitCode: .usage)
        }
        let timeCount = try arguments.integer("--times", default: 6, range: 1...1000)
        let (backend, device) = try BackendOptions.parse(arguments)
        let outDirectory = URL(fileURLWithPath: arguments.value("--out") ?? "parity-failures", isDirectory: true)
        let quiet = arguments.has("--quiet")

        let renderer = try FrameRenderer(backend, device: device, shaderDirectory: nil)
        let reference = CPURenderer()
        let strings = renderer.glRenderer.map { RendererStrings(vendor: $0.info.vendor, renderer: $0.info.renderer, version: $0.info.version, platform: $0.info.platform) }
            ?? RendererStrings(vendor: "Throbber", renderer: reference.rendererDescription, version: throbberVersion, platform: "cpu")
        print("parity: \(renderer.backend.rawValue) (\(renderer.glRenderer?.info.platform ?? "cpu")) — GL_VENDOR \(strings.vendor), GL_RENDERER \(strings.renderer), GL_VERSION \(strings.version)")
        print("reference: \(reference.rendererDescription); pass: every channel within \(maxDiff)/255, at most \(maxPixels) px beyond")

        let clock = ContinuousClock()
        let began = clock.now
        var cases: [Case] = []
        for id in scenes {
            for scale in scales {
                let scene = Scene(try SceneRegistry.model(id), scale: scale)
                try scene.validate()
                let times = explicitTimes ?? (0..<timeCount).map { scene.model.previewDuration * Double($0) / Double(timeCount) }
                for t in times {
                    let list = scene.drawList(at: t)
                    let expected = reference.render(list)
                    let observed = try renderer.render(list)
                    let diff = ImageDiff(expected: expected, observed: observed, tolerance: maxDiff)
                    var item = Case(scene: id, scale: scale, t: t, width: list.width, height: list.height,
                                    figures: DiffFigures(diff, maxPixels: maxPixels))
                    if !item.figures.pass {
                        item.files = try writeFailure(item, expected: expected, observed: observed, maxDiff: maxDiff, into: outDirectory)
                    }
                    if !quiet || !item.figures.pass {
                        print(String(format: "%@ %@ @%@x t=%@ (%d×%d): %@", item.figures.pass ? "pass" : "FAIL", id,
                                     formatNumber(scale), formatNumber((t * 1e6).rounded() / 1e6), list.width, list.height,
                                     item.figures.summary) + (item.files.map { " → \($0.joined(separator: ", "))" } ?? ""))
                        for line in diff.failureLines where !item.figures.pass { print("  \(line)") }
                    }
                    cases.append(item)
                }
            }
        }
        let seconds = (clock.now - began).seconds
        let failed = cases.filter { !$0.figures.pass }.count
        let worst = cases.max { ($0.figures.maxChannelDifference, $0.figures.pixelsOverOne) < ($1.figures.maxChannelDifference, $1.figures.pixelsOverOne) }
        let summary = Summary(cases: cases.count, passed: cases.count - failed, failed: failed, worst: worst, seconds: seconds)
        if let worst {
            print(String(format: "worst: %@ @%@x t=%@: %@", worst.scene, formatNumber(worst.scale), formatNumber(worst.t), worst.figures.summary))
        }
        print(String(format: "parity: %d cases (%d scenes × %d scales × %d times), %d passed, %d failed, in %.1f s",
                     cases.count, scenes.count, scales.count, explicitTimes?.count ?? timeCount, cases.count - failed, failed, seconds))
        if let jsonPath = arguments.value("--json") {
            try DiffOptions.writeJSON(Report(backend: renderer.backend.rawValue, renderer: strings, reference: reference.rendererDescription,
                                             cases: cases, summary: summary), to: jsonPath)
        }
        if failed > 0 { exit(ExitCode.mismatch.rawValue) }
    }

    /// Writes expected, observed and the heat map of one failing case; returns their paths.
    static func writeFailure(_ item: Case, expected: Image, observed: Image, maxDiff: Int, into directory: URL) throws -> [String] {
        try AtomicFile.prepareDirectory(directory)
        let stem = "\(item.scene)@\(formatNumber(item.scale))x_t\(formatNumber(item.t))"
        let images = [("expected", expected), ("observed", observed),
                      ("diff", ImageDiff.heatMap(expected: expected, observed: observed, tolerance: maxDiff))]
        return try images.map { name, image in
            let url = directory.appendingPathComponent("\(stem)_\(name).png")
            try AtomicFile.write(try PNGCodec.encode(image), to: url, overwrite: true)
            return url.path
        }
    }
}
