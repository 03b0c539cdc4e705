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
    /// The most artifacts planned, when packed sheets leave their count open (else `artifactsPlanned`).
    public let artifactsPlannedUpTo: Int
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
        let upTo = first.plannedArtifactsUpTo ?? first.plannedArtifacts
        if artifacts.count < first.plannedArtifacts || artifacts.count > upTo {
            let planned = upTo == first.plannedArtifacts ? "\(upTo)" : "\(first.plannedArtifacts)–\(upTo)"
            problems.append("\(artifacts.count) of \(planned) planned artifacts are listed")
        }
        // Integrity, on every core, in bounded memory: each file's SHA-256 is streamed (one
        // 1 MiB buffer a thread), `--quick` only looks at what is there (stat), and a file whose
        // bytes differ is decoded band by band only to say what is wrong with it.
        let frameList = Array(frames.values)
        let artifactList = Array(artifacts.values)
        let damaged = Damaged()
        DispatchQueue.concurrentPerform(iterations: frameList.count + artifactList.count) { index in
            let isFrame = index < frameList.count
            let file = isFrame ? frameList[index].file : artifactList[index - frameList.count].file
            let shown = ThrobberError.shownPath(file)
            if let problem = ManifestVerification.notARegularFile(file) {
                damaged.add("\(shown): \(problem)")
                return
            }
            if quick { return }
            let digest: String
            do {
                digest = try InputFile.digest(file).sha256
            } catch let error as ThrobberError {
                damaged.add("\(shown): unreadable (\(error.message))")
                return
            } catch {
                damaged.add("\(shown): unreadable (\(error))")
                return
            }
            guard isFrame else {
                if digest != artifactList[index - frameList.count].sha256 { damaged.add("\(shown): bytes differ from the manifest's SHA-256") }
                return
            }
            let frame = frameList[index]
            if let sha256 = frame.sha256, digest == sha256 { return }
            // One damaged file is read at a time, whatever the cores: memory stays one file's.
            if let problem = ManifestVerification.diagnosing.withLock({ ManifestVerification.frameProblem(frame) }) {
                damaged.add("\(shown): \(problem)")
            }
        }
        problems += damaged.list
        manifestCount = manifests.count
        shardCount = first.shardCount
        framesListed = frames.count
        framesPlanned = first.plannedFrames
        artifactsListed = artifacts.count
        artifactsPlanned = first.plannedArtifacts
        artifactsPlannedUpTo = upTo
        checkedHashes = checkHashes
        self.problems = problems
    }
}

extension ManifestVerification {
    /// Why `path` is not a file a run could have written, in words, or nil when it is a regular
    /// file (links followed): missing, a directory, a FIFO or device, or the system's reason.
    static func notARegularFile(_ path: String) -> String? {
        switch InputFile.kind(of: path) {
        case .failure(let error): return error.code == ENOENT ? "missing" : "cannot be looked at (\(error.message))"
        case .success(.regular): return nil
        case .success(.directory): return "is a directory, not a regular file"
        case .success(.stream): return "is a FIFO or device, not a regular file"
        case .success(.other(let what)): return "is \(what), not a regular file"
        }
    }

    /// What is wrong with a frame whose bytes are not the manifest's: not a readable PNG, the
    /// wrong size, other bytes, or (a frame an earlier version listed by its pixels' digest)
    /// other pixels; nil when its pixels are the ones an earlier version's manifest lists. The
    /// file is read within ``InputFile/largestPNG`` and decoded band by band.
    static func frameProblem(_ frame: Manifest.Frame) -> String? {
        let reader: PNGCodec.RowReader
        do {
            reader = try PNGCodec.RowReader(try InputFile.readPNG(frame.file, streams: false, origin: .file))
        } catch let error as ThrobberError where error.kind == .badData {
            return "not a readable PNG (\(error.message))"
        } catch {
            return "unreadable (\((error as? ThrobberError)?.message ?? "\(error)"))"
        }
        guard reader.width == frame.width, reader.height == frame.height else {
            return "\(reader.width)×\(reader.height) px, the manifest says \(frame.width)×\(frame.height)"
        }
        let pixels = SHA256()
        do {
            try reader.forEachBand { pixels.update($0) }
        } catch let error as ThrobberError {
            return "not a readable PNG (\(error.message))"
        } catch {
            return "not a readable PNG (\(error))"
        }
        if frame.sha256 != nil { return "bytes differ from the manifest's SHA-256" }
        return pixels.finalizeHex() == frame.pixelsSHA256 ? nil : "pixels differ from the manifest's SHA-256"
    }

    /// Held while a damaged frame is diagnosed.
    static let diagnosing = NSLock()
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
