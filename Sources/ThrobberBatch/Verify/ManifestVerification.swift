import Foundation
import Throbber
import ThrobberPNG
import ThrobberDigest

/// A job's shard manifests checked together: one job, every shard once, every planned frame and
/// artifact listed exactly once, and every file intact.
///
/// What `throbber verify` prints, as values a library caller can act on.
public struct ManifestVerification: Sendable {
    /// The manifests read, in the order given.
    public let manifestCount: Int
    /// How many shards the job was split into (from the first manifest).
    public let shardCount: Int
    /// Frames listed across the manifests, and how many the job plans.
    public let framesListed: Int
    public let framesPlanned: Int
    /// Artifacts (sheets, streams, videos) listed, and how many the job plans.
    public let artifactsListed: Int
    public let artifactsPlanned: Int
    /// Whether the files' hashes were checked, or only their presence.
    public let checkedHashes: Bool
    /// Everything wrong, one line each, in a stable order: foreign or repeated shards, missing
    /// shards, files listed twice, counts short of the plan, then damaged files (sorted).
    public let problems: [String]

    /// True when nothing is missing or damaged.
    public var isIntact: Bool { problems.isEmpty }

    /// Reads each manifest (field by field, `Manifest.load`) and checks them together.
    ///
    /// A frame whose bytes have the manifest's SHA-256 is the PNG that was written; other bytes
    /// are damage, named by what the decoder finds (not a readable PNG, the wrong size, other
    /// bytes). A frame listed by an earlier version, with only its pixels' digest, is decoded
    /// and its pixels hashed. Files are checked on every core.
    ///
    /// - Parameters:
    ///   - paths: the manifests, one per shard.
    ///   - checkHashes: false to check only that every file exists (`--quick`).
    /// - Throws: a usage error for no manifests; what `Manifest.load` throws for one that cannot
    ///   be read or is not a manifest.
    public init(manifests paths: [String], checkHashes: Bool = true) throws {
        guard !paths.isEmpty else { throw ThrobberError("verify needs one or more manifest files", kind: .usage) }
        // Checked field by field, so a bad manifest is named in our words and a shard count of 0
        // or a negative plan never reaches the arithmetic below.
        let manifests = try paths.map { path in (path, try Manifest.load(path: path)) }
        let first = manifests[0].1
        let quick = !checkHashes
        var problems: [String] = []
        for (path, manifest) in manifests where manifest.jobDigest != first.jobDigest || manifest.shardCount != first.shardCount {
            problems.append("\(path) belongs to another job or shard count (job \(manifest.jobDigest.prefix(12)), \(manifest.shardCount) shards; "
                            + "\(manifests[0].0) has \(first.jobDigest.prefix(12)), \(first.shardCount))")
        }
        var seenShards: [Int: String] = [:]
        for (path, manifest) in manifests {
            if let other = seenShards[manifest.shardIndex] { problems.append("shard \(manifest.shardIndex) appears twice: \(other) and \(path)") }
            seenShards[manifest.shardIndex] = path
        }
        let missingShards = (0..<first.shardCount).filter { seenShards[$0] == nil }
        if !missingShards.isEmpty {
            problems.append("missing shard\(missingShards.count == 1 ? "" : "s") \(missingShards.map(String.init).joined(separator: ", ")) of \(first.shardCount)")
        }
        var frames: [String: Manifest.Frame] = [:]
        var artifacts: [String: Manifest.Artifact] = [:]
        for (path, manifest) in manifests {
            for frame in manifest.frames {
                if frames[frame.file] != nil { problems.append("\(frame.file) is listed twice (again in \(path))") }
                frames[frame.file] = frame
            }
            for artifact in manifest.artifacts {
                if artifacts[artifact.file] != nil { problems.append("\(artifact.file) is listed twice (again in \(path))") }
                artifacts[artifact.file] = artifact
            }
        }
        if frames.count != first.plannedFrames {
            problems.append("\(frames.count) of \(first.plannedFrames) planned frames are listed")
        }
        if artifacts.count != first.plannedArtifacts {
            problems.append("\(artifacts.count) of \(first.plannedArtifacts) planned artifacts are listed")
        }
        // Integrity, on every core.
        let frameList = Array(frames.values)
        let artifactList = Array(artifacts.values)
        let damaged = Damaged()
        DispatchQueue.concurrentPerform(iterations: frameList.count + artifactList.count) { index in
            if index < frameList.count {
                let frame = frameList[index]
                guard let data = FileManager.default.contents(atPath: frame.file) else {
                    damaged.add("\(frame.file): missing")
                    return
                }
                if quick { return }
                // The file's bytes, when the manifest has their digest: equal bytes are the PNG
                // that was written; other bytes are damage, named by what the decoder finds.
                if let sha256 = frame.sha256, SHA256.hex(data) == sha256 { return }
                let image: Image
                do {
                    image = try PNGCodec.decode(data)
                } catch {
                    // The reader's own words: truncated, corrupt, or over the pixel budget.
                    damaged.add("\(frame.file): not a readable PNG (\((error as? ThrobberError)?.message ?? "\(error)"))")
                    return
                }
                if image.width != frame.width || image.height != frame.height {
                    damaged.add("\(frame.file): \(image.width)×\(image.height) px, the manifest says \(frame.width)×\(frame.height)")
                } else if frame.sha256 != nil {
                    damaged.add("\(frame.file): bytes differ from the manifest's SHA-256")
                } else if SHA256.hex(image.pixels) != frame.pixelsSHA256 {
                    damaged.add("\(frame.file): pixels differ from the manifest's SHA-256")
                }
            } else {
                let artifact = artifactList[index - frameList.count]
                guard let data = FileManager.default.contents(atPath: artifact.file) else {
                    damaged.add("\(artifact.file): missing")
                    return
                }
                if !quick && SHA256.hex(data) != artifact.sha256 {
                    damaged.add("\(artifact.file): bytes differ from the manifest's SHA-256")
                }
            }
        }
        problems += damaged.list
        manifestCount = manifests.count
        shardCount = first.shardCount
        framesListed = frames.count
        framesPlanned = first.plannedFrames
        artifactsListed = artifacts.count
        artifactsPlanned = first.plannedArtifacts
        checkedHashes = checkHashes
        self.problems = problems
    }
}

/// Problems found by concurrent checks, collected under a lock.
private final class Damaged: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []

    func add(_ item: String) {
        lock.withLock { items.append(item) }
    }

    var list: [String] {
        lock.withLock { items.sorted() }
    }
}
