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
    static let help = """
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
          --scenes all|A,B       scenes to measure (default wave-ball); a scene may set
                                 parameters, ID:NAME=VALUE[:NAME=VALUE…], to measure it beside
                                 itself without them: --scenes wave-ball,wave-ball:label=on;
                                 a scene file (docs/scene-files.md) is measured as a scene
          --sizes N,…            canvas sizes: the longer side in px (default 64,128,256,512,1024)
          --backends gl,cpu      backends to measure (default gl,cpu)
          --stages S,…           render,readback,frame,frame1,async,encode,hash,write,pipeline,
                                 sheet,preview (default all); frame renders GL frames as render
                                 and batch do,
                                 a stack of frames per draw and per readback (a sample is a
                                 stack's time per frame); frame1 one frame per draw; async is
                                 render + readback through a ring of pixel-buffer objects mapped
                                 a frame late (GL backends), against frame1
          --device N             with egl: EGL device N (see `throbber info`)
          --frames N             frames per sample set (default 60); encode, hash and
                                 write take the rendered frames, repeating the first
                                 ones past 256 MB of pixels
          --repeat R             sample sets per stage (default 3)
          --warmup W             frames rendered before timing (default 5)
          --png-encoder NAME     the encoder of encode/write/pipeline and their ceilings, and
          --png-level L          its level, as render takes them (default auto: per scene and
                                 size, as render and batch choose)

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
          --no-startup           skip the frames-per-job sweep
          --png-sweep            instead: encode time and file size of every PNG encoder × level ×
                                 row filter on 4 frames (--frames, at most 4) of each scene (all
                                 unless --scenes) at 64, 512 and 1024 px (or --sizes), each frame
                                 encoded in a sequence after the one before it, as a clip's are,
                                 and the two settings chosen by rule: the default (the fastest
                                 whose files are no larger than libpng 6 adaptive's at every size)
                                 and the smallest
          --sweep-encoders E,…   with --png-sweep: only these encoders, each at every level or at
                                 NAME:L or NAME:L-M (libpng 6 adaptive, the size reference, is
                                 always encoded)
          --sweep-filters F,…    with --png-sweep: only these row filters
          --sheets               with --png-sweep: sprite sheets of 24 frames with cells of 64,
                                 128 and 256 px (or --sizes) on every core, the speed/size
                                 frontier, and the sheet rule: the fastest within 10 % of the
                                 smallest at every cell size
          --json FILE            write the full report as JSON
          --plot FILE.svg        write ns per pixel against pixels per frame (log–log), each
                                 stage beside its ceiling (dashed)
          --overwrite            replace an existing --json or --plot file (default: refuse
                                 before measuring, exit 73)
          --baseline OLD.json    compare each figure with a run saved by --json: its change and
                                 a verdict (faster / slower / within noise) from the spread of
                                 both runs' repeats
          --allow-debug          run from a debug build anyway (figures are marked)
          -h, --help             show this help
        """

    static let options = PNGOptions.specs + [
        OptionSpec("--scenes"), OptionSpec("--sizes"), OptionSpec("--backends"), OptionSpec("--stages"),
        OptionSpec("--device"), OptionSpec("--frames"), OptionSpec("--repeat"), OptionSpec("--warmup"),
        OptionSpec("--no-startup", value: false), OptionSpec("--png-sweep", value: false),
        OptionSpec("--sweep-encoders"), OptionSpec("--sweep-filters"), OptionSpec("--sheets", value: false), OptionSpec("--json"), OptionSpec("--plot"), OptionSpec("--overwrite", value: false), OptionSpec("--baseline"),
        OptionSpec("--allow-debug", value: false),
    ]

    static func execute(_ arguments: ParsedArguments) throws {
        var configuration = "release"
        #if DEBUG
        configuration = "debug"
        guard arguments.has("--allow-debug") else {
            throw ThrobberError("bench refuses to time a debug build; build with `swift build -c release` and run "
                                + ".build/release/throbber bench (or pass --allow-debug)", kind: .usage)
        }
        #endif
        guard arguments.positionals.isEmpty else {
            throw ThrobberError("bench takes no positional arguments: \(arguments.positionals.joined(separator: " "))", kind: .usage)
        }
        let settings = try parse(arguments)
        // Read before measuring: a bad baseline is an error in a second, not after the run.
        let baseline = try arguments.value("--baseline").map { try BenchBaseline(path: $0, writer: "`throbber bench --json`") }
        // The files it writes, checked before measuring (minutes): not one another, not the
        // baseline, and not an existing file unless --overwrite.
        let overwrite = arguments.has("--overwrite")
        var claims = OutputClaims()
        if let path = arguments.value("--baseline") { try claims.claimInput(path, role: "the --baseline", source: .commandLine) }
        let jsonFile = try arguments.value("--json").map { try ReportFile($0, role: "the --json report", overwrite: overwrite, claims: &claims) }
        let plotFile = try arguments.value("--plot").map { try ReportFile($0, role: "the --plot", overwrite: overwrite, claims: &claims) }
        #if DEBUG
        // After the options are checked, so a usage error stays one line.
        FileHandle.standardError.write(Data("throbber bench: WARNING: this is a DEBUG build; its figures are not representative\n".utf8))
        #endif
        if arguments.has("--png-sweep") {
            try PNGSweep.run(settings, scenesGiven: arguments.value("--scenes") != nil,
                             sizesGiven: arguments.value("--sizes") != nil, json: jsonFile) { settings, frames, repeats in
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
        /// A comma-separated list option; an empty list is a usage error (every list names
        /// something to measure, and the bench indexes its first entry).
        func list(_ name: String, _ fallback: String) throws -> [String] {
            let items = (arguments.value(name) ?? fallback).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard !items.isEmpty, !items.contains(where: \.isEmpty) else {
                throw ThrobberError.invalid(name, arguments.value(name) ?? fallback, allowed: "a non-empty comma-separated list, e.g. \(fallback)")
            }
            return items
        }
        var scenes = try list("--scenes", "wave-ball")
        if scenes == ["all"] { scenes = SceneRegistry.ids }
        // Each one built now, so a bad id or parameter is an error before minutes of measuring.
        for spec in scenes { _ = try Benchmarks.scene(spec, size: 64) }
        let sizes = try list("--sizes", "64,128,256,512,1024").map { text -> Int in
            guard let size = Int(text), (1...Scene.maximumPixelSide).contains(size) else {
                throw ThrobberError.invalid("--sizes", text, allowed: "integers in [1, \(Scene.maximumPixelSide)], comma-separated")
            }
            return size
        }
        let backends = try list("--backends", "gl,cpu").map { text -> Backend in
            guard let backend = Backend(rawValue: text) else {
                throw ThrobberError.invalid("--backends", text, allowed: Backend.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return backend
        }
        let stageNames = BenchStage.allCases.map(\.rawValue)
        let stages = try list("--stages", stageNames.joined(separator: ",")).map { text -> BenchStage in
            guard let stage = BenchStage(rawValue: text) else {
                throw ThrobberError.invalid("--stages", text, allowed: stageNames.joined(separator: ", "))
            }
            return stage
        }
        var settings = Benchmarks.Settings(scenes: scenes, sizes: sizes, backends: backends, stages: Set(stages),
                        frames: try arguments.integer("--frames", default: 60, range: 1...100_000),
                        repeats: try arguments.integer("--repeat", default: 3, range: 1...1000),
                        warmup: try arguments.integer("--warmup", default: 5, range: 0...10_000),
                        png: try PNGOptions.encoder(arguments),
                        startup: !arguments.has("--no-startup"),
                        device: try arguments.value("--device").map { _ in try arguments.integer("--device", default: 0, range: 0...1024) })
        for name in ["--sweep-encoders", "--sweep-filters", "--sheets"] where arguments.has(name) && !arguments.has("--png-sweep") {
            throw ThrobberError("\(name) goes with --png-sweep only", kind: .usage)
        }
        if arguments.value("--sweep-encoders") != nil {
            // NAME, NAME:L or NAME:L-M: an encoder at every level, at one, or at a range of them.
            settings.sweepEncoders = try list("--sweep-encoders", "zlib").map { item in
                let parts = item.split(separator: ":", maxSplits: 1).map(String.init)
                let name = parts[0]
                guard PNGEncoderCatalog.encoders.contains(name), let all = PNGEncoder.levels(for: name) else {
                    throw ThrobberError.invalid("--sweep-encoders", item, allowed: PNGEncoderCatalog.encoders.joined(separator: ", ")
                                                + ", each optionally with :LEVEL or :FIRST-LAST")
                }
                guard parts.count == 2 else { return (name, nil) }
                let bounds = parts[1].split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
                guard (1...2).contains(bounds.count), let low = bounds.first!, let high = bounds.last!, low <= high,
                      all.contains(low), all.contains(high) else {
                    throw ThrobberError.invalid("--sweep-encoders", item, allowed: "\(name) levels in [\(all.lowerBound), \(all.upperBound)], as :LEVEL or :FIRST-LAST")
                }
                return (name, low...high)
            }
        }
        if arguments.value("--sweep-filters") != nil {
            settings.sweepFilters = try list("--sweep-filters", "none").map { name in
                guard let filter = PNGRowFilter(rawValue: name) else {
                    throw ThrobberError.invalid("--sweep-filters", name, allowed: PNGRowFilter.allCases.map(\.rawValue).joined(separator: ", "))
                }
                return filter
            }
        }
        settings.sweepSheets = arguments.has("--sheets")
        if arguments.has("--png-encoder") { settings.sheetPNG = settings.png }
        return settings
    }

}
