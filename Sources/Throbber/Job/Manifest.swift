/// What one batch run (one shard) wrote: every frame file with the SHA-256 of its raw pixels,
/// and every other artifact with the SHA-256 of its bytes. `throbber verify` checks that the
/// manifests of all shards together cover the job and that every file is intact.
public struct Manifest: Codable, Sendable {
    public struct Frame: Codable, Sendable {
        public var clip: String
        public var frame: Int
        public var t: Double
        public var file: String
        public var width: Int
        public var height: Int
        /// SHA-256 of the decoded RGBA8 pixels (not of the PNG bytes, which depend on the encoder).
        public var pixelsSHA256: String

        public init(clip: String, frame: Int, t: Double, file: String, width: Int, height: Int, pixelsSHA256: String) {
            self.clip = clip
            self.frame = frame
            self.t = t
            self.file = file
            self.width = width
            self.height = height
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

    public var throbber: String
    public var job: String
    public var jobDigest: String
    public var shardIndex: Int
    public var shardCount: Int
    public var shardMode: String
    /// Frame files the whole job writes (all shards together).
    public var plannedFrames: Int
    /// Other artifacts the whole job writes (all shards together); stdout streams are not counted.
    public var plannedArtifacts: Int
    public var frames: [Frame]
    public var artifacts: [Artifact]

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
        plannedArtifacts = job.clips.reduce(0) { total, clip in total + clip.outputs.reduce(0) { $0 + $1.artifactFiles.count } }
        self.frames = frames
        self.artifacts = artifacts
    }
}
