import Foundation
import Throbber
import ThrobberCPU
import ThrobberPNG
import ThrobberBatch
import ThrobberRender

/// `throbber parity`: a backend against the CPU reference over scenes × scales × times, or over
/// random cases drawn from every parameter's sampling range.
enum ParityCommand: Subcommand {
    static var help: String { """
        USAGE: throbber parity [options]

        Renders cases with the chosen backend and with the CPU reference and compares decoded
        pixels under the parity rule (SPEC §0): every channel within D, except that where either
        image's alpha is ≤ 1 only alpha is compared. One line per case (scene, scale, t, largest
        channel difference, pixels off by more than 1 and by more than D, PSNR) and a summary.
        A failing case prints the `throbber render` command that renders its observed image (a
        random case always does), and its expected, observed and heat-map images go into --out.
        Exit 0 when every case passes, 1 when any mismatches, 69 when no GL backend opens (with
        auto the run is skipped, the reason on one line: the CPU reference would be compared
        with itself).

        By default the cases are the matrix: every scene × scale × time with default parameters;
        the scenes are the built-ins and `paths`, parity's own scene of paths (a gallery in the
        matrix, random paths with --random; docs/parity.md).
        With --random N they are N random cases per scene instead: every parameter drawn from its
        sampling range (see docs/parity.md), colours with any alpha, transparent, opaque and
        translucent backgrounds, scales in [0.3, 3.3], times from 0 to 1e5 s, canvases at most
        640 px a side. Case K of a scene depends only on the seed and K; each line carries the
        command that reproduces it.

        OPTIONS:
        \(OptionSpec.helpTable([scenes, scales, times, at, random, seed, set] + BackendOptions.all
                                + [DiffOptions.maxDiff, maxPixels, dryRun, json, out, overwrite, quiet, OptionSpec.helpFlag]))

        EXAMPLES:
          throbber parity --backend gl
          throbber parity --random 100 --seed 7 --scenes wave-ball --backend gl
          throbber parity --random 50 --set progress=1 --set fillFrom=1 --at 5 --scenes wave-ball
        """ }

    struct Case: Codable {
        var scene: String
        /// A random case's number: with the seed, all that is needed to draw it again.
        var index: Int?
        var scale: Double
        var t: Double
        var width: Int
        var height: Int
        /// Every setting that differs from the scene's defaults, scale and background included.
        var settings: [String: String]
        /// The `throbber render` command that renders this case's observed image.
        var command: String
        var figures: DiffFigures
        var files: [String]?
    }

    struct Report: Codable {
        var backend: String
        var renderer: RendererStrings
        var reference: String
        /// Random cases per scene, or nil for the matrix.
        var random: Int?
        var seed: UInt64?
        /// The `--set` settings every case shares.
        var fixed: [String]
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

    /// Ids or scene files, comma-separated; `all` is every built-in.
    static let scenes = OptionSpec("--scenes", value: "all|A,B", default: "all", help: """
        scenes (default {default}): ids, or scene files (a path with '/'
        or ending in .json; docs/scene-files.md)
        """)
    /// Comma-separated, each in `Limits.scaleRange`; without it, `ParityMatrix.defaultScales`.
    static let scales = OptionSpec("--scales", value: "1,2,3", help: """
        pixel scales (default \(ParityMatrix.defaultScales.map(formatNumber).joined(separator: ",")); with --random: drawn from these)
        """)
    static let times = OptionSpec("--times", value: "N", .integer(1...1000), default: "6",
                                  help: "N times spread over each scene's loop (default {default}; matrix only)")
    /// Comma-separated, each in `Limits.timeRange`.
    static let at = OptionSpec("--at", value: "T1,T2,…", help: """
        explicit times in seconds instead of --times (with --random:
        drawn from these)
        """)
    static let random = OptionSpec("--random", value: "N", .integer(1...1_000_000), help: "N random cases per scene instead of the matrix")
    static let seed = OptionSpec("--seed", value: "S", .seed, default: "1",
                                 help: "seed of the random cases, an integer ≥ {min} (default {default})")
    static let set = SceneOptions.set.with(help: """
        fix a parameter in every case, matrix or random (repeatable);
        applies to the chosen scenes that have it; scale and background
        too (see `throbber scenes`)
        """)
    static let maxPixels = DiffOptions.maxPixels.with(help: "pixels allowed beyond D per case (default {default})")
    static let dryRun = OptionSpec("--dry-run", help: """
        list the cases and their commands without rendering (to
        reproduce a case that crashes a renderer)
        """)
    static let json = OptionSpec("--json", value: "FILE", help: """
        write every case (settings and command included) and the
        summary as JSON
        """)
    static let out = OptionSpec("--out", value: "DIR", default: "parity-failures",
                                help: "where failing cases' images go (default {default})")
    static let overwrite = OptionSpec("--overwrite", help: """
        replace an existing --json file and failing cases' images
        (default: refuse before rendering, exit 73)
        """)
    static let quiet = OptionSpec.quiet.with(help: "print only failures and the summary")

    static let options: [OptionSpec] = [DiffOptions.maxDiff, maxPixels] + BackendOptions.all + [
        scenes, scales, times, at, random, seed, set, dryRun, json, out, overwrite, quiet,
    ]

    static func execute(_ arguments: ParsedArguments) throws {
        guard arguments.positionals.isEmpty else {
            throw ThrobberError("parity takes no positional arguments: \(arguments.positionals.joined(separator: " "))", kind: .usage)
        }
        let (maxDiff, maxPixels) = try DiffOptions.bounds(arguments, maxPixels: Self.maxPixels)
        var scenes = arguments.text(Self.scenes).split(separator: ",").map(String.init)
        if scenes == ["all"] { scenes = SceneRegistry.parityIDs }
        // Ids of built-ins, or scene files (docs/scene-files.md), each read once.
        let models = try scenes.map { try SceneReference.model($0) }
        let explicitScales = try arguments.value(Self.scales).map { list in
            try list.split(separator: ",").map { text -> Double in
                guard let scale = Double(text), Limits.scaleRange.contains(scale) else {
                    throw ThrobberError.invalid(scales.canonical, String(text), allowed: "numbers > 0 and ≤ \(formatNumber(Limits.scale)), comma-separated")
                }
                return scale
            }
        }
        let explicitTimes = try arguments.value(Self.at).map { list in
            try list.split(separator: ",").map { text -> Double in
                guard let t = Double(text), Limits.timeRange.contains(t) else {
                    throw ThrobberError.invalid(at.canonical, String(text), allowed: "times ≥ 0 and ≤ \(formatNumber(Limits.time)) s, comma-separated")
                }
                return t
            }
        }
        if explicitTimes != nil && arguments.has(Self.times) {
            throw ThrobberError("--times and --at exclude each other", kind: .usage)
        }
        let timeCount = try arguments.integer(Self.times)
        let randomCount = try arguments.integerIfGiven(Self.random)
        if randomCount == nil && arguments.has(Self.seed) {
            throw ThrobberError("--seed applies to --random only", kind: .usage)
        }
        if randomCount != nil && arguments.has(Self.times) {
            throw ThrobberError("--times spreads the matrix's times; with --random, times are drawn (or taken from --at)", kind: .usage)
        }
        let seed = try arguments.seed(Self.seed)
        let fixed = try arguments.all(Self.set).map { assignment -> SampledCase.Setting in
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw ThrobberError.invalid(Self.set.canonical, assignment, allowed: "NAME=VALUE, e.g. --set progress=0.7")
            }
            return SampledCase.Setting(String(assignment[..<equals]).trimmingCharacters(in: .whitespaces),
                                       String(assignment[assignment.index(after: equals)...]))
        }
        try ParityMatrix.check(fixed, models: models)
        if fixed.contains(where: { $0.name == "scale" }) && explicitScales != nil {
            throw ThrobberError("--set scale=… and --scales exclude each other", kind: .usage)
        }
        let (backend, device) = try BackendOptions.parse(arguments)
        let outDirectory = URL(fileURLWithPath: arguments.text(Self.out), isDirectory: true)
        let quiet = arguments.has(Self.quiet)

        let matrixScales = fixed.last(where: { $0.name == "scale" }).map { [Double($0.value)!] } ?? explicitScales ?? ParityMatrix.defaultScales
        // Every case is built before the first render, so a setting no case can take is a usage
        // error at once rather than after minutes of rendering.
        let plan = try randomCount.map {
            try ParityMatrix.randomCases(models: models, count: $0, seed: seed, fixed: fixed, times: explicitTimes, scales: explicitScales)
        } ?? ParityMatrix.cases(models: models, scales: matrixScales, times: explicitTimes, timeCount: timeCount, fixed: fixed)

        let program = CommandLine.arguments.first ?? "throbber"
        if arguments.has(Self.dryRun) {
            // Renders nothing: the cases and their commands, e.g. to reproduce one that crashes.
            for planned in plan {
                let (width, height) = planned.scene.pixelSize
                print("\(planned.id)\(planned.index.map { " #\($0)" } ?? "") @\(formatNumber(planned.scene.scale))x t=\(formatNumber(planned.t)) "
                      + "(\(width)×\(height)) — " + reproCommand(program: program, planned, backend: backend, device: device))
            }
            return
        }
        // Every file this run may write is looked at before the first render: the report, and
        // the three images of each case that could fail; one that exists is refused unless
        // --overwrite, as `render` refuses an existing frame.
        let overwrite = arguments.has(Self.overwrite)
        let jsonFile = try arguments.value(Self.json).map { try ReportFile($0, role: "the --json report", overwrite: overwrite) }
        if !overwrite {
            for planned in plan {
                for path in failureFiles(scene: planned.id, index: planned.index, scale: planned.scene.scale, t: planned.t,
                                         seed: seed, in: outDirectory)
                where try AtomicFile.existing(at: path) == .file {
                    throw ThrobberError("a failing case's image \(ThrobberError.shownPath(path)) exists (--out)", kind: .cannotCreate, remedy: .overwrite)
                }
            }
        }
        let renderer = try FrameRenderer(backend, device: device, glWanted: true)
        if backend == .auto && renderer.backend == .cpu {
            // Nothing to compare: a skip, not a pass (`--backend cpu`, asked for, still runs).
            let reasons = renderer.skipped.joined(separator: "; ").split(whereSeparator: \.isNewline).joined(separator: " ")
            throw ThrobberError("parity skipped: \(BackendChoice.noGLReason) (\(reasons)); the CPU reference would only be compared "
                                + "with itself", kind: .backendUnavailable)
        }
        let reference = CPURenderer(threadCount: UsableCPUs.current.usable)
        let strings = renderer.glRenderer.map { RendererStrings(vendor: $0.info.vendor, renderer: $0.info.renderer, version: $0.info.version, platform: $0.info.platform) }
            ?? RendererStrings(vendor: "Throbber", renderer: reference.rendererDescription, version: throbberVersion, platform: "cpu")
        print("parity: \(renderer.backend.rawValue) (\(renderer.glRenderer?.info.platform ?? "cpu")) — GL_VENDOR \(strings.vendor), GL_RENDERER \(strings.renderer), GL_VERSION \(strings.version)")
        print("reference: \(reference.rendererDescription); pass: every channel within \(maxDiff)/255 (alpha only where either alpha ≤ 1), at most \(maxPixels) px beyond")
        if let randomCount {
            print("random: \(randomCount) case\(randomCount == 1 ? "" : "s") per scene, seed \(seed), canvases at most \(ParityMatrix.randomPixelCap) px a side"
                  + (fixed.isEmpty ? "" : "; fixed: " + fixed.map { "\($0.name)=\($0.value)" }.joined(separator: " ")))
        }

        let clock = ContinuousClock()
        let began = clock.now
        var cases: [Case] = []
        for planned in plan {
            let (expected, observed, diff, stacked) = try ParityMatrix.compare(try planned.laidOutScene(), at: planned.t, renderer: renderer, reference: reference,
                                                                      tolerance: maxDiff)
            let (width, height) = (expected.width, expected.height)
            let command = reproCommand(program: program, planned, backend: renderer.backend, device: device)
            var item = Case(scene: planned.id, index: planned.index, scale: planned.scene.scale, t: planned.t,
                            width: width, height: height,
                            settings: Dictionary(planned.settings.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }), command: command,
                            figures: DiffFigures(diff, maxPixels: maxPixels))
            if !item.figures.pass {
                item.files = try writeFailure(item, seed: seed, expected: expected, observed: observed, maxDiff: maxDiff, into: outDirectory,
                                              overwrite: overwrite)
            }
            if !quiet || !item.figures.pass {
                let head = String(format: "%@ %@ (%d×%d): %@", item.figures.pass ? "pass" : "FAIL", label(item), width, height,
                                  item.figures.summary)
                if planned.index != nil {
                    print(head + " — " + command)
                } else {
                    print(head + (item.files.map { " → \($0.joined(separator: ", "))" } ?? ""))
                    if !item.figures.pass { print("  repro: \(command)") }
                }
                if !item.figures.pass {
                    if planned.index != nil, let files = item.files { print("  → \(files.joined(separator: ", "))") }
                    if stacked { print("  (the frame drawn twice in one call, as a clip's frames are; drawn alone it differs less)") }
                    for line in diff.failureLines { print("  \(line)") }
                }
            }
            cases.append(item)
            // Line by line even into a pipe, so a case that traps a renderer leaves every line
            // before it (and --dry-run names the next case).
            fflush(nil)
        }
        let seconds = (clock.now - began).seconds
        let failed = cases.filter { !$0.figures.pass }.count
        let worst = cases.max { ($0.figures.maxChannelDifference, $0.figures.pixelsOverOne) < ($1.figures.maxChannelDifference, $1.figures.pixelsOverOne) }
        let summary = Summary(cases: cases.count, passed: cases.count - failed, failed: failed, worst: worst, seconds: seconds)
        if let worst {
            print("worst: \(label(worst)): \(worst.figures.summary)")
        }
        let shape = randomCount.map { "\(scenes.count) scenes × \($0) random, seed \(seed)" }
            ?? "\(scenes.count) scenes × \(matrixScales.count) scales × \(explicitTimes?.count ?? timeCount) times"
        print(String(format: "parity: %d cases (%@), %d passed, %d failed, in %.1f s",
                     cases.count, shape, cases.count - failed, failed, seconds))
        if let jsonFile {
            try jsonFile.write(try JSONOutput.encoder.encode(Report(backend: renderer.backend.rawValue, renderer: strings, reference: reference.rendererDescription,
                                             random: randomCount, seed: randomCount == nil ? nil : seed,
                                             fixed: fixed.map { "\($0.name)=\($0.value)" }, cases: cases, summary: summary)))
        }
        if failed > 0 { exit(ExitCode.mismatch.rawValue) }
    }

    /// `wave-ball @2x t=0.5`, or `wave-ball #17 @1.37x t=12.5` for random case 17.
    static func label(_ item: Case) -> String {
        "\(item.scene)\(item.index.map { " #\($0)" } ?? "") @\(formatNumber(item.scale))x t=\(formatNumber(item.t))"
    }

    /// The `throbber render` command that renders a case's observed image: frame 0 at
    /// `--start t`, every setting, the backend that was compared.
    static func reproCommand(program: String, _ planned: ParityMatrix.Case, backend: Backend, device: Int?) -> String {
        var words = [program, "render", planned.reference, "--start", formatNumber(planned.t)]
        // `render` applies --scale, then --background, then each --set in order; print them so.
        for setting in planned.settings where setting.name == "scale" { words += ["--scale", setting.value] }
        for setting in planned.settings where setting.name == "background" { words += ["--background", setting.value] }
        for setting in planned.settings where !ParameterSampler.sceneSettingNames.contains(setting.name) {
            words += ["--set", "\(setting.name)=\(setting.value)"]
        }
        words += ["--backend", backend.rawValue] + (device.map { ["--device", String($0)] } ?? [])
        words += ["-o", "parity-repro", "--overwrite"]
        return words.map(shellQuoted).joined(separator: " ")
    }

    /// A word as a POSIX shell reads it back: unchanged when it holds only safe characters,
    /// otherwise in single quotes.
    static func shellQuoted(_ word: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-")
        if !word.isEmpty && word.allSatisfy(safe.contains) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The expected, observed and heat-map images a failing case writes into `directory`.
    static func failureFiles(scene: String, index: Int?, scale: Double, t: Double, seed: UInt64, in directory: URL) -> [String] {
        let stem = index.map { "\(scene)_seed\(seed)_case\($0)" } ?? "\(scene)@\(formatNumber(scale))x_t\(formatNumber(t))"
        return ["expected", "observed", "diff"].map { directory.appendingPathComponent("\(stem)_\($0).png").path }
    }

    /// Writes expected, observed and the heat map of one failing case; returns their paths.
    static func writeFailure(_ item: Case, seed: UInt64, expected: Image, observed: Image, maxDiff: Int,
                             into directory: URL, overwrite: Bool) throws -> [String] {
        try AtomicFile.prepareDirectory(directory)
        let files = failureFiles(scene: item.scene, index: item.index, scale: item.scale, t: item.t, seed: seed, in: directory)
        let images = [expected, observed, ImageDiff.heatMap(expected: expected, observed: observed, tolerance: maxDiff)]
        for (path, image) in zip(files, images) {
            try AtomicFile.write(try PNGCodec.encode(image), toPath: path, overwrite: overwrite)
        }
        return files
    }
}
