import Throbber

/// The options of `throbber bench`, each declared once: the parser, the help and the reads in
/// `BenchCommand.parse` take them from here.
extension BenchCommand {
    /// A comma-separated list; `all` is every scene.
    static let scenes = OptionSpec("--scenes", value: "all|A,B", default: "wave-ball", help: """
        scenes to measure (default {default}); a scene may set
        parameters, ID:NAME=VALUE[:NAME=VALUE…], to measure it beside
        itself without them: --scenes wave-ball,wave-ball:label=on;
        a scene file (docs/scene-files.md) is measured as a scene
        """)
    /// A comma-separated list of integers in [1, `Scene.maximumPixelSide`].
    static let sizes = OptionSpec("--sizes", value: "N,…", default: "64,128,256,512,1024",
                                  help: "canvas sizes: the longer side in px (default {default})")
    static let backends = OptionSpec("--backends", value: "gl,cpu", default: "gl,cpu", help: "backends to measure (default {default})")
    /// A comma-separated list of `BenchStage`s; its default, every stage, is worked out as it is read.
    static let stages = OptionSpec("--stages", value: "S,…", help: """
        render,readback,frame,frame1,async,encode,hash,write,pipeline,
        sheet,preview (default all); frame renders GL frames as render
        and batch do,
        a stack of frames per draw and per readback (a sample is a
        stack's time per frame); frame1 one frame per draw; async is
        render + readback through a ring of pixel-buffer objects mapped
        a frame late (GL backends), against frame1
        """)
    static let frames = OptionSpec("--frames", value: "N", .integer(1...100_000), default: "60", help: """
        frames per sample set (default {default}); encode, hash and
        write take the rendered frames, repeating the first
        ones past 256 MB of pixels
        """)
    static let repeats = OptionSpec("--repeat", value: "R", .integer(1...1000), default: "3", help: "sample sets per stage (default {default})")
    static let warmup = OptionSpec("--warmup", value: "W", .integer(0...10_000), default: "5",
                                   help: "frames rendered before timing (default {default})")
    static let encoderName = PNGOptions.encoderName.with(help: "the encoder of encode/write/pipeline and their ceilings, and")
    static let level = PNGOptions.level.with(help: """
        its level, as render takes them (default \(PNGOptions.encoderName.defaultValue!): chosen from the
        frames, as render and batch choose)
        """)
    static let noStartup = OptionSpec("--no-startup", help: "skip the frames-per-job sweep")
    static let pngSweep = OptionSpec("--png-sweep", help: """
        instead: encode time and file size of every PNG encoder × level ×
        row filter on 4 frames (--frames, at most 4) of each scene (all
        unless --scenes) at 64, 512 and 1024 px (or --sizes), each frame
        encoded in a sequence after the one before it, as a clip's are,
        and the two settings chosen by rule: the default (the fastest
        whose files are no larger than libpng 6 adaptive's at every size)
        and the smallest
        """)
    /// With `--png-sweep` only; NAME, NAME:L or NAME:L-M, checked as it is read.
    static let sweepEncoders = OptionSpec("--sweep-encoders", value: "E,…", help: """
        with --png-sweep: only these encoders, each at every level or at
        NAME:L or NAME:L-M (libpng 6 adaptive, the size reference, is
        always encoded)
        """)
    /// With `--png-sweep` only.
    static let sweepFilters = OptionSpec("--sweep-filters", value: "F,…", help: "with --png-sweep: only these row filters")
    /// With `--png-sweep` only.
    static let sheets = OptionSpec("--sheets", help: """
        with --png-sweep: sprite sheets of 24 frames with cells of 64,
        128 and 256 px (or --sizes) on every core, the speed/size
        frontier, and the sheet rule: the fastest within 10 % of the
        smallest at every cell size
        """)
    /// With `--png-sweep` only.
    static let derive = OptionSpec("--derive", help: """
        with --png-sweep: derive auto's rule (docs/png-encoders.md) from
        every built-in at its defaults and in --sets drawn sets, the
        scene files (--rule-scenes), at 64–2048 px (or --sizes); prints
        the rule as AutomaticRule.current
        """)
    /// With `--derive` only.
    static let deriveFrom = OptionSpec("--derive-from", value: "RUN.json", help: """
        with --derive: derive the rule again from the points a
        --derive --json run kept, measuring nothing
        """)
    /// With `--png-sweep` only.
    static let checkRule = OptionSpec("--check-rule", help: """
        with --png-sweep: auto's rule on --sets drawn sets of every
        built-in (an unseen --seed), against the table by scene name it
        replaced and libpng's defaults
        """)
    /// With `--derive` or `--check-rule` only.
    static let sets = OptionSpec("--sets", value: "N", .integer(0...1000), default: "4",
                                 help: "with --derive or --check-rule: parameter sets drawn per scene (default {default})")
    /// With `--derive` or `--check-rule` only.
    static let seed = OptionSpec("--seed", value: "S", .seed, default: "1",
                                 help: "with --derive or --check-rule: the sampler's seed (default {default})")
    /// With `--derive` only.
    static let ruleScenes = OptionSpec("--rule-scenes", value: "F,…", help: """
        with --derive: the scene files it draws from too (default: every
        examples/scenes/*.scene.json under the working directory)
        """)
    static let json = OptionSpec("--json", value: "FILE", help: "write the full report as JSON")
    static let plot = OptionSpec("--plot", value: "FILE.svg", help: """
        write ns per pixel against pixels per frame (log–log), each
        stage beside its ceiling (dashed)
        """)
    static let overwrite = OptionSpec("--overwrite", help: """
        replace an existing --json or --plot file (default: refuse
        before measuring, exit 73)
        """)
    static let baseline = OptionSpec("--baseline", value: "OLD.json", help: """
        compare each figure with a run saved by --json: its change and
        a verdict (faster / slower / within noise) from the spread of
        both runs' repeats
        """)
    static let allowDebug = OptionSpec("--allow-debug", help: "run from a debug build anyway (figures are marked)")

    static let options = [encoderName, level] + [
        scenes, sizes, backends, stages, BackendOptions.device, frames, repeats, warmup, noStartup, pngSweep,
        sweepEncoders, sweepFilters, sheets, derive, deriveFrom, checkRule, sets, seed, ruleScenes, json, plot, overwrite, baseline, allowDebug,
    ]
}
