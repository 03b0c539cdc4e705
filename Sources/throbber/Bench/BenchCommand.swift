import Foundation
import Throbber
import ThrobberBatch
import ThrobberBenchmarks
import ThrobberRender
import ThrobberCPU
import ThrobberGL
import ThrobberPNG
import ThrobberDigest

/// `throbber bench`: throughput stage by stage, with the ceilings measured in the same run.
enum BenchCommand: Subcommand {
    static var help: String { """
        USAGE: throbber bench [options]

        Times each stage per scene × size × backend — render (until the driver is done), readback,
        frame (render + readback), PNG encode, SHA-256 of the PNG file as the manifest records
        it (hash; beside it the SHA-256 of the pixels, for comparison), write, and the
        end-to-end pipeline (`batch`: render, encode, hash and write on every core) — with
        min/median/max ms per frame, frames/s, Mpix/s and the process's CPU time per frame (every
        thread, user + system). Ceilings measured in the same run put a ratio beside each figure:
        memory copy of a frame (readback), GL clear + readback (frame), the PNG encoder alone on
        all cores (pipeline, sheet, preview). A budget table adds up what the pipeline's parts cost in CPU time alone
        and the best ratio to the encode ceiling that leaves.
        A least-squares fit ms = overhead + cost·Mpix per scene, backend and stage shows per-frame
        overhead; a frames-per-job sweep of every scene shows start-up (the scene with its text laid
        out, context, shader compile) is paid once.
        Release builds only: a debug build's figures mean nothing.

        OPTIONS:
        \(OptionSpec.helpTable([scenes, sizes, backends, stages, BackendOptions.device, frames, repeats, warmup, encoderName, level]))

        The pipeline stage is `throbber batch` itself on a job of the same frames (render, PNG with
        tEXt chunks, SHA-256 of the file, atomic write, manifest); its ceiling encodes the same
        frames with the same settings on every core and does nothing else, sampled right before
        each pipeline repeat; the ratio is the median over repeats of each repeat's frames/s over
        its own ceiling sample's. Frames are rendered in time order, as a batch renders them:
        the CPU renderer keeps the rows an earlier frame drew from the same things and paints the
        rest; its rows say what share of row bands it painted. The sheet stage is `batch` on
        the same frames into one sprite sheet, the preview stage `throbber preview` of 16
        frames (fewer where 16 do not fit a sheet); both write with compact (zlib 8) unless
        --png-encoder names an encoder, and each is set against its own ceiling: the same
        sheet pages, composed once, encoded on every core. ns/px is the per-pixel cost: wall
        time per frame over the frame's pixels.
        \(OptionSpec.helpTable([noStartup, pngSweep, sweepEncoders, sweepFilters, sheets, derive, deriveFrom, checkRule, sets, seed,
                                ruleScenes, json, plot, overwrite, baseline, allowDebug, OptionSpec.helpFlag]))
        """ }

    static func execute(_ arguments: ParsedArguments) throws {
        var configuration = "release"
        #if DEBUG
        configuration = "debug"
        guard arguments.has(Self.allowDebug) else {
            throw ThrobberError("bench refuses to time a debug build; build with `swift build -c release` and run "
                                + ".build/release/throbber bench (or pass --allow-debug)", kind: .usage)
        }
        #endif
        guard arguments.positionals.isEmpty else {
            throw ThrobberError("bench takes no positional arguments: \(arguments.positionals.joined(separator: " "))", kind: .usage)
        }
        let settings = try parse(arguments)
        // Read before measuring: a bad baseline is an error in a second, not after the run.
        let baseline = try arguments.value(Self.baseline).map { try BenchBaseline(path: $0, writer: "`throbber bench --json`") }
        // The files it writes, checked before measuring (minutes): not one another, not the
        // baseline, and not an existing file unless --overwrite.
        let overwrite = arguments.has(Self.overwrite)
        var claims = OutputClaims()
        if let path = arguments.value(Self.baseline) { try claims.claimInput(path, role: "the --baseline", source: .commandLine) }
        let jsonFile = try arguments.value(Self.json).map { try ReportFile($0, role: "the --json report", overwrite: overwrite, claims: &claims) }
        let plotFile = try arguments.value(Self.plot).map { try ReportFile($0, role: "the --plot", overwrite: overwrite, claims: &claims) }
        #if DEBUG
        // After the options are checked, so a usage error stays one line.
        FileHandle.standardError.write(Data("throbber bench: WARNING: this is a DEBUG build; its figures are not representative\n".utf8))
        #endif
        if let path = arguments.value(Self.deriveFrom) {
            try PNGRuleSweep.derive(from: path)
            return
        }
        if arguments.has(Self.derive) || arguments.has(Self.checkRule) {
            let sets = try arguments.integer(Self.sets)
            let seed = try arguments.seed(Self.seed)
            let progress: (String) -> Void = { FileHandle.standardError.write(Data("throbber bench: \($0)\n".utf8)) }
            if arguments.has(Self.checkRule) {
                try PNGRuleCheck.run(settings, sizesGiven: arguments.has(Self.sizes), sets: sets, seed: seed, json: jsonFile,
                                     progress: progress)
            } else {
                let files = try arguments.value(Self.ruleScenes).map { text in
                    try text.split(separator: ",").map { name -> String in
                        let path = String(name)
                        _ = try SceneReference.model(path)
                        return path
                    }
                }
                try PNGRuleSweep.derive(settings, sizesGiven: arguments.has(Self.sizes), sets: sets, seed: seed, files: files,
                                        json: jsonFile, progress: progress)
            }
            return
        }
        if arguments.has(Self.pngSweep) {
            try PNGSweep.run(settings, scenesGiven: arguments.has(Self.scenes),
                             sizesGiven: arguments.has(Self.sizes), json: jsonFile) { settings, frames, repeats in
                FileHandle.standardError.write(Data("throbber bench: --png-sweep: \(settings) settings × \(frames) frames × \(repeats) repeats\n".utf8))
            }
            return
        }
        var report = try Benchmarks.measure(settings, configuration: configuration)
        report.fits = Benchmarks.fits(report.rows)
        print(report.markdown, terminator: "")
        if let baseline {
            print(baseline.markdown(report, baseline.compare(report)), terminator: "")
        }
        try jsonFile?.write(try JSONOutput.encoder.encode(report))
        try plotFile?.write(Data(report.svg.utf8))
    }

    static func parse(_ arguments: ParsedArguments) throws -> Benchmarks.Settings {
        /// A comma-separated list option, or its default (`fallback` where it declares none); an
        /// empty list is a usage error (every list names something to measure, and the bench
        /// indexes its first entry), which gives `example` (the default where there is one).
        func list(_ option: OptionSpec, _ fallback: String? = nil, example: String? = nil) throws -> [String] {
            let text = arguments.value(option) ?? option.defaultValue ?? fallback!
            let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard !items.isEmpty, !items.contains(where: \.isEmpty) else {
                throw ThrobberError.invalid(option.canonical, text,
                                            allowed: "a non-empty comma-separated list, e.g. \(example ?? option.defaultValue ?? fallback!)")
            }
            return items
        }
        var scenes = try list(Self.scenes)
        if scenes == ["all"] { scenes = SceneRegistry.ids }
        // Each one built now, so a bad id or parameter is an error before minutes of measuring.
        for spec in scenes { _ = try Benchmarks.scene(spec, size: 64) }
        let sizes = try list(Self.sizes).map { text -> Int in
            guard let size = Int(text), (1...Scene.maximumPixelSide).contains(size) else {
                throw ThrobberError.invalid(Self.sizes.canonical, text, allowed: "integers in [1, \(Scene.maximumPixelSide)], comma-separated")
            }
            return size
        }
        let backends = try list(Self.backends).map { text -> Backend in
            guard let backend = Backend(rawValue: text) else {
                throw ThrobberError.invalid(Self.backends.canonical, text, allowed: Backend.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return backend
        }
        let stageNames = BenchStage.allCases.map(\.rawValue)
        let stages = try list(Self.stages, stageNames.joined(separator: ",")).map { text -> BenchStage in
            guard let stage = BenchStage(rawValue: text) else {
                throw ThrobberError.invalid(Self.stages.canonical, text, allowed: stageNames.joined(separator: ", "))
            }
            return stage
        }
        var settings = Benchmarks.Settings(scenes: scenes, sizes: sizes, backends: backends, stages: Set(stages),
                        frames: try arguments.integer(Self.frames),
                        repeats: try arguments.integer(Self.repeats),
                        warmup: try arguments.integer(Self.warmup),
                        png: try PNGOptions.encoder(arguments, name: encoderName),
                        startup: !arguments.has(Self.noStartup),
                        device: try arguments.integerIfGiven(BackendOptions.device))
        for option in [sweepEncoders, sweepFilters, sheets, derive, checkRule] where arguments.has(option) && !arguments.has(Self.pngSweep) {
            throw ThrobberError("\(option.canonical) goes with --png-sweep only", kind: .usage)
        }
        for option in [sets, seed] where arguments.has(option) && !arguments.has(Self.derive) && !arguments.has(Self.checkRule) {
            throw ThrobberError("\(option.canonical) goes with --derive or --check-rule only", kind: .usage)
        }
        for option in [ruleScenes, deriveFrom] where arguments.has(option) && !arguments.has(Self.derive) {
            throw ThrobberError("\(option.canonical) goes with --derive only", kind: .usage)
        }
        // Read here, so a value out of range is refused before anything else is looked at.
        if arguments.has(Self.derive) || arguments.has(Self.checkRule) {
            _ = try arguments.integer(Self.sets)
            _ = try arguments.seed(Self.seed)
        }
        if arguments.has(Self.derive) && arguments.has(Self.checkRule) || (arguments.has(Self.derive) || arguments.has(Self.checkRule)) && arguments.has(Self.sheets) {
            throw ThrobberError("--derive, --check-rule and --sheets go one at a time", kind: .usage)
        }
        if arguments.has(Self.sweepEncoders) {
            // NAME, NAME:L or NAME:L-M: an encoder at every level, at one, or at a range of them.
            settings.sweepEncoders = try list(sweepEncoders, example: "zlib").map { item in
                let parts = item.split(separator: ":", maxSplits: 1).map(String.init)
                let name = parts[0]
                guard PNGEncoderCatalog.encoders.contains(name), let all = PNGEncoder.levels(for: name) else {
                    throw ThrobberError.invalid(Self.sweepEncoders.canonical, item, allowed: PNGEncoderCatalog.encoders.joined(separator: ", ")
                                                + ", each optionally with :LEVEL or :FIRST-LAST")
                }
                guard parts.count == 2 else { return (name, nil) }
                let bounds = parts[1].split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
                guard (1...2).contains(bounds.count), let low = bounds.first!, let high = bounds.last!, low <= high,
                      all.contains(low), all.contains(high) else {
                    throw ThrobberError.invalid(Self.sweepEncoders.canonical, item, allowed: "\(name) levels in [\(all.lowerBound), \(all.upperBound)], as :LEVEL or :FIRST-LAST")
                }
                return (name, low...high)
            }
        }
        if arguments.has(Self.sweepFilters) {
            settings.sweepFilters = try list(sweepFilters, example: "none").map { name in
                guard let filter = PNGRowFilter(rawValue: name) else {
                    throw ThrobberError.invalid(Self.sweepFilters.canonical, name, allowed: PNGRowFilter.allCases.map(\.rawValue).joined(separator: ", "))
                }
                return filter
            }
        }
        settings.sweepSheets = arguments.has(Self.sheets)
        if arguments.has(Self.encoderName) { settings.sheetPNG = settings.png }
        return settings
    }

}
