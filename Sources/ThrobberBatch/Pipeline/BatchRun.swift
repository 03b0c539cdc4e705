import Foundation
import Synchronization
import Throbber
import ThrobberDigest
import ThrobberPNG
import ThrobberRender

/// One execution of a job's shard: preflight, then the pipeline, then the manifest.
public final class BatchRun {
    public let job: Job
    public let shard: ShardPlan
    public let units: [WorkUnit]
    public let backend: Backend
    public let device: Int?
    public let overwrite: Bool
    public let skipExisting: Bool
    public let threads: Int
    /// Bytes of frame pixels the pipeline may hold at once (`framesInFlight`).
    public let frameBudget: Int
    /// Where the manifest goes; nil for a run that keeps none (`throbber render`), which then
    /// takes no lock either.
    public let manifestPath: String?
    /// Whether the manifest path was typed (`--manifest`) or derived from the job file's name.
    public let manifestSource: OutputClaims.Source
    /// Where the outputs' paths come from.
    public let outputSource: OutputClaims.Source
    /// Polled between frames; once set, the run finishes the frames in flight and throws `.interrupted`.
    public let cancellation: CancellationSource
    /// Called (from any thread) as frames are done, with how many were just done.
    public let progress: (@Sendable (Int) -> Void)?

    /// - Parameters:
    ///   - shard: the part of the job this run renders (`.whole` for all of it).
    ///   - threads: encoding threads (default: the CPUs this process may use, `UsableCPUs`), and
    ///     the CPU renderer's when the run opens its renderer; frames in flight are at most twice as
    ///     many, fewer where `frameBudget` says so.
    ///   - frameBudget: bytes of frame pixels in flight at most (`framesInFlight`).
    ///   - manifestPath: where the run's manifest is written, its lock file beside it; nil for
    ///     neither.
    ///   - manifestSource: whether the caller chose the manifest path or derived it from the job.
    ///   - outputSource: whether the outputs' paths come from a job file (a clash is bad data)
    ///     or straight from the caller (a clash is a usage error).
    public init(job: Job, shard: ShardPlan = .whole, backend: Backend, device: Int? = nil, overwrite: Bool = false,
                skipExisting: Bool = false, threads: Int = UsableCPUs.current.usable, frameBudget: Int = BatchRun.defaultFrameBudget,
                manifestPath: String?, manifestSource: OutputClaims.Source = .job, outputSource: OutputClaims.Source = .job,
                cancellation: CancellationSource = NotCancelled(), progress: (@Sendable (Int) -> Void)? = nil) {
        self.job = job
        self.shard = shard
        units = shard.runs(of: job)
        self.backend = backend
        self.device = device
        self.overwrite = overwrite
        self.skipExisting = skipExisting
        self.threads = threads
        self.frameBudget = frameBudget
        self.manifestPath = manifestPath
        self.manifestSource = manifestSource
        self.outputSource = outputSource
        self.cancellation = cancellation
        self.progress = progress
    }

    /// The lock file of a run: beside its manifest, so that runs of one job and shard exclude
    /// each other while different shards (different manifests) run side by side.
    public var lockPath: String? { manifestPath.map { $0 + ".lock" } }

    /// Checks everything that can fail before the first frame, writing nothing until every check
    /// that can refuse the run has passed: every path the run writes is resolved and claimed
    /// (no two one file, none the job file; a directory, block device or socket refused), ffmpeg
    /// is found; then the directories are made, the run's lock is taken, and existing files are
    /// refused unless `--overwrite` or `--skip-existing`.
    ///
    /// - Returns: the lock, held until the run ends; nil when the manifest goes to a device or
    ///   FIFO (there is no directory of ours to put a lock file in).
    public func preflight() throws -> RunLock? {
        var claims = OutputClaims(jobPath: job.path)
        if job.isFile { try claims.claimInput(job.path, role: "the job file", source: .job) }
        func directory(_ file: String) -> String {
            // Split at the last slash by hand: a URL per frame costs more than the rest of a claim.
            guard let slash = file.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
            return slash == file.startIndex ? "/" : String(file[..<slash])
        }
        var directories = Set<String>()
        func checkLength(_ file: String, _ role: String) throws {
            guard let problem = Job.pathLengthProblem(file) else { return }
            let prefix = outputSource == .job && job.isFile ? "\(ThrobberError.shownPath(job.path)): " : ""
            throw ThrobberError("\(prefix)\(role) \(ThrobberError.shownPath(file)) \(problem)", kind: outputSource == .job ? .badData : .usage)
        }
        for unit in units {
            let clip = job.clips[unit.clip]
            let owner = "\(clip.label)'s"
            let line = "(line \(clip.line))"
            for output in clip.outputs {
                switch output {
                case .png(let pattern, _):
                    let role = "\(owner) PNG frame \(line)"
                    var lastDirectory = ""
                    for k in unit.frames {
                        let file = pattern.path(name: clip.name, scene: clip.scene.model.id, scale: clip.scene.scale, frame: k)
                        let parent = directory(file)
                        if parent != lastDirectory { directories.insert(parent); lastDirectory = parent }
                        try checkLength(file, role)
                        try claims.claimOutput(file, role: role, source: outputSource)
                    }
                case .video:
                    if FFmpegSink.executable == nil {
                        throw ThrobberError("ffmpeg is not on PATH; install it (apt-get install -y ffmpeg) to write \(output.path)",
                                            kind: .backendUnavailable)
                    }
                    fallthrough
                default:
                    // Every page of a sheet and every page's atlas, before anything is written.
                    for file in output.artifactFiles(in: clip) {
                        try checkLength(file.path, "\(owner) \(file.role) output \(line)")
                        directories.insert(directory(file.path))
                        try claims.claimOutput(file.path, role: "\(owner) \(file.role) output \(line)", source: outputSource)
                    }
                }
            }
        }
        // The manifest and the lock are replaced or reused whatever is there: they are the run's
        // own, so they never count as existing outputs.
        let existing = claims.existingFiles
        var lockPath: String?
        if let manifestPath, let path = self.lockPath {
            let manifest = try claims.claimOutput(manifestPath, role: "the manifest", source: manifestSource)
            if manifest != .writtenInto {
                try claims.claimOutput(path, role: "the manifest's lock file", source: manifestSource)
                lockPath = path
            }
            directories.insert(directory(manifestPath))
        }
        // The manifest is the run's own only when it is one: a file of another kind at its path
        // is refused (73) unless --overwrite, never replaced. One of this job is kept in mind:
        // its hashes tell --skip-existing which streams and videos are this run's.
        earlierArtifacts = [:]
        if let manifestPath, (try? AtomicFile.existing(at: manifestPath)) == .file {
            do {
                let earlier = try Manifest.load(path: manifestPath)
                if earlier.jobDigest == job.digest {
                    earlierArtifacts = Dictionary(earlier.artifacts.map { ($0.file, $0.sha256) }, uniquingKeysWith: { first, _ in first })
                }
            } catch let error as ThrobberError {
                // With --overwrite the file is replaced like any output.
                guard overwrite else { throw ThrobberError("\(ThrobberError.shownPath(manifestPath)) exists and is not a Throbber manifest (\(error.message)); "
                                    + "nothing was changed: move it, give --manifest another path, or pass --overwrite to replace it",
                                    kind: .cannotCreate) }
            }
        }
        // A resume replaces only files of Throbber's: a symbolic link at an output path that does
        // not lead to a regular file (a directory, nothing) is the user's, and stops the run.
        if skipExisting {
            for path in existing where !AtomicFile.holdsFile(path) {
                throw ThrobberError("output \(ThrobberError.shownPath(path)) is a symbolic link to something that is not a file; "
                                    + "a resume never replaces it: move it and rerun", kind: .badData)
            }
        }
        for directory in directories.sorted() { try AtomicFile.prepareDirectory(URL(fileURLWithPath: directory)) }
        let lock = try lockPath.map { try RunLock(path: $0) }
        // With the lock held no other run of this job writes here: what an earlier run left under
        // a temporary name of one of these outputs (a run killed outright) is removed now.
        // The outputs' names are worked out only if a directory holds such a file (rarely): a
        // sequence's every path was already made once above.
        var names: [String: Set<String>]?
        leftoversRemoved = Leftovers.remove(in: directories) { directory, name in
            if names == nil { names = outputNames() }
            return names![directory, default: []].contains(name)
        }
        if !existing.isEmpty && !overwrite && !skipExisting {
            throw ThrobberError(existing.count == 1 ? "output file \(existing[0]) exists"
                                    : "\(existing.count) output files exist (first: \(existing[0]))",
                                kind: .cannotCreate, remedy: .overwriteOrKeep)
        }
        return lock
    }

    /// The artifacts (file → SHA-256) the job's earlier manifest lists, read by `preflight`.
    private var earlierArtifacts: [String: String] = [:]
    /// Temporary files of earlier runs that `preflight` removed.
    public private(set) var leftoversRemoved: [String] = []

    /// The file names (last path components) of every output of this shard, by directory.
    private func outputNames() -> [String: Set<String>] {
        var names: [String: Set<String>] = [:]
        func add(_ path: String) {
            guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { names[".", default: []].insert(path); return }
            let directory = slash == path.startIndex ? "/" : String(path[..<slash])
            names[directory, default: []].insert(String(path[path.index(after: slash)...]))
        }
        for unit in units {
            let clip = job.clips[unit.clip]
            for output in clip.outputs {
                if case .png(let pattern, _) = output {
                    for k in unit.frames { add(pattern.path(name: clip.name, scene: clip.scene.model.id, scale: clip.scene.scale, frame: k)) }
                } else {
                    output.artifactFiles(in: clip).forEach { add($0.path) }
                }
            }
        }
        if let manifestPath { add(manifestPath) }
        return names
    }

    /// A test hook (THROBBER_TEST_PLANNING_PAUSE=SECONDS): waits at the end of planning, lock
    /// held, so a test can interrupt a batch that is certainly still planning. Not for users.
    func pauseForTests() {
        guard let text = ProcessInfo.processInfo.environment["THROBBER_TEST_PLANNING_PAUSE"], let seconds = Double(text) else { return }
        FileHandle.standardError.write(Data("batch: planning paused for \(text) s (THROBBER_TEST_PLANNING_PAUSE test hook)\n".utf8))
        Thread.sleep(forTimeInterval: seconds)
    }

    /// What a finished run did, for the caller's summary line.
    public struct Summary: Sendable {
        /// Frames rendered, and frames kept because their files existed (`skipExisting`).
        public var rendered: Int, skipped: Int
        /// The clips the shard touched.
        public var clips: [Clip]
        public var seconds: Double
        public var rendererDescription: String
        /// Rows of the PNG frames written, and how many of them were compressed: the rest were
        /// taken from a frame of the same clip encoded before (``PNGSequence``).
        public var pngRows: (compressed: Int, total: Int) = (0, 0)
        /// Files `skipExisting` found but did not keep (they were not this run's), rendered again
        /// and replaced, with why.
        public var replaced: [(file: String, why: String)] = []
        /// Temporary files of earlier runs removed before this one began (`Leftovers`).
        public var leftoversRemoved: [String] = []
    }

    /// Runs the shard and writes its manifest.
    ///
    /// - Parameter existingRenderer: a renderer of the right backend to reuse (the benchmark's),
    ///   instead of opening one.
    @discardableResult
    public func execute(renderer existingRenderer: FrameRenderer? = nil) throws -> Summary {
        let lock = try preflight()
        defer { lock?.release() }
        pauseForTests()
        let renderer = try existingRenderer ?? FrameRenderer(backend, device: device, cpuThreads: threads)
        for unit in units {
            let clip = job.clips[unit.clip]
            let (width, height) = clip.scene.pixelSize
            do {
                try renderer.checkCanvas(width: width, height: height)
            } catch let error as ThrobberError {
                throw ThrobberError("\(job.path):\(clip.line): \(clip.label): \(error.message)", kind: error.kind)
            }
        }
        let cancellation = self.cancellation
        let progress = self.progress
        // One limit for the whole run, from its largest frames: a clip of small frames after a
        // large one could take more, but only where the budget, not the threads, bounds them.
        let largestFrame = units.map { job.clips[$0.clip].scene.pixelSize }.map { $0.width * $0.height * 4 }.max() ?? 0
        let inFlight = BatchRun.framesInFlight(threads: threads, frameBytes: largestFrame, budget: frameBudget)
        let pool = EncodePool(inFlight: inFlight)
        let records = ManifestRecords()
        let pngRows = Mutex<(compressed: Int, total: Int)>((0, 0))
        let clock = ContinuousClock()
        let began = clock.now
        var rendered = 0
        var skipped = 0
        var replaced: [ResumeRefusal] = []
        let overwrite = self.overwrite
        // A run without a manifest (`throbber render`) records and hashes nothing.
        let keepsManifest = manifestPath != nil

        var loopError: Error?
        var failure: Error?
        // From here a signal is recorded, not acted on: the loop stops between frames and the
        // frames in flight land whole (a second signal abandons them).
        cancellation.finishing("batch") {
        do {
        units: for unit in units {
            let clip = job.clips[unit.clip]
            let (width, height) = clip.scene.pixelSize
            let pngOutputs = clip.outputs.compactMap { output -> (FramePattern, PNGEncoder)? in
                guard case .png(let pattern, let encoder) = output else { return nil }
                // `auto` chooses for this clip's scene and frame size, once.
                return (pattern, encoder.resolved(scene: clip.scene.model.id, width: width, height: height))
            }
            let extra = clip.loop.map { [("Throbber:loop", BatchRun.loopText($0))] } ?? []
            let frameText = FrameText(clip.scene, backend: renderer.backend.rawValue, driver: renderer.driver, extra: extra)
            // Ordered outputs: with --skip-existing an output is kept when its files are the ones
            // this run would write (Resume); anything else is rendered again and replaced.
            var sinkOutputs: [Output] = []
            for output in clip.outputs where output.isOrdered {
                let files = output.artifactFiles(in: clip)
                if skipExisting, let present = files.first(where: { AtomicFile.holdsFile($0.path) }) {
                    if let absent = files.first(where: { !AtomicFile.holdsFile($0.path) }) {
                        // A page or atlas there must still be Throbber's to be replaced.
                        for file in files where AtomicFile.holdsFile(file.path) {
                            do {
                                if file.type == "sheet" { _ = try Resume.ours(file.path) }
                                if file.type == "atlas" { _ = try Resume.oursAtlas(file.path) }
                            } catch let refusal as ResumeRefusal {
                                throw refusal.error
                            }
                        }
                        replaced.append(ResumeRefusal(file: present.path, why: "its output is incomplete (\(absent.path) is missing)"))
                    } else {
                        switch Resume.artifacts(output, clip: clip, extra: extra, earlier: earlierArtifacts) {
                        case .success(let artifacts):
                            records.add(contentsOf: artifacts)
                            continue
                        case .failure(let refusal):
                            if refusal.foreign { throw refusal.error }
                            replaced.append(refusal)
                        }
                    }
                }
                sinkOutputs.append(output)
            }
            // The clip's frames are one sequence: an encoder thread takes the compressed rows a
            // frame shares with the one it encoded before (PNGSequence).
            let sequence = PNGSequence()
            let sinks = try sinkOutputs.map { try makeSink($0, clip: clip, width: width, height: height, text: frameText, cancellation: cancellation) }
            let serial = DispatchQueue(label: "throbber.sink.\(unit.clip)")
            let sinkBox = SinkBox(sinks)
            let frameFiles: @Sendable (Int) -> [(String, PNGEncoder)] = { k in
                pngOutputs.map { ($0.0.path(name: clip.name, scene: clip.scene.model.id, scale: clip.scene.scale, frame: k), $0.1) }
            }
            // --skip-existing: the frame files that are this run's, checked on every core first.
            var keptFrames: [String: Manifest.Frame] = [:]
            if skipExisting && !pngOutputs.isEmpty {
                var candidates: [(k: Int, file: String)] = []
                for k in unit.frames {
                    for (file, _) in frameFiles(k) where AtomicFile.holdsFile(file) { candidates.append((k, file)) }
                }
                let checked = candidates
                let verdicts = ConcurrentResults<Result<Manifest.Frame, ResumeRefusal>>(count: checked.count)
                DispatchQueue.concurrentPerform(iterations: checked.count) { index in
                    let (k, file) = checked[index]
                    verdicts.set(index, Resume.frame(file, clip: clip, frame: k, t: clip.time(k), extra: extra))
                }
                for (candidate, verdict) in zip(candidates, verdicts.values) {
                    switch verdict {
                    case .success(let frame): keptFrames[candidate.file] = frame
                    case .failure(let refusal) where refusal.foreign: throw refusal.error
                    case .failure(let refusal): replaced.append(refusal)
                    }
                }
            }
            let kept = keptFrames
            let missingFiles: @Sendable ([(String, PNGEncoder)]) -> [(String, PNGEncoder)] = { files in
                files.filter { kept[$0.0] == nil }
            }
            // A file found but not kept is replaced: --skip-existing asked for this run's outputs.
            let replaceFound = overwrite || skipExisting
            /// Encodes a rendered frame into each of its missing files and records every file.
            let writeFrame: @Sendable (Int, Image, [(String, PNGEncoder)], [(String, PNGEncoder)]) throws -> Void = { k, image, files, missing in
                let t = clip.time(k)
                let text = frameText.chunks(t: t)
                // Outputs with the same encoder share one encoding, and so one digest.
                var encoded: [PNGEncoder: (data: Data, digest: String)] = [:]
                for (file, encoder) in files {
                    guard missing.contains(where: { $0.0 == file }) else {
                        // Kept as it is (--skip-existing): the manifest records its own bytes.
                        records.add(kept[file]!)
                        continue
                    }
                    let png = try encoded[encoder] ?? {
                        let (data, reused) = try BatchRun.encode(image, encoder: encoder, text: text, sequence: sequence,
                                                                 cancellation: cancellation)
                        pngRows.withLock { $0 = ($0.compressed + image.height - reused, $0.total + image.height) }
                        return (data, keepsManifest ? SHA256.hex(data) : "")
                    }()
                    encoded[encoder] = png
                    try AtomicFile.write(png.data, toPath: file, overwrite: replaceFound)
                    if keepsManifest {
                        records.add(Manifest.Frame(clip: clip.label, frame: k, t: t, file: file, width: image.width,
                                                   height: image.height, sha256: png.digest))
                    }
                }
                progress?(1)
            }
            // Frames whose files all exist and are this run's are recorded as checked; the renderer
            // draws the others and hands each on (`Renderer.render(_:on:)`): a stream's frames
            // in order on this thread, PNG frames wherever the renderer draws best.
            var toRender: [Int] = []
            for k in unit.frames {
                let files = frameFiles(k)
                if sinks.isEmpty && missingFiles(files).isEmpty {
                    for (file, _) in files { records.add(kept[file]!) }
                    progress?(1)
                    skipped += 1
                } else {
                    toRender.append(k)
                }
            }
            let scene = clip.scene, time = clip.time
            let wanted = FrameSequence(
                frames: toRender, drawList: { scene.drawList(at: time($0)) },
                deliver: { k, image in
                    let files = frameFiles(k)
                    try writeFrame(k, image, files, missingFiles(files))
                },
                inOrder: sinks.isEmpty ? nil : { k, image in pool.submit(on: serial) { try sinkBox.add(image, index: k) } })
            let handed = try renderer.render(wanted, on: PipelineExecutor(pool: pool, cancellation: cancellation, threads: threads))
            rendered += handed
            let completed = handed == toRender.count
            if !sinks.isEmpty {
                if completed {
                    pool.submit(on: serial) { records.add(contentsOf: try sinkBox.finish(overwrite: replaceFound)) }
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
        // Work that stopped because the run was asked to (a page compression, a FIFO no one
        // read) is the cancellation itself, reported as such below.
        if let failure, !((failure as? ThrobberError)?.kind == .interrupted && cancellation.cancellationReason != nil) { throw failure }
        if let reason = cancellation.cancellationReason {
            var error = ThrobberError.interrupted(reason, "after \(rendered) rendered frames; nothing partial was left")
            error.remedy = .resumeKeepingExisting
            throw error
        }
        if let manifestPath {
            let manifest = Manifest(job: job, shard: shard, frames: records.frames, artifacts: records.artifacts)
            try AtomicFile.write(try JSONOutput.encoder.encode(manifest), to: URL(fileURLWithPath: manifestPath), overwrite: true)
        }
        return Summary(rendered: rendered, skipped: skipped, clips: Set(units.map(\.clip)).sorted().map { job.clips[$0] },
                       seconds: (clock.now - began).seconds, rendererDescription: renderer.description,
                       pngRows: pngRows.withLock { $0 }, replaced: replaced.map { ($0.file, $0.why) },
                       leftoversRemoved: leftoversRemoved)
    }

    /// Frames of at least this many pixels are encoded, by libpng or libdeflate (one call for
    /// the whole frame), on a thread of their own that a stopping run does not wait for
    /// (``Cancellable``): 2²² px, 2048 × 2048, tens of milliseconds at libdeflate 1 and seconds
    /// at the smallest settings; a smaller frame lands whole well within a second.
    public static let cancellableFramePixels = 1 << 22

    /// Encodes one frame of a clip; a large one through ``Cancellable``, so that a first signal
    /// ends the run within a second whatever encoder is at work (the frame is then not written).
    static func encode(_ image: Image, encoder: PNGEncoder, text: [(String, String)], sequence: PNGSequence,
                       cancellation: CancellationSource) throws -> (Data, Int) {
        // igzip takes a frame's unchanged segments from the one its thread encoded before: it
        // stays on the pool's thread (and compresses in ~128 KiB segments, each quick).
        let segmented = if case .isal = encoder { true } else { false }
        guard image.width * image.height >= cancellableFramePixels, !segmented else {
            return try encoder.encodeCounting(image, text: text, sequence: sequence)
        }
        return try Cancellable.run(cancellation, while: "a \(image.width)×\(image.height) px frame was being compressed") {
            try encoder.encodeCounting(image, text: text, sequence: sequence)
        }
    }

    /// Bytes of frame pixels a run holds at most by default: 256 MiB, 64 frames of 1024 × 1024 px.
    public static let defaultFrameBudget = 256 << 20

    /// How many encode jobs (frames, or groups of small frames drawn one at a time) a run keeps
    /// queued or running: twice the threads, so that none waits for the next frame, unless
    /// `budget` bytes of pixels hold fewer; and at least 2, so that rendering and encoding still
    /// overlap when a single frame is larger than the budget.
    ///
    /// Each frame in flight counts twice: beside it, the renderer keeps memory to draw into (the
    /// frames it recycles when this thread renders; the frame memory of each worker when the
    /// encode jobs draw their own), so the pixels held stay near `budget` whatever the threads.
    ///
    /// - Parameters:
    ///   - threads: the run's encoding threads.
    ///   - frameBytes: bytes of the largest frame (width × height × 4).
    ///   - budget: bytes of pixels in flight at most.
    public static func framesInFlight(threads: Int, frameBytes: Int, budget: Int = defaultFrameBudget) -> Int {
        let fitting = budget / max(1, 2 * frameBytes)
        return max(2, min(2 * max(1, threads), fitting))
    }

    /// The loop as values, for the `Throbber:loop` tEXt chunk: `seconds=4 frames=240
    /// choice=search maxSpeedChange=2%: amplitude cycles=2 speed=+0.00%, frontPhase cycles=4
    /// speed=-1.30%, …` (`no part retimed` when the scene has no periodic part).
    public static func loopText(_ loop: LoopPlan) -> String {
        "seconds=\(formatNumber(loop.duration)) frames=\(loop.frames) choice=\(loop.choice.rawValue)"
            + (loop.maxSpeedChange.map { " maxSpeedChange=\(formatNumber($0))%" } ?? "") + ": \(loop.changesText)"
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

/// Results computed on many threads, one slot each, read once all are set.
final class ConcurrentResults<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Value?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: Value) { lock.withLock { slots[index] = value } }

    /// Every slot; each must have been set.
    var values: [Value] { lock.withLock { slots.map { $0! } } }
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
