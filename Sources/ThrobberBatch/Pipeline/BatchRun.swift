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
                case .lottie where unit.frames.lowerBound != 0:
                    // Written once per clip, by the unit that holds its frame 0.
                    continue
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
                // With `overwrite` the file is replaced like any output.
                guard overwrite else {
                    var refusal = ThrobberError("\(ThrobberError.shownPath(manifestPath)) exists and is not a Throbber manifest (\(error.message)); "
                                                + "nothing was changed: move it", kind: .cannotCreate)
                    refusal.remedy = .moveOrReplaceManifest
                    throw refusal
                }
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
        // Exported now, before anything is written (not even a directory): a scene the exporter
        // refuses stops the run having cost nothing.
        lottieFiles = try exportLottieOutputs()
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
    var earlierArtifacts: [String: String] = [:]
    /// The bytes of every Lottie output this shard writes (path → file), exported by `preflight`.
    var lottieFiles: [String: Data] = [:]
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
        /// What `auto` wrote each clip's PNG frames with, and why (``PNGChoice``), by clip label;
        /// empty when no PNG output was `auto`.
        public var pngChoices: [(clip: String, choice: PNGChoice)] = []
        /// Files `skipExisting` found but did not keep (they were not this run's), rendered again
        /// and replaced, with why.
        public var replaced: [(file: String, why: String)] = []
        /// Temporary files of earlier runs removed before this one began (`Leftovers`).
        public var leftoversRemoved: [String] = []
        /// What the ordered outputs came to, a line each (a sheet's pages, sizes and texture memory).
        public var outputNotes: [String] = []
    }
}
