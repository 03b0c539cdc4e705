import Foundation
import Testing
import Throbber
import ThrobberBatch
import ThrobberPNG
import ThrobberTestSupport

/// A HUD's life in one job (`"chain"`): consecutive links of one render written as one output,
/// run as a user runs it.
@Suite(.serialized)
struct ChainTests {
    /// Ring with "Loading…" for 1 s, then success with "Done" until its auto-dismissal, on a
    /// 120 × 160 pt screen at 20 fps.
    static let job = """
        {"backend": "cpu", "renders": [{"scene": "hud", "name": "life", "fps": 20, "scale": 1.5,
          "parameters": {"screen": "120x160", "mask": "black", "showAt": 0},
          "chain": [
            {"parameters": {"state": "ring", "status": "Loading…"}, "duration": 1},
            {"parameters": {"state": "success", "status": "Done", "showAt": 1, "fadeIn": 0, "dismissAt": "auto"}}
          ],
          "outputs": [{"type": "png", "pattern": "f/life_%03d.png"},
                      {"type": "sheet", "path": "s.png", "json": "s.json", "columns": 16},
                      {"type": "rgba", "path": "life.rgba"}]}]}
        """

    /// The frames the chain should have: 20 of the ring, then the success link through the
    /// first frame at or after its dismissal's end, 1 + 0 + max(0.06·4 + 0.5, 5) + 0.15 s.
    static let ringFrames = 20
    static let successFrames = Int(((6.15 - 1) * 20 - 1e-9).rounded(.up)) + 1

    func pixels(_ url: URL) throws -> Image { try PNGCodec.decode(Data(contentsOf: url)) }

    func chunk(_ key: String, of url: URL) throws -> String? {
        try PNGCodec.textChunks(Data(contentsOf: url)).first { $0.0 == key }?.1
    }

    @Test func aChainIsOneSequenceEachFrameDrawnByItsLink() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let jobFile = directory.appendingPathComponent("job.json")
        try Data(ChainTests.job.utf8).write(to: jobFile)
        let batch = try runThrobber(["batch", jobFile.path, "-q"])
        #expect(batch.status == 0, "\(batch.stderr)")
        let total = ChainTests.ringFrames + ChainTests.successFrames
        // One numbering across the links.
        let frames = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("f").path).sorted()
        #expect(frames == (0..<total).map { String(format: "life_%03d.png", $0) })
        func frame(_ k: Int) -> URL { directory.appendingPathComponent(String(format: "f/life_%03d.png", k)) }

        // Each frame is the frame its link's scene draws alone at the chain's time.
        let last = ChainTests.ringFrames - 1, first = ChainTests.ringFrames
        let links: [(k: Int, parameters: [String])] = [
            (0, ["state=ring", "status=Loading…", "showAt=0"]), (last, ["state=ring", "status=Loading…", "showAt=0"]),
            (first, ["state=success", "status=Done", "showAt=1", "fadeIn=0", "dismissAt=auto"]),
            (total - 4, ["state=success", "status=Done", "showAt=1", "fadeIn=0", "dismissAt=auto"]),
        ]
        for (k, parameters) in links {
            let alone = directory.appendingPathComponent("alone-\(k)")
            let render = try runThrobber(["render", "hud", "-o", alone.path, "--backend", "cpu", "--scale", "1.5", "--fps", "20",
                                          "--start", formatNumber(Double(k) / 20), "--set", "screen=120x160", "--set", "mask=black"]
                                         + parameters.flatMap { ["--set", $0] })
            #expect(render.status == 0, "\(render.stderr)")
            let expected = try pixels(alone.appendingPathComponent("hud_00000.png")), observed = try pixels(frame(k))
            #expect(expected.width == 180 && expected.height == 240)
            #expect(expected.pixels == observed.pixels, "frame \(k) differs from its link drawn alone")
            #expect(try chunk(FrameText.Key.time, of: frame(k)) == formatNumber(Double(k) / 20))
        }
        // The links differ where they meet, and each frame's provenance names its own link.
        #expect(try pixels(frame(last)).pixels != pixels(frame(first)).pixels)
        #expect(try chunk(FrameText.Key.parameters, of: frame(last))?.contains("state=ring") == true)
        #expect(try chunk(FrameText.Key.parameters, of: frame(first))?.contains("state=success") == true)
        #expect(try chunk(FrameText.Key.text, of: frame(first))?.contains("Done") == true)
        // The last frame is past the dismissal: the screen alone (mask gone, background none).
        #expect(try pixels(frame(total - 1)).pixels.allSatisfy { $0 == 0 })

        // The stream holds every frame in order, the same pixels as the PNGs.
        let stream = try Data(contentsOf: directory.appendingPathComponent("life.rgba"))
        #expect(stream.count == total * 180 * 240 * 4)
        for k in [last, first] {
            let slice = stream.subdata(in: k * 180 * 240 * 4 ..< (k + 1) * 180 * 240 * 4)
            #expect(Array(slice) == (try pixels(frame(k))).pixels, "stream frame \(k)")
        }
        // One sheet of every frame, which reproduce draws again link by link, and its frames.
        let sheet = directory.appendingPathComponent("s.png")
        #expect(try chunk(FrameText.Key.chain, of: sheet)?.hasPrefix("from=1\t") == true)
        for file in [sheet, frame(last), frame(first)] {
            let result = try runThrobber(["reproduce", file.path])
            #expect(result.status == 0 && result.stdout.hasPrefix("same "), "\(file.lastPathComponent): \(result.stdout)\(result.stderr)")
            #expect(!file.path.hasSuffix("s.png") || result.stdout.contains("\(total) cells"), "\(result.stdout)")
        }
        // A sheet whose chain chunk is dropped is drawn by the first link alone: reproduce tells.
        let chunks = try PNGCodec.textChunks(Data(contentsOf: sheet)).filter { $0.0 != FrameText.Key.chain }
        let stripped = directory.appendingPathComponent("stripped.png")
        try PNGCodec.encode(try pixels(sheet), text: chunks).write(to: stripped)
        let different = try runThrobber(["reproduce", stripped.path])
        #expect(different.status != 0 && different.stdout.hasPrefix("DIFFERENT"), "\(different.stdout)\(different.stderr)")

        // --skip-existing keeps every frame, each checked against its own link's provenance.
        let again = try runThrobber(["batch", jobFile.path, "--skip-existing"])
        #expect(again.status == 0 && again.stderr.contains("rendered 0 frames"), "\(again.stderr)")
    }

    /// A chain split over a job array: shards together write what one run writes, byte for byte
    /// (a shard's frames may start in the middle of a link), and verify accepts them.
    @Test(arguments: ["contiguous", "strided"])
    func shardsOfAChainEqualTheWholeRun(mode: String) throws {
        let whole = try temporaryDirectory(), sharded = try temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: whole)
            try? FileManager.default.removeItem(at: sharded)
        }
        for directory in [whole, sharded] { try Data(ChainTests.job.utf8).write(to: directory.appendingPathComponent("job.json")) }
        #expect(try runThrobber(["batch", whole.appendingPathComponent("job.json").path, "-q"]).status == 0)
        var manifests: [String] = []
        for k in 0..<3 {
            let shard = try runThrobber(["batch", sharded.appendingPathComponent("job.json").path, "--shard", "\(k)/3", "--shard-mode", mode, "-q"])
            #expect(shard.status == 0, "\(shard.stderr)")
            manifests.append(sharded.appendingPathComponent("job.shard-\(k)-of-3.manifest.json").path)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: whole.appendingPathComponent("f").path).map { "f/\($0)" }
            + ["s.png", "s.json", "life.rgba"]
        #expect(names.count == ChainTests.ringFrames + ChainTests.successFrames + 3)
        for name in names {
            let a = try Data(contentsOf: whole.appendingPathComponent(name)), b = try Data(contentsOf: sharded.appendingPathComponent(name))
            #expect(a == b, "\(name) differs between the sharded and the whole run")
        }
        let verify = try runThrobber(["verify"] + manifests)
        #expect(verify.status == 0 && verify.stdout.contains("all intact"), "\(verify.stdout)")
    }

    @Test(arguments: [
        // A link of another size: each link's status sizes its HUD when there is no screen.
        (#"{"parameters": {"state": "ring", "status": "Loading…"}, "frames": 3}, {"parameters": {"state": "success", "status": "Done and dusted"}, "frames": 3}"#,
         "", "chain link 2 draws", 65),
        (#"{"parameters": {"state": "ring"}}, {"parameters": {"state": "success"}, "frames": 3}"#,
         #""screen": "100x100","#, "chain link 1 needs \"frames\" or \"duration\"", 65),
        (#"{"parameters": {"state": "ring"}, "frames": 3}"#, #""screen": "100x100","#, "at least two link objects", 65),
        (#"{"parameters": {"state": "ring"}, "frames": 3}, {"parameters": {"state": "spin"}, "frames": 3}"#,
         #""screen": "100x100","#, "state", 65),
        (#"{"parameters": {"state": "ring"}, "frames": 30}, {"parameters": {"state": "success", "showAt": 0, "dismissAt": 0.2}}"#,
         #""screen": "100x100","#, "after its scene ends at", 65),
        (#"{"parameters": {"state": "ring"}, "frames": 3, "fps": 4}, {"parameters": {"state": "success"}, "frames": 3}"#,
         #""screen": "100x100","#, "unknown key \"fps\" in a chain link", 65),
    ])
    func badChainsAreRefusedAndNothingIsWritten(links: String, screen: String, message: String, status: Int32) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let jobFile = directory.appendingPathComponent("job.json")
        let parameters = screen.isEmpty ? "" : "\"parameters\": {\(screen.dropLast())},"
        try Data(#"{"renders": [{"scene": "hud", \#(parameters) "chain": [\#(links)], "outputs": [{"type": "sheet", "path": "s.png"}]}]}"#.utf8)
            .write(to: jobFile)
        let result = try runThrobber(["batch", jobFile.path, "-q"])
        #expect(result.status == status && result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["job.json"])
    }

    @Test func aChainGivesItsLengthOnlyInItsLinks() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for key in [#""frames": 4"#, #""loop": true"#, #""duration": 1"#] {
            let jobFile = directory.appendingPathComponent("job.json")
            try Data(#"{"renders": [{"scene": "hud", \#(key), "chain": [{"frames": 2}, {"frames": 2}]}]}"#.utf8).write(to: jobFile)
            let result = try runThrobber(["batch", jobFile.path, "-q"])
            #expect(result.status == 65 && result.stderr.contains("no render with \"chain\""), "\(key): \(result.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["job.json"])
        }
    }
}
