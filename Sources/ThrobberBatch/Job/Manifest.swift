import Throbber
import ThrobberDigest
/// What one batch run (one shard) wrote: every file, frames and other artifacts alike, with the
/// SHA-256 of its bytes (what `sha256sum -c` checks). `throbber verify` checks that the
/// manifests of all shards together cover the job and that every file is intact.
public struct Manifest: Codable, Sendable {
    public struct Frame: Codable, Sendable {
        public var clip: String
        public var frame: Int
        public var t: Double
        public var file: String
        public var width: Int
        public var height: Int
        /// SHA-256 of the file's bytes, as `sha256sum` prints it. Hashing the file costs a
        /// thirtieth of hashing its pixels at 512 px and catches every change to them, and to
        /// the metadata as well (docs/manifests.md). Every manifest this version writes has it.
        public var sha256: String?
        /// SHA-256 of the decoded RGBA8 pixels, which manifests of earlier versions recorded
        /// instead; `verify` checks it when it is all a manifest has.
        public var pixelsSHA256: String?

        public init(clip: String, frame: Int, t: Double, file: String, width: Int, height: Int, sha256: String?,
                    pixelsSHA256: String? = nil) {
            self.clip = clip
            self.frame = frame
            self.t = t
            self.file = file
            self.width = width
            self.height = height
            self.sha256 = sha256
            self.pixelsSHA256 = pixelsSHA256
        }
    }

    public struct Artifact: Codable, Sendable {
        public var clip: String
        public var type: String
        public var file: String
        public var sha256: String

        public init(clip: String, type: String, file: String, sha256: String) {
            self.clip = clip
            self.type = type
            self.file = file
            self.sha256 = sha256
        }
    }

    /// A looping clip's plan: how long the loop is, why, and each part's retiming, as values
    /// (the `Throbber:loop` tEXt chunk carries the same, rounded).
    public struct Loop: Codable, Sendable, Equatable {
        /// One periodic part's retiming.
        public struct Part: Codable, Sendable, Equatable {
            public var part: String
            /// Its period at the original speed, in seconds.
            public var period: Double
            /// Whole cycles in the loop.
            public var cycles: Int
            /// Its period in the loop: seconds / cycles.
            public var loopPeriod: Double
            /// (speed factor − 1) × 100: positive is faster.
            public var speedChangePercent: Double

            public init(part: String, period: Double, cycles: Int, loopPeriod: Double, speedChangePercent: Double) {
                self.part = part
                self.period = period
                self.cycles = cycles
                self.loopPeriod = loopPeriod
                self.speedChangePercent = speedChangePercent
            }
        }

        public var clip: String
        /// The loop's length: frames / fps.
        public var seconds: Double
        public var frames: Int
        /// The time of the loop's first frame.
        public var start: Double
        /// `loopSeconds` (given), `search` (the shortest default loop within the bound) or
        /// `closest` (no default loop met the bound).
        public var choice: String
        /// The bound in percent the length was chosen or checked against, if any.
        public var maxSpeedChange: Double?
        /// Every periodic part, in the scene's order (empty when nothing is retimed).
        public var parts: [Part]

        public init(clip: String, seconds: Double, frames: Int, start: Double, choice: String, maxSpeedChange: Double?, parts: [Part]) {
            self.clip = clip
            self.seconds = seconds
            self.frames = frames
            self.start = start
            self.choice = choice
            self.maxSpeedChange = maxSpeedChange
            self.parts = parts
        }

        /// The loop of `clip`, if it loops.
        public init?(_ clip: Clip) {
            guard let loop = clip.loop else { return nil }
            self.init(clip: clip.label, seconds: loop.duration, frames: loop.frames, start: clip.start, choice: loop.choice.rawValue,
                      maxSpeedChange: loop.maxSpeedChange,
                      parts: loop.changes.map { Part(part: $0.part, period: $0.originalPeriod, cycles: $0.cycles, loopPeriod: $0.newPeriod,
                                                     speedChangePercent: $0.speedChangePercent) })
        }
    }

    public var throbber: String
    public var job: String
    public var jobDigest: String
    public var shardIndex: Int
    public var shardCount: Int
    public var shardMode: String
    /// Frame files the whole job writes (all shards together).
    public var plannedFrames: Int
    /// Other artifacts the whole job writes (all shards together); stdout streams are not counted.
    /// A packed sheet (trimmed or aliased), whose pages are known only once drawn, counts its
    /// fewest: one page and its atlas (and its multi-atlas).
    public var plannedArtifacts: Int
    /// The most artifacts the job may write, when packed sheets make it more than
    /// `plannedArtifacts`; nil otherwise (and in manifests of earlier versions).
    public var plannedArtifactsUpTo: Int?
    public var frames: [Frame]
    public var artifacts: [Artifact]
    /// Every looping clip of the whole job (all shards together); absent when none loops, and in
    /// manifests of earlier versions.
    public var loops: [Loop]?

    public init(job: Job, shard: ShardPlan, frames: [Frame], artifacts: [Artifact]) {
        throbber = throbberVersion
        self.job = job.path
        jobDigest = job.digest
        shardIndex = shard.index
        shardCount = shard.count
        shardMode = shard.mode.rawValue
        plannedFrames = job.clips.reduce(0) { total, clip in
            total + clip.frameCount * clip.outputs.filter { if case .png = $0 { return true } else { return false } }.count
        }
        let counts = job.clips.flatMap { clip in clip.outputs.map { $0.artifactCount(in: clip) } }
        plannedArtifacts = counts.reduce(0) { $0 + $1.lowerBound }
        let most = counts.reduce(0) { $0 + $1.upperBound }
        plannedArtifactsUpTo = most == plannedArtifacts ? nil : most
        self.frames = frames
        self.artifacts = artifacts
        let loops = job.clips.compactMap(Loop.init)
        self.loops = loops.isEmpty ? nil : loops
    }
}

extension Manifest {
    /// The most shards a job may be split into.
    public static let mostShards = 1_000_000
    /// The largest count a manifest may plan (frames or artifacts).
    public static let mostPlanned = 1 << 40

    /// Reads and checks a manifest: every field present, of its type and in its range, named in
    /// our words (`FILE:LINE:COLUMN: invalid shardCount 0: an integer in [1, 1000000]`) rather
    /// than a decoder's internals.
    ///
    /// - Throws: `noInput` when the file cannot be read (with the reason), `dataError` for its
    ///   contents.
    public static func load(path: String) throws -> Manifest {
        let data = try InputFile.read(path, what: "manifest")
        let root: JSONNode
        do {
            root = try JSONNode.parse(String(decoding: data, as: UTF8.self))
        } catch let error as JSONParseError {
            throw ThrobberError("\(ThrobberError.echoed(path, longest: ThrobberError.longestPathEcho)):\(error.line):\(error.column): \(error.message)", kind: .badData)
        }
        let reader = JSONFields(path: ThrobberError.echoed(path, longest: ThrobberError.longestPathEcho))
        func required<T>(_ m: [String: JSONNode.Member], _ key: String, in node: JSONNode, _ read: (JSONNode.Member?) throws -> T?) throws -> T {
            guard let value = try read(m[key]) else { throw reader.fail(node, "a Throbber manifest needs \"\(key)\"") }
            return value
        }
        func array(_ m: [String: JSONNode.Member], _ key: String, in node: JSONNode) throws -> [JSONNode] {
            guard let member = m[key] else { throw reader.fail(node, "a Throbber manifest needs \"\(key)\"") }
            guard case .array(let elements) = member.value.value else {
                throw reader.fail(member.value, "\"\(key)\" must be an array, not \(member.value.typeName)")
            }
            return elements
        }
        let count = 0...mostPlanned
        let side = 1...Scene.maximumPixelSide
        let m = try reader.members(root, "a manifest", known: ["throbber", "job", "jobDigest", "shardIndex", "shardCount", "shardMode",
                                                               "plannedFrames", "plannedArtifacts", "plannedArtifactsUpTo", "frames", "artifacts",
                                                               "loops"])
        let shardCount = try required(m, "shardCount", in: root) { try reader.integer($0, 1...mostShards) }
        let shardIndex = try required(m, "shardIndex", in: root) { try reader.integer($0, 0...(shardCount - 1)) }
        let shardMode = try required(m, "shardMode", in: root, reader.string)
        guard ShardPlan.Mode(rawValue: shardMode) != nil else {
            let modes = ShardPlan.Mode.allCases.map(\.rawValue).joined(separator: " or ")
            throw reader.fail(m["shardMode"]!.value, "invalid shardMode \"\(ThrobberError.echoed(shardMode))\": \(modes)")
        }
        var manifest = Manifest(
            throbber: try required(m, "throbber", in: root, reader.string), job: try required(m, "job", in: root, reader.string),
            jobDigest: try required(m, "jobDigest", in: root, reader.string), shardIndex: shardIndex, shardCount: shardCount,
            shardMode: shardMode, plannedFrames: try required(m, "plannedFrames", in: root) { try reader.integer($0, count) },
            plannedArtifacts: try required(m, "plannedArtifacts", in: root) { try reader.integer($0, count) }, frames: [], artifacts: [])
        manifest.plannedArtifactsUpTo = try reader.integer(m["plannedArtifactsUpTo"], count)
        for node in try array(m, "frames", in: root) {
            let f = try reader.members(node, "a manifest frame", known: ["clip", "frame", "t", "file", "width", "height", "sha256", "pixelsSHA256"])
            let sha256 = try reader.string(f["sha256"])
            let pixelsSHA256 = try reader.string(f["pixelsSHA256"])
            guard sha256 != nil || pixelsSHA256 != nil else {
                throw reader.fail(node, "a Throbber manifest frame needs \"sha256\" (or \"pixelsSHA256\", from earlier versions)")
            }
            manifest.frames.append(Frame(
                clip: try required(f, "clip", in: node, reader.string), frame: try required(f, "frame", in: node) { try reader.integer($0, count) },
                t: try required(f, "t", in: node) { try reader.number($0, .any) }, file: try required(f, "file", in: node, reader.string),
                width: try required(f, "width", in: node) { try reader.integer($0, side) },
                height: try required(f, "height", in: node) { try reader.integer($0, side) },
                sha256: sha256, pixelsSHA256: pixelsSHA256))
        }
        for node in try array(m, "artifacts", in: root) {
            let a = try reader.members(node, "a manifest artifact", known: ["clip", "type", "file", "sha256"])
            manifest.artifacts.append(Artifact(
                clip: try required(a, "clip", in: node, reader.string), type: try required(a, "type", in: node, reader.string),
                file: try required(a, "file", in: node, reader.string), sha256: try required(a, "sha256", in: node, reader.string)))
        }
        if m["loops"] != nil {
            manifest.loops = []
            for node in try array(m, "loops", in: root) {
                let l = try reader.members(node, "a manifest loop", known: ["clip", "seconds", "frames", "start", "choice", "maxSpeedChange", "parts"])
                var parts: [Loop.Part] = []
                for partNode in try array(l, "parts", in: node) {
                    let p = try reader.members(partNode, "a manifest loop part", known: ["part", "period", "cycles", "loopPeriod", "speedChangePercent"])
                    parts.append(Loop.Part(
                        part: try required(p, "part", in: partNode, reader.string),
                        period: try required(p, "period", in: partNode) { try reader.number($0, .above(0)) },
                        cycles: try required(p, "cycles", in: partNode) { try reader.integer($0, 1...LoopPlan.mostCycles) },
                        loopPeriod: try required(p, "loopPeriod", in: partNode) { try reader.number($0, .above(0)) },
                        speedChangePercent: try required(p, "speedChangePercent", in: partNode) { try reader.number($0, .any) }))
                }
                manifest.loops!.append(Loop(
                    clip: try required(l, "clip", in: node, reader.string), seconds: try required(l, "seconds", in: node) { try reader.number($0, .above(0)) },
                    frames: try required(l, "frames", in: node) { try reader.integer($0, 1...Limits.frames) },
                    start: try required(l, "start", in: node) { try reader.number($0, .atLeast(0)) },
                    choice: try required(l, "choice", in: node, reader.string),
                    maxSpeedChange: try reader.number(l["maxSpeedChange"], LoopPlan.maxSpeedChangeRange), parts: parts))
            }
        }
        return manifest
    }

    /// A manifest from its fields, as `load` reads them.
    init(throbber: String, job: String, jobDigest: String, shardIndex: Int, shardCount: Int, shardMode: String,
         plannedFrames: Int, plannedArtifacts: Int, frames: [Frame], artifacts: [Artifact]) {
        self.throbber = throbber
        self.job = job
        self.jobDigest = jobDigest
        self.shardIndex = shardIndex
        self.shardCount = shardCount
        self.shardMode = shardMode
        self.plannedFrames = plannedFrames
        self.plannedArtifacts = plannedArtifacts
        self.frames = frames
        self.artifacts = artifacts
    }
}
