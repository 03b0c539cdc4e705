import Foundation
import Throbber
import ThrobberBatch
import ThrobberRender
import ThrobberPNG
import ThrobberDigest

/// `throbber batch`: every render of a job file, on the usable cores, optionally one shard of many.
enum BatchCommand: Subcommand {
    static var help: String { """
        USAGE: throbber batch JOB.json [options]

        Renders every clip of a job file (see examples/): scenes with parameters at one or more
        scales, written as PNG sequences, sprite sheets (PNG or WebP pages, trimmed and aliased
        if asked) with TexturePacker JSON atlases, raw RGBA or Y4M streams, or GIF/WebP/APNG/
        MP4/WebM through ffmpeg, each at its own frame rate if asked, and as Lottie (.json) or
        dotLottie (.lottie) exported from the scene, once per render. The whole file is checked
        before the first frame. One thread renders; encoding and writing run on the CPUs this process may
        use (see --threads). Every file is written unnamed (or under a temporary name) and linked
        into place when whole. A manifest records every frame's file and the SHA-256 of its
        pixels; `throbber verify` checks shards together.

        OPTIONS:
        \(OptionSpec.helpTable([shard, shards, shardMode, skipExisting, overwrite, backend, BackendOptions.device, base, manifest, threads,
                                 progress, OptionSpec.quiet, OptionSpec.helpFlag]))

        Before anything is written, every output path (frames, sheets and atlases, streams,
        videos, Lottie files, the manifest) is resolved and refused if two are one file or one is the job file
        (exit 65; 64 when --manifest is one of them). While it writes, the run holds a lock,
        MANIFEST.lock beside the manifest: a second run of the same job and shard is refused
        (exit 73) instead of interleaving frames.

        Stopped by SIGINT or SIGTERM, it finishes the frames in flight, leaves no partial file and
        exits 130; rerun with --skip-existing to complete the job. Stopped while planning, it
        exits 130 at once, having written nothing.
        """ }

    /// Checked by `ShardPlan.parse`.
    static let shard = OptionSpec("--shard", value: "K/N", help: "render shard K (0-based) of N")
    static let shards = OptionSpec("--shards", value: "N", .integer(1...1_000_000), help: """
        the shard count, the index K from the environment:
        SLURM_ARRAY_TASK_ID (a 0-based array, --array=0-<N-1>) or
        JOB_COMPLETION_INDEX (Kubernetes Indexed Job); N is never taken
        from the array, so a resubmitted task K renders shard K again
        """)
    static let shardMode = OptionSpec("--shard-mode", value: "M", .choice(ShardPlan.Mode.allCases.map(\.rawValue)), default: "contiguous",
                                      help: "{default} (default: each shard a run of frames) or strided")
    static let skipExisting = OptionSpec("--skip-existing", help: "keep frames and files that exist (resume an interrupted run)")
    static let overwrite = OptionSpec("--overwrite", help: "replace existing files (default: refuse before rendering)")
    /// Its default is the job's backend, else auto.
    static let backend = BackendOptions.backend.with(help: BackendOptions.backend.help.replacingOccurrences(
        of: "(default {default})", with: "(default: the job's, else auto)"), default: .some(nil))
    static let base = OptionSpec("--base", value: "DIR",
                                 help: "resolve relative output paths against DIR (default: the job file's directory)")
    static let manifest = OptionSpec("--manifest", value: "FILE", help: """
        where the manifest goes (default: beside the job file,
        JOB.manifest.json or JOB.shard-K-of-N.manifest.json)
        """)
    /// Its default, the CPUs this process may use, is worked out as it is read.
    static let threads = OptionSpec("--threads", value: "N", .integer(threadRange), help: """
        encoding threads, {min} to {max} (default: the CPUs this process
        may use, after its affinity mask and cgroup quota; see info)
        """)
    static let progress = OptionSpec("--progress", help: "print progress even when stderr is not a terminal")

    static let options = [
        shard, shards, shardMode, skipExisting, overwrite, backend, BackendOptions.device, base, manifest, threads, progress, OptionSpec.quiet,
    ]

    static func execute(_ arguments: ParsedArguments) throws {
        guard arguments.positionals.count == 1, let jobPath = arguments.positionals.first else {
            throw ThrobberError("batch takes one job file; see throbber batch --help", kind: .usage)
        }
        Interrupts.shared.doing("batch planning")
        let overwrite = arguments.has(Self.overwrite)
        let skipExisting = arguments.has(Self.skipExisting)
        if overwrite && skipExisting {
            throw ThrobberError("--overwrite and --skip-existing exclude each other", kind: .usage)
        }
        let mode = ShardPlan.Mode(rawValue: try arguments.choice(Self.shardMode))!
        let shardsOption = try arguments.integerIfGiven(Self.shards)
        var shard = ShardPlan.whole
        if let text = arguments.value(Self.shard) {
            shard = try ShardPlan.parse(text, mode: mode, field: Self.shard.canonical)
        } else if let fromEnvironment = try ShardPlan.fromEnvironment(ProcessInfo.processInfo.environment, shards: shardsOption, mode: mode,
                                                                      countField: shards.canonical) {
            shard = fromEnvironment
        } else if shardsOption != nil {
            throw ThrobberError("--shards needs a shard index: --shard K/N, or SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX in the environment",
                                kind: .usage)
        }
        let threads = try arguments.integer(Self.threads, default: UsableCPUs.current.usable)
        let job = try Job.load(path: jobPath, baseDirectory: arguments.value(Self.base))
        let (backend, device) = try BackendOptions.parse(arguments, default: job.backend?.rawValue ?? "auto")
        let manifestPath = arguments.value(Self.manifest) ?? defaultManifest(jobPath, shard)
        let quiet = arguments.has(OptionSpec.quiet)
        if !quiet {
            // Before rendering: a loop that changes a part's speed more than the default bound is
            // worth knowing before minutes of frames, not only in the summary.
            for clip in job.clips {
                if let note = clip.loop?.closestNote { FileHandle.standardError.write(Data("batch: note: \(clip.label): \(note)\n".utf8)) }
            }
        }
        let line = ProgressLine(total: shard.runs(of: job).reduce(0) { $0 + $1.frames.count }, forced: arguments.has(Self.progress), quiet: quiet)
        let run = BatchRun(job: job, shard: shard, backend: backend, device: device, overwrite: overwrite,
                           skipExisting: skipExisting, threads: threads, manifestPath: manifestPath,
                           manifestSource: arguments.value(Self.manifest) == nil ? .job : .commandLine,
                           cancellation: Interrupts.shared, progress: { line.advance($0) })
        let summary: BatchRun.Summary
        do {
            summary = try run.execute()
            line.finish()
        } catch {
            line.finish()
            throw error
        }
        // Said even with -q: a file replaced on a resume is a file the user had.
        resumeNotes(summary)
        if !quiet { report(summary, shard: shard, manifestPath: manifestPath) }
    }

    /// What `--skip-existing` found that was not this run's and replaced, and the temporary files
    /// of earlier runs removed: a line each, the first 20 of each kind.
    static func resumeNotes(_ summary: BatchRun.Summary) {
        var lines = summary.replaced.prefix(20).map { "batch: replaced \(ThrobberError.shownPath($0.file)): \($0.why)" }
        if summary.replaced.count > 20 { lines.append("batch: … and \(summary.replaced.count - 20) more files replaced") }
        lines += summary.leftoversRemoved.prefix(20).map { "batch: removed \(ThrobberError.shownPath($0)), left by an earlier run that was killed" }
        if summary.leftoversRemoved.count > 20 { lines.append("batch: … and \(summary.leftoversRemoved.count - 20) more such files removed") }
        for line in lines { FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }

    /// The run's summary on stderr: frames, rate, renderer, manifest, each looping clip's retiming,
    /// what each ordered output plays at (and an MP4's even size), and what each sheet came to.
    static func report(_ summary: BatchRun.Summary, shard: ShardPlan, manifestPath: String) {
        let shardText = shard.count > 1 ? ", shard \(shard.index)/\(shard.count)" : ""
        FileHandle.standardError.write(Data(String(
            format: "batch: rendered %d frames, kept %d existing, %d clips%@, in %.2f s (%.1f frames/s, %@); manifest %@\n",
            summary.rendered, summary.skipped, summary.clips.count, shardText, summary.seconds,
            Double(summary.rendered) / max(summary.seconds, 1e-9), summary.rendererDescription, manifestPath).utf8))
        for clip in summary.clips {
            if let loop = clip.loop {
                FileHandle.standardError.write(Data("batch: \(clip.label) loops every \(LoopPlan.shortSeconds(loop.duration)) s (\(loop.frames) frames) from t = \(formatNumber(clip.start)) s: \(loop.changesText)\n".utf8))
            }
            for note in clip.playbackNotes { FileHandle.standardError.write(Data("batch: \(note)\n".utf8)) }
        }
        for note in summary.outputNotes { FileHandle.standardError.write(Data("batch: \(note)\n".utf8)) }
        // What `auto` wrote each clip's PNG frames with and why; a long job's clips, the first 20.
        for (clip, choice) in summary.pngChoices.prefix(20) { FileHandle.standardError.write(Data("batch: \(clip): PNG \(choice)\n".utf8)) }
        if summary.pngChoices.count > 20 {
            let settings = Set(summary.pngChoices.map(\.choice.encoder.setting))
            FileHandle.standardError.write(Data("batch: … and \(summary.pngChoices.count - 20) more clips by auto (settings chosen: \(settings.sorted().joined(separator: ", ")))\n".utf8))
        }
    }

    /// The values `--threads` takes, on `batch` and `render`.
    static let threadRange = 1...1024

    static func defaultManifest(_ jobPath: String, _ shard: ShardPlan) -> String {
        let stem = Job.manifestStem(forJobAt: jobPath)
        return shard.count == 1 ? "\(stem).manifest.json" : "\(stem).shard-\(shard.index)-of-\(shard.count).manifest.json"
    }
}

