import Foundation
import Testing
import ThrobberTestSupport

/// Issue 14: every number a user gives is bounded where it is parsed, and every count derived
/// from them is checked before the first frame. Each case was a trap, a stack overflow, a hang
/// or a late failure; each must now end at once with the documented exit code, one line naming
/// the field, the value and the limit, and nothing written.
struct BoundsTests {
    /// Runs `throbber ARGUMENTS` in a fresh directory (holding `files`) and checks the exit
    /// code, that stderr is one line holding every fragment, and that nothing new was written.
    func expectRefused(_ arguments: [String], files: [String: String] = [:], status: Int32, _ fragments: [String],
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, text) in files { try Data(text.utf8).write(to: directory.appendingPathComponent(name)) }
        let before = try listing(directory)
        let result = try runThrobber(arguments, in: directory)
        #expect(result.status == status, "\(result.stderr)", sourceLocation: sourceLocation)
        for fragment in fragments {
            #expect(result.stderr.contains(fragment), "missing \"\(fragment)\" in: \(result.stderr)", sourceLocation: sourceLocation)
        }
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(try listing(directory) == before, "a refused command wrote files", sourceLocation: sourceLocation)
    }

    /// A one-render job with an rgba output.
    static func job(_ render: String) -> String {
        "{\"renders\":[{\"scene\":\"ring\",\(render),\"outputs\":[{\"type\":\"rgba\",\"path\":\"a.rgba\"}]}]}"
    }

    @Test(arguments: [
        // fps 1e-300 with a loop: one frame lasting 1e300 s (was: Double→Int trap in LoopPlan).
        (job("\"fps\":1e-300,\"loop\":true"), ["invalid fps 1e-300", "[0.001, 1000]"]),
        // fps 1e20 (was: a trap in the Y4M frame rate and the frame times).
        (job("\"fps\":1e20,\"frames\":2"), ["invalid fps 1e20", "[0.001, 1000]"]),
        (job("\"duration\":1e20"), ["invalid duration 1e20", "≤ 1000000"]),
        (job("\"loop\":true,\"loopSeconds\":1e20"), ["invalid loopSeconds 1e20", "≤ 1000000"]),
        // 60 million frames from duration × fps: capped like "frames", before planning.
        (job("\"duration\":1000000,\"fps\":60"), ["duration × fps", "60000000", "at most 10000000"]),
        (job("\"loop\":true,\"loopSeconds\":1000000,\"fps\":1000"), ["loopSeconds × fps", "at most 10000000"]),
        // A slow frame rate over many frames ends after the latest time.
        (job("\"fps\":0.01,\"frames\":100000"), ["invalid fps 0.01", "at t = 9999900 s", "at most 1000000 s"]),
        (job("\"start\":999999,\"fps\":1,\"frames\":3"), ["invalid fps 1", "at most 1000000 s"]),
        (job("\"start\":1e300"), ["invalid start 1e300", "≤ 1000000"]),
        // Each clip within the cap, the job over it: 3 scales of 4 million frames.
        ("{\"renders\":[{\"scene\":\"ring\",\"scales\":[1,2,3],\"frames\":4000000,\"outputs\":[{\"type\":\"rgba\",\"path\":\"a{scale}.rgba\"}]}]}", ["ring@3x brings the job's frames to 12000000", "at most 10000000"]),
        (job("\"scale\":1e300"), ["invalid scale 1e300", "≤ 64"]),
        (job("\"scales\":[1,1e300]"), ["a scale must be a number > 0 and ≤ 64"]),
        (job("\"parameters\":{\"thickness\":1e308}"), ["invalid thickness '1e308'", "≤ 100000"]),
    ])
    func jobNumbersOutOfRangeAreExit65(text: String, fragments: [String]) throws {
        try expectRefused(["batch", "job.json", "--backend", "cpu"], files: ["job.json": text], status: 65, ["job.json:1:"] + fragments)
    }

    @Test func spriteSheetsTooLargeAreRefusedBeforeRendering() throws {
        // 2,000 frames @3x on one page of up to 65535 px: 40500 × 40500 px, 6.5 GB (was: an allocation abort).
        try expectRefused(["batch", "job.json"], files: ["job.json": """
            {"renders":[{"scene":"wave-ball","frames":2000,"scale":3,"outputs":[{"type":"sheet","path":"s.png","maxSize":65535}]}]}
            """], status: 65, ["sheet", "s.png", "40500×40500 px", "65535 px a side"])
        // A frame larger than a page: maxSize named with its value and the frame's size.
        try expectRefused(["batch", "job.json"], files: ["job.json": """
            {"renders":[{"scene":"activity","frames":3,"outputs":[{"type":"sheet","path":"s.png","maxSize":200}]}]}
            """], status: 65, ["job.json:1:", "activity@1x", "invalid maxSize 200", "240×240 px", "at least 240"])
        // The same with the default: 84 pt × 64 = 5376 px frames.
        try expectRefused(["batch", "job.json"], files: ["job.json": """
            {"renders":[{"scene":"ring","frames":3,"scale":64,"outputs":[{"type":"sheet","path":"s.png"}]}]}
            """], status: 65, ["ring@64x", "invalid maxSize 4096 (the default)", "5376×5376 px"])
        try expectRefused(["batch", "job.json"], files: ["job.json": """
            {"renders":[{"scene":"ring","frames":3,"outputs":[{"type":"sheet","path":"s.png","maxSize":65536}]}]}
            """], status: 65, ["invalid maxSize 65536", "[1, 65535]"])
    }

    @Test func deeplyNestedJobFileIsADataErrorNotAStackOverflow() throws {
        let nested = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        try expectRefused(["batch", "nest.json"], files: ["nest.json": nested], status: 65, ["nest.json:1:65:", "deeper than 64"])
    }

    @Test(arguments: [
        (["render", "ring", "--set", "thickness=1e308", "--backend", "cpu", "-o", "o1"], ["invalid thickness '1e308'", "≤ 100000"]),
        (["render", "wave-ball", "--set", "tickCount=10000", "--set", "tickWidth=1e300", "--backend", "cpu", "-o", "o2"],
         ["invalid tickWidth '1e300'", "≤ 100000"]),
        // Within every range, but 10,000 ticks each as large as the canvas: over the work budget.
        (["render", "wave-ball", "--set", "tickCount=10000", "--set", "tickWidth=100000", "--backend", "cpu", "-o", "o2"],
         ["tickCount 10000", "tickWidth 100000", "at most 1073741824 px"]),
        (["render", "pull-wave", "--set", "pull=1e308", "-o", "o3"], ["invalid pull '1e308'", "≤ 100000"]),
        (["render", "wave-ball", "--set", "amplitude=1e300", "--backend", "cpu", "-o", "o4"], ["invalid amplitude '1e300'"]),
        (["render", "double-wave", "--set", "phaseSpeed=1e300", "--backend", "cpu", "-o", "o5"], ["invalid phaseSpeed '1e300'"]),
        (["render", "activity", "--set", "secondsPerLoop=1e-300", "--backend", "cpu", "-o", "o6"], ["invalid secondsPerLoop '1e-300'", "[0.001, 1000000]"]),
        (["render", "activity", "--backend", "cpu", "-o", "o6", "--fps", "1e9"], ["invalid --fps '1e9'", "[0.001, 1000]"]),
        (["render", "activity", "--backend", "cpu", "-o", "o6", "--fps", "1e-300"], ["invalid --fps '1e-300'", "[0.001, 1000]"]),
        (["render", "ring", "--scale", "1e300", "-o", "o7"], ["invalid scale '1e300'", "≤ 64"]),
        (["render", "ring", "--start", "1e300", "-o", "o8"], ["invalid --start '1e300'", "≤ 1000000"]),
        (["render", "ring", "--threads", "0", "-o", "o9"], ["invalid --threads '0'", "[1, 1024]"]),
        (["render", "ring", "--threads", "1025", "-o", "o9"], ["invalid --threads '1025'", "[1, 1024]"]),
        (["batch", "job.json", "--threads", "0"], ["invalid --threads '0'", "[1, 1024]"]),
        (["parity", "--at", "1e308"], ["invalid --at '1e308'", "1000000"]),
        (["parity", "--scales", "1e308"], ["invalid --scales '1e308'", "≤ 64"]),
        (["bench", "--allow-debug", "--backends", ""], ["invalid --backends ''", "non-empty"]),
        (["batch", "job.json", "--shard", "0/9223372036854775807"], ["invalid --shard '0/9223372036854775807'", "1000000"]),
        (["bench", "--allow-debug", "--scenes", ","], ["invalid --scenes ','", "non-empty"]),
    ])
    func commandLineNumbersOutOfRangeAreExit64(arguments: [String], fragments: [String]) throws {
        try expectRefused(arguments, status: 64, fragments)
    }

    @Test func jobFileReadErrorsSayWhy() throws {
        try expectRefused(["batch", "missing.json"], status: 66, ["cannot read job file missing.json: No such file or directory"])
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try runThrobber(["batch", directory.path])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(result.stderr.contains("\(directory.path): it is a directory"), "\(result.stderr)")
    }

    @Test func aJobFileCanBeAPipe() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("job.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let text = Self.job("\"frames\":2")
        // The writer blocks until the reader opens the FIFO, so it writes from another thread.
        let writer = Thread { try? Data(text.utf8).write(to: URL(fileURLWithPath: fifo)) }
        writer.start()
        let result = try runThrobber(["batch", fifo, "--backend", "cpu", "--manifest", directory.appendingPathComponent("m.json").path],
                                     in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let frames = try Data(contentsOf: directory.appendingPathComponent("a.rgba"))
        #expect(frames.count == 2 * 84 * 84 * 4)
    }

    @Test func aLocationIsPrintedOnce() throws {
        try expectRefused(["batch", "job.json"], files: ["job.json": """
            {"renders":[{"scene":"wave-ball","parameters":{"tickLit":[1,"x",0,1]}}]}
            """], status: 65, ["job.json:1:61: colour components of \"tickLit\" must be numbers"])
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("{\"renders\":[{\"scene\":\"wave-ball\",\"parameters\":{\"tickLit\":[1,\"x\",0,1]}}]}".utf8)
            .write(to: directory.appendingPathComponent("job.json"))
        let result = try runThrobber(["batch", directory.appendingPathComponent("job.json").path])
        #expect(result.stderr.components(separatedBy: "job.json:").count == 2, "\(result.stderr)")
    }

    @Test func longValuesAreShortenedWhenEchoed() throws {
        let name = String(repeating: "a", count: 5_000_000) + "!"
        try expectRefused(["batch", "job.json"], files: ["job.json": "{\"renders\":[{\"scene\":\"ring\",\"name\":\"\(name)\"}]}"],
                          status: 65, ["invalid name \"" + String(repeating: "a", count: 60) + "… (5000001 chars)\""])
        let result = try runThrobber(["render", String(repeating: "w", count: 100_000), "-o", "x"])
        #expect(result.status == 64)
        #expect(result.stderr.count < 400, "the message echoes the whole value: \(result.stderr.count) characters")
    }

    @Test func verifyNamesBadManifestFieldsInItsOwnWords() throws {
        func manifest(_ shardCount: String, _ plannedFrames: String) -> String {
            """
            {"throbber":"0","job":"j","jobDigest":"d","shardIndex":0,"shardCount":\(shardCount),"shardMode":"contiguous",
             "plannedFrames":\(plannedFrames),"plannedArtifacts":0,"frames":[],"artifacts":[]}
            """
        }
        try expectRefused(["verify", "m.json"], files: ["m.json": manifest("0", "0")], status: 65,
                          ["m.json:1:", "invalid shardCount 0", "[1, 1000000]"])
        try expectRefused(["verify", "m.json"], files: ["m.json": manifest("1", "-1")], status: 65,
                          ["m.json:2:", "invalid plannedFrames -1", "[0, "])
        try expectRefused(["verify", "m.json"], files: ["m.json": manifest("1", "1e300")], status: 65,
                          ["invalid plannedFrames 1e300"])
        try expectRefused(["verify", "m.json"], files: ["m.json": manifest("1", "\"x\"")], status: 65,
                          ["\"plannedFrames\" must be an integer"])
        try expectRefused(["verify", "m.json"], files: ["m.json": "{}"], status: 65, ["needs \"shardCount\""])
    }
}
