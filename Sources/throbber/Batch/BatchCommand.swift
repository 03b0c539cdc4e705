import Foundation
import Throbber
import ThrobberPNG
import ThrobberDigest

/// `throbber batch`: every render of a job file, on every core, optionally one shard of many.
enum BatchCommand: Subcommand {
    static let help = """
        USAGE: throbber batch JOB.json [options]

        Renders every clip of a job file (see examples/): scenes with parameters at one or more
        scales, written as PNG sequences, sprite sheets with a TexturePacker JSON atlas, raw RGBA
        or Y4M streams, or GIF/WebP/APNG/MP4 through ffmpeg. The whole file is checked before the
        first frame. One thread renders; encoding and writing run on every core. Every file is
        written unnamed (or under a temporary name) and linked into place when whole. A manifest
        records every frame's file and the SHA-256 of its pixels; `throbber verify` checks shards
        together.

        OPTIONS:
          --shard K/N            render shard K (0-based) of N; also taken from SLURM_ARRAY_TASK_ID
                                 (− SLURM_ARRAY_TASK_MIN) of SLURM_ARRAY_TASK_COUNT, or from
                                 JOB_COMPLETION_INDEX (Kubernetes Indexed Job) with --shards N
          --shards N             the shard count when the index comes from the environment
          --shard-mode M         contiguous (default: each shard a run of frames) or strided
          --skip-existing        keep frames and files that exist (resume an interrupted run)
          --overwrite            replace existing files (default: refuse before rendering)
        \(BackendOptions.help.replacingOccurrences(of: "(default auto)", with: "(default: the job's, else auto)"))
          --base DIR             resolve relative output paths against DIR (default: the job file's directory)
          --manifest FILE        where the manifest goes (default: beside the job file,
                                 JOB.manifest.json or JOB.shard-K-of-N.manifest.json)
          --threads N            encoding threads (default: every core)
          --progress             print progress even when stderr is not a terminal
          -q, --quiet            print nothing on success
          -h, --help             show this help

        Before anything is written, every output path (frames, sheets and atlases, streams,
        videos, the manifest) is resolved and refused if two are one file or one is the job file
        (exit 65; 64 when --manifest is one of them). While it writes, the run holds a lock,
        MANIFEST.lock beside the manifest: a second run of the same job and shard is refused
        (exit 73) instead of interleaving frames.

        Stopped by SIGINT or SIGTERM, it finishes the frames in flight, leaves no partial file and
        exits 130; rerun with --skip-existing to complete the job. Stopped while planning, it
        exits 130 at once, having written nothing.
        """

    static let options = [
        OptionSpec("--shard"), OptionSpec("--shards"), OptionSpec("--shard-mode"), OptionSpec("--skip-existing", value: false),
        OptionSpec("--overwrite", value: false), OptionSpec("--backend"), OptionSpec("--device"), OptionSpec("--base"), OptionSpec("--manifest"),
        OptionSpec("--threads"), OptionSpec("--progress", value: false), OptionSpec("-q", "--quiet", value: false),
    ]

    static func execute(_ arguments: ParsedArguments) throws {
        guard arguments.positionals.count == 1, let jobPath = arguments.positionals.first else {
            throw ThrobberError("batch takes one job file; see throbber batch --help", exitCode: .usage)
        }
        Interrupts.shared.doing("batch planning")
        let overwrite = arguments.has("--overwrite")
        let skipExisting = arguments.has("--skip-existing")
        if overwrite && skipExisting {
            throw ThrobberError("--overwrite and --skip-existing exclude each other", exitCode: .usage)
        }
        let mode = ShardPlan.Mode(rawValue: try arguments.choice("--shard-mode", default: "contiguous",
                                                                 among: ShardPlan.Mode.allCases.map(\.rawValue)))!
        let shardsOption = try arguments.value("--shards").map { _ in try arguments.integer("--shards", default: 1, range: 1...1_000_000) }
        var shard = ShardPlan.whole
        if let text = arguments.value("--shard") {
            shard = try ShardPlan.parse(text, mode: mode)
        } else if let fromEnvironment = try ShardPlan.fromEnvironment(ProcessInfo.processInfo.environment, shards: shardsOption, mode: mode) {
            shard = fromEnvironment
        } else if shardsOption != nil {
            throw ThrobberError("--shards needs a shard index: --shard K/N, or SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX in the environment",
                                exitCode: .usage)
        }
        let threads = try arguments.integer("--threads", default: ProcessInfo.processInfo.activeProcessorCount, range: 1...1024)
        let job = try Job.load(path: jobPath, baseDirectory: arguments.value("--base"), backends: Backend.allCases.map(\.rawValue))
        let (backend, device) = try BackendOptions.parse(arguments, default: job.backend ?? "auto")
        let manifestPath = arguments.value("--manifest") ?? defaultManifest(jobPath, shard)
        let run = try BatchRun(job: job, shard: shard, backend: backend, device: device, overwrite: overwrite,
                               skipExisting: skipExisting, threads: threads, manifestPath: manifestPath,
                               manifestSource: arguments.value("--manifest") == nil ? .job : .commandLine,
                               progress: arguments.has("--progress"), quiet: arguments.has("--quiet"))
        try run.execute()
    }

    static func defaultManifest(_ jobPath: String, _ shard: ShardPlan) -> String {
        let stem = Job.manifestStem(forJobAt: jobPath)
        return shard.count == 1 ? "\(stem).manifest.json" : "\(stem).shard-\(shard.index)-of-\(shard.count).manifest.json"
    }
}

/// One execution of a job's shard: preflight, then the pipeline, then the manifest.
final class BatchRun {
    let job: Job
    let shard: ShardPlan
    let units: [WorkUnit]
    let backend: Backend
    let device: Int?
    let overwrite: Bool
    let skipExisting: Bool
    let threads: Int
    let manifestPath: String
    /// Whether the manifest path was typed (`--manifest`) or derived from the job file's name.
    let manifestSource: OutputClaims.Source
    let progressForced: Bool
    let quiet: Bool

    init(job: Job, shard: ShardPlan, backend: Backend, device: Int? = nil, overwrite: Bool, skipExisting: Bool, threads: Int,
         manifestPath: String, manifestSource: OutputClaims.Source = .job, progress: Bool, quiet: Bool) throws {
        self.job = job
        self.shard = shard
        units = shard.runs(of: job)
        self.backend = backend
        self.device = device
        self.overwrite = overwrite
        self.skipExisting = skipExisting
        self.threads = threads
        self.manifestPath = manifestPath
        self.manifestSource = manifestSource
        progressForced = progress
        self.quiet = quiet
    }

    /// The lock file of a run: beside its manifest, so that runs of one job and shard exclude
    /// each other while different shards (different manifests) run side by side.
    var lockPath: String { manifestPath + ".lock" }

    /// Checks everything that can fail before the first frame, writing nothing until every check
    /// that can refuse the run has passed: every path the run writes is resolved and claimed
    /// (no two one file, none the job file; a directory, block device or socket refused), ffmpeg
    /// is found; then the directories are made, the run's lock is taken, and existing files are
    /// refused unless `--overwrite` or `--skip-existing`.
    ///
    /// - Returns: the lock, held until the run ends; nil when the manifest goes to a device or
    ///   FIFO (there is no directory of ours to put a lock file in).
    func preflight() throws -> RunLock? {
        var claims = OutputClaims(jobPath: job.path)
        try claims.claimInput(job.path, role: "the job file", source: .job)
        func directory(_ file: String) -> String { URL(fileURLWithPath: file).deletingLastPathComponent().path }
        var directories = Set<String>()
        for unit in units {
            let clip = job.clips[unit.clip]
            let owner = "\(clip.label)'s"
            let line = "(line \(clip.line))"
            for output in clip.outputs {
                switch output {
                case .png(let pattern, _, _):
                    let role = "\(owner) PNG frame \(line)"
                    var lastDirectory = ""
                    for k in unit.frames {
                        let file = pattern.path(name: clip.name, scene: clip.scene.model.id, scale: clip.scene.scale, frame: k)
                        let parent = directory(file)
                        if parent != lastDirectory { directories.insert(parent); lastDirectory = parent }
                        try claims.claimOutput(file, role: role, source: .job)
                    }
                case .video:
                    if FFmpegSink.executable == nil {
                        throw ThrobberError("ffmpeg is not on PATH; install it (apt-get install -y ffmpeg) to write \(output.path)",
                                            exitCode: .backendUnavailable)
                    }
                    fallthrough
                default:
                    for (index, file) in output.artifactFiles.enumerated() {
                        directories.insert(directory(file))
                        // By position, not by name: a sheet whose atlas has its own name is the case to name.
                        let kind = if case .sheet = output { index == 0 ? "sheet" : "sheet atlas (json)" } else { output.artifactType(file) }
                        try claims.claimOutput(file, role: "\(owner) \(kind) output \(line)", source: .job)
                    }
                }
            }
        }
        // The manifest and the lock are replaced or reused whatever is there: they are the run's
        // own, so they never count as existing outputs.
        let existing = claims.existingFiles
        let manifest = try claims.claimOutput(manifestPath, role: "the manifest", source: manifestSource)
        if manifest != .writtenInto {
            try claims.claimOutput(lockPath, role: "the manifest's lock file", source: manifestSource)
        }
        directories.insert(directory(manifestPath))
        for directory in directories.sorted() { try AtomicFile.prepareDirectory(URL(fileURLWithPath: directory)) }
        let lock = manifest == .writtenInto ? nil : try RunLock(path: lockPath)
        if !existing.isEmpty && !overwrite && !skipExisting {
            throw ThrobberError("\(existing.count) output file\(existing.count == 1 ? "" : "s") exist (first: \(existing[0])); "
                                + "pass --overwrite to replace them or --skip-existing to keep them", exitCode: .cannotCreate)
        }
        return lock
    }

    /// A test hook (THROBBER_TEST_PLANNING_PAUSE=SECONDS): waits at the end of planning, lock
    /// held, so a test can interrupt a batch that is certainly still planning. Not for users.
    func pauseForTests() {
        guard let text = ProcessInfo.processInfo.environment["THROBBER_TEST_PLANNING_PAUSE"], let seconds = Double(text) else { return }
        FileHandle.standardError.write(Data("batch: planning paused for \(text) s (THROBBER_TEST_PLANNING_PAUSE test hook)\n".utf8))
        Thread.sleep(forTimeInterval: seconds)
    }

    /// Runs the shard.
    ///
    /// - Parameter existingRenderer: a renderer of the right backend to reuse (the benchmark's),
    ///   instead of opening one.
    func execute(renderer existingRenderer: FrameRenderer? = nil) throws {
        let lock = try preflight()
        defer { lock?.release() }
        pauseForTests()
        let renderer = try existingRenderer ?? FrameRenderer(backend, device: device, shaderDirectory: nil)
        for unit in units {
            let clip = job.clips[unit.clip]
            let (width, height) = clip.scene.pixelSize
            guard width <= renderer.maxCanvasSide, height <= renderer.maxCanvasSide else {
                throw ThrobberError("\(job.path):\(clip.line): \(clip.label) is \(width)×\(height) px; \(renderer.description) renders at most \(renderer.maxCanvasSide) px a side",
                                    exitCode: .usage)
            }
        }
        let interrupts = Interrupts.shared
        let outerActivity = interrupts.doing("batch")
        defer { interrupts.doing(outerActivity) }
        let total = units.reduce(0) { $0 + $1.frames.count }
        let progress = ProgressLine(total: total, forced: progressForced, quiet: quiet)
        let pool = EncodePool(inFlight: 2 * threads)
        let renderThreads = BatchRun.renderThreads(encoders: threads)
        // The CPU renderer draws each frame into the memory of the oldest it kept: keep more than
        // can be in flight (the pool's, the one this loop holds, the one being rendered), so that
        // one has been let go of and is written in place, not copied first.
        renderer.cpuRenderer?.keptFrames = 2 * threads + 4
        let records = ManifestRecords()
        let clock = ContinuousClock()
        let began = clock.now
        var rendered = 0
        var skipped = 0
        let overwrite = self.overwrite

        var loopError: Error?
        var failure: Error?
        // From here a signal is recorded, not acted on: the loop stops between frames and the
        // frames in flight land whole (a second signal abandons them).
        interrupts.whileFinishing {
        do {
        units: for unit in units {
            let clip = job.clips[unit.clip]
            let (width, height) = clip.scene.pixelSize
            // The job file checked each encoder's name and level; PNGEncoder checks them again.
            let pngOutputs = try clip.outputs.compactMap { output -> (FramePattern, PNGEncoder)? in
                guard case .png(let pattern, let encoder, let level) = output else { return nil }
                return (pattern, try PNGEncoder(resolved: encoder, level: level, nameField: "pngEncoder", levelField: "level"))
            }
            // Ordered outputs: with --skip-existing an output whose files all exist is kept as it is.
            var sinkOutputs: [Output] = []
            for output in clip.outputs where output.isOrdered {
                let files = output.artifactFiles
                if skipExisting && !files.isEmpty && files.allSatisfy(AtomicFile.holdsFile) {
                    pool.submit {
                        for file in files {
                            guard let data = FileManager.default.contents(atPath: file) else {
                                throw ThrobberError("cannot read \(file)", exitCode: .noInput)
                            }
                            records.add(Manifest.Artifact(clip: clip.label, type: output.artifactType(file), file: file,
                                                          sha256: PixelDigest.sha256Hex(data)))
                        }
                    }
                } else {
                    sinkOutputs.append(output)
                }
            }
            let sinks = try sinkOutputs.map { try makeSink($0, clip: clip, width: width, height: height) }
            let serial = DispatchQueue(label: "throbber.sink.\(unit.clip)")
            let sinkBox = SinkBox(sinks)
            var completed = true
            func frameFiles(_ k: Int) -> [(String, PNGEncoder)] {
                pngOutputs.map { ($0.0.path(name: clip.name, scene: clip.scene.model.id, scale: clip.scene.scale, frame: k), $0.1) }
            }
            func missingFiles(_ files: [(String, PNGEncoder)]) -> [(String, PNGEncoder)] {
                files.filter { !(skipExisting && AtomicFile.holdsFile($0.0)) }
            }
            let frameText = FrameText(clip.scene, extra: clip.loop.map { [("Throbber:loop", BatchRun.loopText($0))] } ?? [])
            /// Encodes a rendered frame into each of its missing files and records every file.
            let writeFrame: @Sendable (Int, Image, [(String, PNGEncoder)], [(String, PNGEncoder)]) throws -> Void = { k, image, files, missing in
                let t = clip.time(k)
                let text = frameText.chunks(t: t)
                // Outputs with the same encoder share one encoding, and so one digest.
                var encoded: [PNGEncoder: (data: Data, digest: String)] = [:]
                for (file, encoder) in files {
                    guard missing.contains(where: { $0.0 == file }) else {
                        // Kept as it is (--skip-existing): the manifest records its own bytes.
                        records.add(try BatchRun.existingFrame(file, clip: clip, frame: k, t: t))
                        continue
                    }
                    let png = try encoded[encoder] ?? {
                        let data = try encoder.encode(image, text: text)
                        return (data, PixelDigest.sha256Hex(data))
                    }()
                    encoded[encoder] = png
                    try AtomicFile.write(png.data, toPath: file, overwrite: overwrite)
                    records.add(Manifest.Frame(clip: clip.label, frame: k, t: t, file: file, width: image.width,
                                               height: image.height, sha256: png.digest))
                }
                progress.advance()
            }
            // With the CPU renderer and PNG outputs only, each encode job draws its own frames
            // (small frames in groups), on every core; otherwise this thread renders in order.
            let workers = sinks.isEmpty ? renderer.frameWorkers() : nil
            let perJob = RenderCommand.framesPerJob(width: width, height: height)
            var group: [(k: Int, files: [(String, PNGEncoder)], missing: [(String, PNGEncoder)])] = []
            func submitGroup() {
                guard let workers, !group.isEmpty else { return }
                let frames = group
                group = []
                rendered += frames.count
                pool.submit {
                    try workers.renderEach(frames, drawList: { clip.scene.drawList(at: clip.time($0.k)) }) { frame, image in
                        try writeFrame(frame.k, image, frame.files, frame.missing)
                    }
                }
            }
            // Frames rendered ahead: a GL backend renders a stack of frames with one draw.
            let framesPerCall = renderer.framesPerCall(width: width, height: height)
            var ahead: [Int: Image] = [:]
            for k in unit.frames {
                if interrupts.signal != nil || pool.error != nil {
                    completed = false
                    break
                }
                let t = clip.time(k)
                let files = frameFiles(k)
                let missing = missingFiles(files)
                if missing.isEmpty && sinks.isEmpty {
                    // Everything of this frame exists: hash what is there for the manifest.
                    pool.submit {
                        for (file, _) in files { records.add(try BatchRun.existingFrame(file, clip: clip, frame: k, t: t)) }
                        progress.advance()
                    }
                    skipped += 1
                    continue
                }
                if workers != nil {
                    group.append((k, files, missing))
                    if group.count >= perJob { submitGroup() }
                    continue
                }
                rendered += 1
                if ahead[k] == nil {
                    let next = unit.frames[k...].lazy.filter { !sinks.isEmpty || !missingFiles(frameFiles($0)).isEmpty }.prefix(framesPerCall)
                    let images = try renderer.render(next.map { clip.scene.drawList(at: clip.time($0)) }, cpuThreads: renderThreads)
                    ahead = Dictionary(uniqueKeysWithValues: zip(next, images))
                }
                let image = ahead.removeValue(forKey: k)!
                pool.submit { try writeFrame(k, image, files, missing) }
                if !sinks.isEmpty {
                    pool.submit(on: serial) { try sinkBox.add(image, index: k) }
                }
            }
            if completed { submitGroup() }
            if !sinks.isEmpty {
                if completed {
                    pool.submit(on: serial) { records.add(contentsOf: try sinkBox.finish(overwrite: overwrite)) }
                }
                // Runs last on the clip's queue; after a failure or an interruption it removes
                // the temporary files, after success it does nothing.
                pool.submit(on: serial, always: true) { sinkBox.abortUnfinished() }
            }
            if !completed { break units }
        }
        } catch {
            // Let the frames in flight land (whole) before reporting.
            loopError = error
        }
        failure = loopError
        do {
            try pool.finish()
        } catch {
            failure = failure ?? error
        }
        }
        progress.finish()
        if let failure { throw failure }
        if let signal = interrupts.signal {
            throw ThrobberError.interrupted(signal, "after \(rendered) rendered frames; nothing partial was left. "
                                            + "Rerun with --skip-existing to finish the job")
        }
        let manifest = Manifest(job: job, shard: shard, frames: records.frames, artifacts: records.artifacts)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(try encoder.encode(manifest), to: URL(fileURLWithPath: manifestPath), overwrite: true)
        if !quiet {
            let seconds = (clock.now - began).seconds
            let shardText = shard.count > 1 ? ", shard \(shard.index)/\(shard.count)" : ""
            FileHandle.standardError.write(Data(String(
                format: "batch: rendered %d frames, kept %d existing, %d clips%@, in %.2f s (%.1f frames/s, %@); manifest %@\n",
                rendered, skipped, Set(units.map(\.clip)).count, shardText, seconds, Double(rendered) / max(seconds, 1e-9),
                renderer.description, manifestPath).utf8))
            for clip in Set(units.map(\.clip)).sorted().map({ job.clips[$0] }) {
                if let loop = clip.loop {
                    FileHandle.standardError.write(Data("batch: \(clip.label) loops every \(formatNumber(loop.duration)) s (\(loop.frames) frames) from t = \(formatNumber(clip.start)) s: \(BatchRun.loopText(loop))\n".utf8))
                }
            }
        }
    }

    /// How many threads the CPU renderer gets in the pipeline when this thread renders (a clip
    /// with sheets, streams or videos, which take frames in order; PNG-only clips are drawn
    /// inside the encode jobs instead), where the encoders already keep every core busy: what
    /// matters there is the CPU time a frame costs, and one thread spends less of it than
    /// several (no hand-offs between them). One render thread keeps up with
    /// about sixteen encoders (a frame renders in ~6 % of its encoding time at 512×512, level 7),
    /// so a thread is added per eight encoding threads.
    static func renderThreads(encoders: Int) -> Int {
        return max(1, encoders / 8)
    }

    /// The manifest entry of a frame file that is kept: its own bytes' SHA-256, once it has
    /// decoded as a PNG (a damaged file is not recorded as a frame).
    ///
    /// - Throws: a data error when the file is not a readable PNG (it must be deleted, not kept).
    static func existingFrame(_ file: String, clip: Clip, frame: Int, t: Double) throws -> Manifest.Frame {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw ThrobberError("cannot read \(file)", exitCode: .noInput)
        }
        let image: Image
        do {
            image = try PNGCodec.decode(data)
        } catch let error as ThrobberError {
            throw ThrobberError("\(file) exists but is not a readable PNG (\(error.message)); delete it and rerun", exitCode: .dataError)
        }
        return Manifest.Frame(clip: clip.label, frame: frame, t: t, file: file, width: image.width, height: image.height,
                              sha256: PixelDigest.sha256Hex(data))
    }

    /// "frontPhase 2 cycles (−1.3 %), …".
    static func loopText(_ loop: LoopPlan) -> String {
        loop.changes.map { String(format: "%@ %d cycle%@ (%+.2f%% speed)", $0.part, $0.cycles, $0.cycles == 1 ? "" : "s", $0.speedChangePercent) }
            .joined(separator: ", ")
    }
}

extension Output {
    /// The manifest's type for one of this output's files.
    func artifactType(_ file: String) -> String {
        switch self {
        case .png: return "png"
        case .sheet(_, let json, _, _, _): return file == json ? "atlas" : "sheet"
        case .rgba: return "rgba"
        case .y4m: return "y4m"
        case .video(let path): return URL(fileURLWithPath: path).pathExtension.lowercased()
        }
    }
}

/// The ordered sinks of one clip, used only from the clip's serial queue.
final class SinkBox: @unchecked Sendable {
    private let sinks: [OrderedSink]
    private var finished = false

    init(_ sinks: [OrderedSink]) { self.sinks = sinks }

    func add(_ image: Image, index: Int) throws {
        for sink in sinks { try sink.add(image, index: index) }
    }

    func finish(overwrite: Bool) throws -> [Manifest.Artifact] {
        var artifacts: [Manifest.Artifact] = []
        for sink in sinks { artifacts += try sink.finish(overwrite: overwrite) }
        finished = true
        return artifacts
    }

    func abortUnfinished() {
        if !finished { sinks.forEach { $0.abort() } }
    }
}

/// The manifest's entries, gathered from the encoding threads.
final class ManifestRecords: @unchecked Sendable {
    private let lock = NSLock()
    private var frameList: [Manifest.Frame] = []
    private var artifactList: [Manifest.Artifact] = []

    func add(_ frame: Manifest.Frame) {
        lock.lock()
        frameList.append(frame)
        lock.unlock()
    }

    func add(_ artifact: Manifest.Artifact) { add(contentsOf: [artifact]) }

    func add(contentsOf artifacts: [Manifest.Artifact]) {
        lock.lock()
        artifactList += artifacts
        lock.unlock()
    }

    var frames: [Manifest.Frame] {
        lock.lock()
        defer { lock.unlock() }
        return frameList.sorted { ($0.file) < ($1.file) }
    }

    var artifacts: [Manifest.Artifact] {
        lock.lock()
        defer { lock.unlock() }
        return artifactList.sorted { $0.file < $1.file }
    }
}
