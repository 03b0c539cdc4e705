import Foundation
import Testing
import Throbber
@testable import ThrobberBatch
import ThrobberDigest
import ThrobberPNG
import ThrobberTestSupport

/// `throbber batch` and `throbber verify`, run as a user would.
@Suite(.serialized)
struct BatchTests {
    /// Writes a job file into `directory` and returns its path.
    func job(_ text: String, in directory: URL, name: String = "job.json") throws -> String {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// Every regular file under `directory` (relative path → bytes).
    func files(_ directory: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory.path)!
        while let relative = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = directory.appendingPathComponent(relative).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return result
    }

    static let mixedJob = """
        {"renders": [
          {"scene": "ring", "scales": [1, 2], "frames": 9, "outputs": [{"type": "png", "pattern": "frames/{name}@{scale}x_%03d.png"}]},
          {"scene": "activity", "frames": 6, "fps": 12, "outputs": [{"type": "png", "pattern": "frames/{name}_%03d.png"},
                                                             {"type": "sheet", "path": "sheets/{name}.png", "columns": 3}]},
          {"scene": "pull-wave", "scale": 0.5, "frames": 4, "outputs": [{"type": "rgba", "path": "streams/pull.rgba"},
                                                                 {"type": "y4m", "path": "streams/pull.y4m"}]}
        ]}
        """

    @Test(arguments: ["contiguous", "strided"])
    func shardsTogetherEqualTheUnshardedOutputByteForByte(mode: String) throws {
        let whole = try temporaryDirectory(), sharded = try temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: whole)
            try? FileManager.default.removeItem(at: sharded)
        }
        let wholeJob = try job(BatchTests.mixedJob, in: whole)
        let result = try runThrobber(["batch", wholeJob, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let shardedJob = try job(BatchTests.mixedJob, in: sharded)
        var manifests: [String] = []
        for k in 0..<3 {
            let shard = try runThrobber(["batch", shardedJob, "--shard", "\(k)/3", "--shard-mode", mode, "--quiet"])
            #expect(shard.status == 0, "\(shard.stderr)")
            manifests.append(sharded.appendingPathComponent("job.shard-\(k)-of-3.manifest.json").path)
        }
        var expected = try files(whole), observed = try files(sharded)
        expected = expected.filter { !$0.key.hasSuffix(".json") || $0.key.contains("sheets/") }
        observed = observed.filter { !$0.key.hasSuffix(".json") || $0.key.contains("sheets/") }
        #expect(expected.count == 9 * 2 + 6 + 2 + 2)
        #expect(Set(expected.keys) == Set(observed.keys))
        for (name, data) in expected {
            #expect(observed[name] == data, "\(name) differs between the sharded and the unsharded run")
        }
        let verify = try runThrobber(["verify"] + manifests)
        #expect(verify.status == 0, "\(verify.stdout)")
        #expect(verify.stdout.contains("24/24 frames, 4/4 artifacts: all intact"))
        // Two shards of three are not the whole job.
        let partial = try runThrobber(["verify"] + manifests.prefix(2))
        #expect(partial.status == 1)
        #expect(partial.stdout.contains("missing shard 2 of 3"))
    }

    @Test func verifyFindsDamagedAndMissingFiles() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try job(BatchTests.mixedJob, in: directory)
        #expect(try runThrobber(["batch", path, "-q"]).status == 0)
        let manifest = directory.appendingPathComponent("job.manifest.json").path
        #expect(try runThrobber(["verify", manifest]).status == 0)
        // Re-encode one frame with other pixels: still a valid PNG, wrong pixels.
        let victim = directory.appendingPathComponent("frames/ring@1x_004.png")
        var image = try PNGCodec.decode(Data(contentsOf: victim))
        image.pixels[4 * (40 * image.width + 40)] ^= 0xFF
        try PNGCodec.encode(image).write(to: victim)
        try FileManager.default.removeItem(at: directory.appendingPathComponent("frames/activity_005.png"))
        // Cut one short, and write another again with the same pixels but no metadata.
        let cut = directory.appendingPathComponent("frames/ring@2x_001.png")
        try Data(contentsOf: cut).prefix(100).write(to: cut)
        let rewritten = directory.appendingPathComponent("frames/activity_002.png")
        try PNGCodec.encode(PNGCodec.decode(Data(contentsOf: rewritten))).write(to: rewritten)
        let result = try runThrobber(["verify", manifest])
        #expect(result.status == 1)
        #expect(result.stdout.contains("ring@1x_004.png: bytes differ from the manifest's SHA-256\n"), "\(result.stdout)")
        #expect(result.stdout.contains("activity_005.png: missing"))
        #expect(result.stdout.contains("ring@2x_001.png: not a readable PNG"))
        #expect(result.stdout.contains("activity_002.png: bytes differ"))
        #expect(result.stdout.contains(": 4 problems"))
    }

    /// The manifest's digests are the files' own: `sha256sum -c` agrees with `verify`.
    @Test func manifestDigestsAreWhatSha256sumChecks() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try job(BatchTests.mixedJob, in: directory)
        #expect(try runThrobber(["batch", path, "-q"]).status == 0)
        let manifest = try Manifest.load(path: directory.appendingPathComponent("job.manifest.json").path)
        #expect(manifest.frames.count == 24 && manifest.frames.allSatisfy { $0.sha256 != nil && $0.pixelsSHA256 == nil })
        let lines = manifest.frames.map { "\($0.sha256!)  \($0.file)" } + manifest.artifacts.map { "\($0.sha256)  \($0.file)" }
        let sums = directory.appendingPathComponent("SHA256SUMS")
        try (lines.joined(separator: "\n") + "\n").write(to: sums, atomically: true, encoding: .utf8)
        func sha256sum() throws -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
            process.arguments = ["--quiet", "-c", sums.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(try sha256sum() == 0)
        // One flipped byte in one frame: both see it.
        let victim = URL(fileURLWithPath: manifest.frames[7].file)
        var bytes = try Data(contentsOf: victim)
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: victim)
        #expect(try sha256sum() == 1)
        #expect(try runThrobber(["verify", directory.appendingPathComponent("job.manifest.json").path]).status == 1)
    }

    /// A manifest from an earlier version records the SHA-256 of each frame's pixels only;
    /// verify still checks those by decoding.
    @Test func verifyChecksPixelDigestsOfEarlierManifests() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try job("{\"renders\": [{\"scene\": \"ring\", \"frames\": 3, \"outputs\": [{\"type\": \"png\", \"pattern\": \"f/%d.png\"}]}]}", in: directory)
        #expect(try runThrobber(["batch", path, "-q"]).status == 0)
        let manifestPath = directory.appendingPathComponent("job.manifest.json").path
        var manifest = try Manifest.load(path: manifestPath)
        for i in manifest.frames.indices {
            let image = try PNGCodec.decode(Data(contentsOf: URL(fileURLWithPath: manifest.frames[i].file)))
            manifest.frames[i].pixelsSHA256 = SHA256.hex(image.pixels)
            manifest.frames[i].sha256 = nil
        }
        try JSONEncoder().encode(manifest).write(to: URL(fileURLWithPath: manifestPath))
        #expect(!(try String(contentsOfFile: manifestPath, encoding: .utf8)).contains("\"sha256\""))
        // The same pixels written again (other bytes) still verify against a pixel digest.
        let first = URL(fileURLWithPath: manifest.frames[0].file)
        try PNGCodec.encode(PNGCodec.decode(Data(contentsOf: first))).write(to: first)
        #expect(try runThrobber(["verify", manifestPath]).status == 0)
        var image = try PNGCodec.decode(Data(contentsOf: first))
        image.pixels[4 * (10 * image.width + 10) + 1] ^= 0x10
        try PNGCodec.encode(image).write(to: first)
        let damaged = try runThrobber(["verify", manifestPath])
        #expect(damaged.status == 1)
        #expect(damaged.stdout.contains("0.png: pixels differ from the manifest's SHA-256"), "\(damaged.stdout)")
    }

    @Test func existingFilesAreRefusedBeforeAnyFrameAndKeptWithSkipExisting() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try job("{\"renders\": [{\"scene\": \"ring\", \"frames\": 5, \"outputs\": [{\"type\": \"png\", \"pattern\": \"f/%d.png\"}]}]}", in: directory)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("f"), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: directory.appendingPathComponent("f/2.png"))
        let refused = try runThrobber(["batch", path])
        #expect(refused.status == 73, "\(refused.stderr)")
        #expect(refused.stderr.contains("--overwrite") && refused.stderr.contains("--skip-existing"))
        #expect(try listing(directory.appendingPathComponent("f")) == ["2.png"], "nothing may be written before the check")
        // A damaged existing frame is reported, not silently kept.
        let damaged = try runThrobber(["batch", path, "--skip-existing"])
        #expect(damaged.status == 65, "\(damaged.stderr)")
        #expect(damaged.stderr.contains("f/2.png exists but is not a file Throbber wrote (") && damaged.stderr.contains("not a PNG"),
                "\(damaged.stderr)")
        #expect(try String(contentsOfFile: directory.appendingPathComponent("f/2.png").path, encoding: .utf8) == "mine")
        try FileManager.default.removeItem(at: directory.appendingPathComponent("f/2.png"))
        #expect(try runThrobber(["batch", path, "-q", "--skip-existing"]).status == 0)
        let before = try files(directory.appendingPathComponent("f"))
        try FileManager.default.removeItem(at: directory.appendingPathComponent("f/3.png"))
        let resumed = try runThrobber(["batch", path, "--skip-existing"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("rendered 1 frames, kept 4 existing"))
        #expect(try files(directory.appendingPathComponent("f")) == before)
        #expect(try runThrobber(["verify", directory.appendingPathComponent("job.manifest.json").path]).status == 0)
    }

    @Test func interruptedRunLeavesNothingPartialAndResumes() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try job("{\"renders\": [{\"scene\": \"wave-ball\", \"frames\": 200, \"outputs\": [{\"type\": \"png\", \"pattern\": \"f/%04d.png\", \"level\": 9}, {\"type\": \"sheet\", \"path\": \"s.png\"}]}]}", in: directory)
        let process = Process()
        process.executableURL = try throbberBinary()
        process.arguments = ["batch", path, "--progress"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // Wait until some frames exist, then interrupt.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let count = try? listing(directory.appendingPathComponent("f")).count, count >= 5 { break }
            usleep(20_000)
        }
        process.interrupt()
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 130, "\(stderr)")
        #expect(stderr.contains("interrupted by SIGINT"))
        let left = try listing(directory.appendingPathComponent("f"))
        #expect(left.count < 200)
        #expect(!left.contains { $0.hasPrefix(".") }, "temporary files left: \(left.filter { $0.hasPrefix(".") })")
        #expect(try listing(directory).filter { $0.hasPrefix(".") }.isEmpty, "the sheet's temporary file was left")
        // 200 frames of 300 px pass 4096 px: pages of 169 and 31 frames, neither written before the last frame.
        let sheetFiles = try listing(directory).filter { $0.hasPrefix("s") }
        #expect(sheetFiles.isEmpty, "a partial sheet was written: \(sheetFiles)")
        for name in left {
            #expect((try? PNGCodec.decode(Data(contentsOf: directory.appendingPathComponent("f/\(name)")))) != nil, "\(name) is not whole")
        }
        // The rest with the other backend: existing frames are kept and hashed as they are.
        let resumed = try runThrobber(["batch", path, "--skip-existing", "--backend", "cpu"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try listing(directory.appendingPathComponent("f")).count == 200)
        #expect(try listing(directory).filter { $0.hasPrefix("s") } == ["s-0.json", "s-0.png", "s-1.json", "s-1.png"])
        #expect(try runThrobber(["verify", directory.appendingPathComponent("job.manifest.json").path]).status == 0)
    }

    static var canMount: Bool { getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/bin/mount") }

    @Test(.enabled(if: BatchTests.canMount, "needs root to mount a small tmpfs"))
    func fullDiskIsReportedWithThePathAndLeavesNoPartialFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = directory.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=256k", "tmpfs", disk.path]
        try mount.run()
        mount.waitUntilExit()
        guard mount.terminationStatus == 0 else {
            Issue.record("mount failed with status \(mount.terminationStatus)")
            return
        }
        defer {
            let umount = Process()
            umount.executableURL = URL(fileURLWithPath: "/bin/umount")
            umount.arguments = [disk.path]
            try? umount.run()
            umount.waitUntilExit()
        }
        let path = try job("{\"renders\": [{\"scene\": \"wave-ball\", \"scale\": 2, \"frames\": 60, \"outputs\": [{\"type\": \"png\", \"pattern\": \"disk/%03d.png\", \"level\": 0}]}]}", in: directory)
        let result = try runThrobber(["batch", path, "--backend", "cpu"])
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains(disk.path) && result.stderr.contains("No space left on device"), "\(result.stderr)")
        let left = try listing(disk)
        #expect(!left.contains { $0.hasPrefix(".") }, "temporary files left: \(left)")
        for name in left {
            #expect((try? PNGCodec.decode(Data(contentsOf: disk.appendingPathComponent(name)))) != nil, "\(name) is partial")
        }
    }

    @Test func streamToAFullDeviceIsAnIOError() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try job("{\"renders\": [{\"scene\": \"ring\", \"frames\": 3, \"outputs\": [{\"type\": \"rgba\", \"path\": \"-\"}]}]}", in: directory)
        let process = Process()
        process.executableURL = try throbberBinary()
        process.arguments = ["batch", path]
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 74, "\(stderr)")
        #expect(stderr.contains("standard output") && stderr.contains("No space left"))
    }

    @Test func streamsAndSheetsHaveTheRightShape() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try job(BatchTests.mixedJob, in: directory)
        let result = try runThrobber(["batch", path, "--progress"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("batch: 28/28 frames (100.0%)"))
        // pull-wave at 0.5: 188×12 px, 4 frames.
        let rgba = try Data(contentsOf: directory.appendingPathComponent("streams/pull.rgba"))
        #expect(rgba.count == 188 * 12 * 4 * 4)
        let y4m = try Data(contentsOf: directory.appendingPathComponent("streams/pull.y4m"))
        #expect(String(decoding: y4m.prefix(40), as: UTF8.self).hasPrefix("YUV4MPEG2 W188 H12 F60:1"))
        let sheet = try PNGCodec.decode(Data(contentsOf: directory.appendingPathComponent("sheets/activity.png")))
        #expect(sheet.width == 3 * 240 && sheet.height == 2 * 240)
        let atlas = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("sheets/activity.json"))) as? [String: Any])
        let meta = try #require(atlas["meta"] as? [String: Any])
        #expect(meta["frameRate"] as? Double == 12)
        #expect((atlas["frames"] as? [String: Any])?.count == 6)
        // The sheet's cell 4 equals frame 4 of the PNG sequence.
        let frame = try PNGCodec.decode(Data(contentsOf: directory.appendingPathComponent("frames/activity_004.png")))
        #expect(sheet[240 + 120, 240 + 60] == frame[120, 60])
        // tEXt chunks reproduce the frame.
        let text = Dictionary(try PNGCodec.textChunks(Data(contentsOf: directory.appendingPathComponent("frames/activity_004.png"))),
                              uniquingKeysWith: { a, _ in a })
        #expect(text["Throbber:scene"] == "activity")
        #expect(text["Throbber:time"] == formatNumber(4.0 / 12))
    }

    /// A looping run reports every clip's loop completely (also one with nothing to retime),
    /// notes a missed default bound before rendering, and writes the loop into each PNG's tEXt
    /// and the manifest as values that `Manifest.load` reads back.
    @Test func loopsAreReportedAndRecorded() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try job("""
            {"renders": [{"scene": "wave-ball", "loop": true, "fps": 5, "scale": 0.2},
              {"scene": "progress-ring", "loop": true, "fps": 4, "scale": 0.25},
              {"scene": "double-wave", "name": "slow", "parameters": {"phaseSpeed": 0.1}, "loop": true, "fps": 1, "scale": 0.05}]}
            """, in: directory)
        let result = try runThrobber(["batch", path, "--backend", "cpu"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "batch: note: slow@0.05x: no loop of up to 60 s keeps every part's speed within 2%; using the closest, 63 s (amplitude -4.76%)",
                "\(result.stderr)")
        #expect(lines.contains("batch: wave-ball@0.2x loops every 4 s (20 frames) from t = 1.656 s: amplitude cycles=2 speed=+0.00%, "
                               + "frontPhase cycles=4 speed=-1.30%, backPhase cycles=3 speed=-1.30%"), "\(result.stderr)")
        #expect(lines.contains("batch: progress-ring@0.25x loops every 1 s (4 frames) from t = 0 s: no part retimed"), "\(result.stderr)")
        let text = Dictionary(try PNGCodec.textChunks(Data(contentsOf: directory.appendingPathComponent("wave-ball@0.2x_00019.png"))),
                              uniquingKeysWith: { a, _ in a })
        #expect(text["Throbber:loop"] == "seconds=4 frames=20 choice=search maxSpeedChange=2%: amplitude cycles=2 speed=+0.00%, "
                + "frontPhase cycles=4 speed=-1.30%, backPhase cycles=3 speed=-1.30%")
        let ring = Dictionary(try PNGCodec.textChunks(Data(contentsOf: directory.appendingPathComponent("progress-ring@0.25x_00000.png"))),
                              uniquingKeysWith: { a, _ in a })
        #expect(ring["Throbber:loop"] == "seconds=1 frames=4 choice=search maxSpeedChange=2%: no part retimed")
        let manifest = try Manifest.load(path: directory.appendingPathComponent("job.manifest.json").path)
        let loops = try #require(manifest.loops)
        #expect(loops.map(\.clip) == ["wave-ball@0.2x", "progress-ring@0.25x", "slow@0.05x"])
        #expect(loops.map(\.choice) == ["search", "search", "closest"] && loops.map(\.frames) == [20, 4, 63])
        #expect(loops[0].parts.map { "\($0.part) \($0.cycles) \(String(format: "%+.2f", $0.speedChangePercent))" }
                == ["amplitude 2 +0.00", "frontPhase 4 -1.30", "backPhase 3 -1.30"])
        #expect(loops[1].parts.isEmpty && loops[2].maxSpeedChange == 2)
        #expect(try runThrobber(["verify", directory.appendingPathComponent("job.manifest.json").path]).status == 0)
    }

    @Test func badJobFilesFailBeforeRendering() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try job("{\"renders\": [{\"scene\": \"ring\", \"frames\": 3},\n  {\"scene\": \"ring\", \"name\": \"x\", \"parameters\": {\"thicknes\": 3}}]}", in: directory)
        let result = try runThrobber(["batch", path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("job.json:2:49: unknown parameter 'thicknes'; did you mean 'thickness'?"), "\(result.stderr)")
        #expect(try listing(directory) == ["job.json"])
        #expect(try runThrobber(["batch", directory.appendingPathComponent("nope.json").path]).status == 66)
        #expect(try runThrobber(["batch", path, "--shard", "3/3"]).status == 64)
        #expect(try runThrobber(["batch", path, "--shards", "3"]).stderr.contains("needs a shard index"))
    }

    @Test(arguments: ["icons.json", "progress.json", "stream.json", "loops.json", "hud-life.json"])
    func exampleJobFilesAreValid(name: String) throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/\(name)")
        let job = try Job.load(path: example.path, baseDirectory: "/tmp/unused")
        #expect(!job.clips.isEmpty)
    }
}
