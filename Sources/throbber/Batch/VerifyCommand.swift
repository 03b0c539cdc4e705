import Foundation
import Throbber
import ThrobberPNG
import ThrobberDigest
import ThrobberBatch
import ThrobberRender

/// `throbber verify`: the manifests of a job's shards, together, complete and intact.
enum VerifyCommand: Subcommand {
    static let help = """
        USAGE: throbber verify MANIFEST.json... [options]

        Checks that the manifests written by `throbber batch` (one per shard) belong to one job,
        that every shard is there once, that together they list every frame and artifact the job
        plans, each exactly once, and that every file is intact: each file has the SHA-256 the
        manifest records for its bytes (a frame listed by an earlier version, with only the
        SHA-256 of its pixels, decodes to pixels with that digest). A damaged frame is named by
        what is wrong: missing, not a readable PNG, the wrong size, or other bytes. Exit 0 when
        all holds, 1 when anything is missing or damaged.

        OPTIONS:
          --quick                check presence only, not the hashes
          -h, --help             show this help
        """

    static let options: [OptionSpec] = [OptionSpec("--quick", value: false)]

    static func execute(_ arguments: ParsedArguments) throws {
        guard !arguments.positionals.isEmpty else { throw ThrobberError("verify needs one or more manifest files", kind: .usage) }
        // Checked field by field (`Manifest.load`), so a bad manifest is named in our words and
        // a shard count of 0 or a negative plan never reaches the arithmetic below.
        let manifests = try arguments.positionals.map { path in (path, try Manifest.load(path: path)) }
        var problems: [String] = []
        let first = manifests[0].1
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
        let quick = arguments.has("--quick")
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
        let shardText = "\(manifests.count) manifest\(manifests.count == 1 ? "" : "s") (\(first.shardCount) shard\(first.shardCount == 1 ? "" : "s"))"
        if problems.isEmpty {
            print("verify: \(shardText), \(frames.count)/\(first.plannedFrames) frames, \(artifacts.count)/\(first.plannedArtifacts) artifacts: "
                  + (quick ? "all present" : "all intact"))
            return
        }
        for problem in problems.prefix(50) { print("  \(problem)") }
        if problems.count > 50 { print("  … and \(problems.count - 50) more") }
        print("verify: \(shardText): \(problems.count) problem\(problems.count == 1 ? "" : "s")")
        exit(ExitCode.mismatch.rawValue)
    }
}

private final class Damaged: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []

    func add(_ item: String) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }

    var list: [String] {
        lock.lock()
        defer { lock.unlock() }
        return items.sorted()
    }
}
