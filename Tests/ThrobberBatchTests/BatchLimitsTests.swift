import Foundation
import Testing
@testable import Throbber
@testable import ThrobberBatch

/// Issue 14's bounds in the batch library: sheet sizes, shard counts, frame-number widths, job
/// files read through a pipe, manifests checked field by field.
struct BatchLimitsTests {
    @Test func spriteSheetSizesAreCheckedWithoutOverflow() throws {
        try SpriteSheet.checkSize(path: "s.png", frameCount: 120, frameWidth: 300, frameHeight: 300, columns: nil)
        // One column of 50,000 frames: 2.4 million px tall on one page, but pages of 1365 frames fit.
        try SpriteSheet.checkSize(path: "s.png", frameCount: 50_000, frameWidth: 48, frameHeight: 48, columns: 1)
        #expect(SpriteSheet.pages(frameCount: 50_000, frameWidth: 48, frameHeight: 48, columns: 1, maxSize: Limits.sheetSide).count == 37)
        #expect(throws: ThrobberError.self) {
            try SpriteSheet.checkSize(path: "s.png", frameCount: Limits.frames, frameWidth: 16384, frameHeight: 16384, columns: nil)
        }
        // Within each side, over the pixel budget: 20000 × 20000 px.
        #expect(throws: ThrobberError.self) {
            try SpriteSheet.checkSize(path: "s.png", frameCount: 400, frameWidth: 1000, frameHeight: 1000, columns: 20)
        }
    }

    @Test func shardCountsAreBoundedAndSlurmArithmeticCannotTrap() {
        #expect(throws: ThrobberError.self) { try ShardPlan.parse("0/9223372036854775807", mode: .contiguous) }
        #expect(throws: ThrobberError.self) {
            try ShardPlan.fromEnvironment(["SLURM_ARRAY_TASK_ID": "\(Int.min)", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "8"],
                                          shards: 8, mode: .contiguous)
        }
        #expect(throws: ThrobberError.self) {
            try ShardPlan.fromEnvironment(["SLURM_ARRAY_TASK_ID": "\(Int.max)", "SLURM_ARRAY_TASK_COUNT": "\(Int.max)"], shards: 8, mode: .contiguous)
        }
    }

    @Test func frameNumberWidthsTooLargeForAnIntAreRefused() {
        #expect(throws: PatternError.self) { try FramePattern("f_%099999999999999999999999d.png", frameDirective: true) }
        #expect(throws: PatternError.self) { try FramePattern("f_%013d.png", frameDirective: true) }
    }

    @Test func jobFilesReadThroughAPipe() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("limits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect {
            try InputFile.read(directory.path, what: "job file")
        } throws: { error in
            let error = error as! ThrobberError
            return error.kind == .missingInput && error.message.hasSuffix(": it is a directory")
        }
        #expect {
            try InputFile.read(directory.appendingPathComponent("none").path, what: "job file")
        } throws: { error in
            (error as! ThrobberError).message.hasSuffix(": No such file or directory")
        }
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let text = Array("{\"renders\": []}".utf8)
        #expect(write(fds[1], text, text.count) == text.count)
        close(fds[1])
        defer { close(fds[0]) }
        #expect(try InputFile.read("/proc/self/fd/\(fds[0])", what: "job file") == text)
        #expect(InputFile.isStream("/proc/self/fd/\(fds[0])") && InputFile.isStream("/dev/null"))
        // A job file is a file wherever it is: in /dev/shm (tmpfs) too, not a stream.
        let file = directory.appendingPathComponent("job.json")
        try Data(text).write(to: file)
        #expect(!InputFile.isStream(file.path))
        if FileManager.default.isWritableFile(atPath: "/dev/shm") {
            let shm = "/dev/shm/throbber-job-\(UUID().uuidString).json"
            try Data(text).write(to: URL(fileURLWithPath: shm))
            defer { unlink(shm) }
            #expect(!InputFile.isStream(shm))
            #expect(Job.manifestStem(forJobAt: shm).hasPrefix("/dev/shm/"))
        }
    }

    @Test func manifestsAreCheckedFieldByField() throws {
        func load(_ text: String) throws -> Manifest {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString).json")
            try text.write(to: url, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: url) }
            return try Manifest.load(path: url.path)
        }
        let valid = """
            {"throbber":"0","job":"j","jobDigest":"d","shardIndex":1,"shardCount":2,"shardMode":"strided","plannedFrames":1,
             "plannedArtifacts":0,"frames":[{"clip":"c","frame":0,"t":0,"file":"f.png","width":3,"height":4,"pixelsSHA256":"s"}],
             "artifacts":[]}
            """
        let manifest = try load(valid)
        #expect(manifest.shardIndex == 1 && manifest.shardCount == 2 && manifest.frames.first?.height == 4)
        for (from, to, fragment) in [("\"shardIndex\":1", "\"shardIndex\":2", "invalid shardIndex 2"),
                                     ("\"shardCount\":2", "\"shardCount\":0", "invalid shardCount 0"),
                                     ("\"plannedFrames\":1", "\"plannedFrames\":-1", "invalid plannedFrames -1"),
                                     ("\"shardMode\":\"strided\"", "\"shardMode\":\"diagonal\"", "invalid shardMode \"diagonal\""),
                                     ("\"width\":3", "\"width\":0", "invalid width 0")] {
            #expect {
                try load(valid.replacingOccurrences(of: from, with: to))
            } throws: { error in
                let error = error as! ThrobberError
                let ok = error.kind == .badData && error.message.contains(fragment)
                if !ok { Issue.record("message was: \(error.message)") }
                return ok
            }
        }
    }
}
