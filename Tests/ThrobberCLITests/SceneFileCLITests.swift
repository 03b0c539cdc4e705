import Foundation
import Testing
import ThrobberTestSupport

/// Scene files as a user meets them (docs/scene-files.md): `render FILE`, a job's `"scene"`
/// resolved against the job file, and every mistake one line `FILE:LINE:COLUMN: …` naming the
/// field, the value, what is allowed and the nearest name, exit 65, nothing written.
@Suite(.serialized)
struct SceneFileCLITests {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../examples/scenes/three-bounce.scene.json").standardizedFileURL

    /// (what is replaced in the example, by what, what the message must hold).
    static let mistakes: [(String, String, [String])] = [
        (#""type": "disc", "id": "dot","#, #""type": "disc", "id": "dot", "raduis": 1,"#,
         ["dots.scene.json:39:", "unknown key 'raduis'", "did you mean 'radius'?"]),
        (#""center": ["dotSize / 2", "dotSize / 2"]"#, #""center": ["dotsize / 2", "dotSize / 2"]"#,
         ["dots.scene.json:40:", "unknown name 'dotsize'", "did you mean 'dotSize'?"]),
        (#""format": "throbber-scene/1""#, #""format": "throbber-scene/2""#, ["dots.scene.json:3:13:", "this throbber reads throbber-scene/1"]),
        (#""keyTimes": [0, 0.4, 0.8, 1]"#, #""keyTimes": [0, 0.5, 0.4, 1]"#, ["dots.scene.json:43:", "key times in [0, 1]"]),
        (#""clock": "bounce","#, #""clock": "bounse","#, ["dots.scene.json:42:", "unknown clock 'bounse'", "did you mean 'bounce'?"]),
        (#"{ "name": "gap","#, #"{ "name": "scale","#, ["dots.scene.json:11:", "parameter name 'scale' is reserved"]),
        (#""instance": { "translate": ["dotSize + gap", 0] }"#, #""instance": { "translate": ["dotSize + gap", 0], "scale": [1, 2] }"#,
         ["dots.scene.json:35:", "scale is one number"]),
        (#""values": [0, "dotSize / 2", 0, 0]"#, #""values": [0, "dotSize / 2", 0]"#, ["dots.scene.json:43:", "4 keyTimes and 3 values"]),
        (#"{ "type": "disc", "id": "dot","#, #"{ "type": "text", "text": "x", "size": 4, "at": [0, 0], "color": "color" }, { "type": "disc", "id": "dot","#,
         ["dots.scene.json:39:", "a text node may not sit in a replicator"]),
        (#"{ "type": "disc", "id": "dot","#, #"{ "type": "polyline", "points": [[0, 0], [1, 1], [2, 0], [3, 1]], "width": 1, "color": "color" }, { "type": "disc", "id": "dot","#,
         ["dots.scene.json:39:", "has 4 points: a polyline has 2 or 3"]),
        (#"{ "name": "gap","#, #"{ "name": "label", "type": "string", "default": "a\u0007b", "summary": "x" }, { "name": "gap","#,
         ["dots.scene.json:11:", "control character U+0007"]),
    ]

    @Test(arguments: mistakes)
    func aMistakeInAFileIsOneLineExit65AndWritesNothing(original: String, replacement: String, fragments: [String]) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = try String(contentsOf: Self.example, encoding: .utf8)
        #expect(text.contains(original), "the example no longer holds \(original)")
        try Data(text.replacingOccurrences(of: original, with: replacement).utf8).write(to: directory.appendingPathComponent("dots.scene.json"))
        let render = try runThrobber(["render", "./dots.scene.json", "-o", "out", "--backend", "cpu"], in: directory)
        #expect(render.status == 65, "\(render.stderr)")
        for fragment in fragments { #expect(render.stderr.contains(fragment), "\(render.stderr)") }
        #expect(render.stderr.split(separator: "\n").count == 1, "\(render.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["dots.scene.json"])
    }

    @Test func aFileRendersFromTheCommandLineAndFromAJob() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("spinners"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.example, to: directory.appendingPathComponent("spinners/dots.scene.json"))
        let render = try runThrobber(["render", "spinners/dots.scene.json", "--frames", "3", "--set", "gap=10", "-o", "out",
                                      "--backend", "cpu", "-q"], in: directory)
        #expect(render.status == 0, "\(render.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("out").path).sorted()
                == ["three-bounce_00000.png", "three-bounce_00001.png", "three-bounce_00002.png"])

        // In a job file the path is relative to the job, and "loop": true takes the clock's 1.4 s.
        try Data(#"{"renders": [{"scene": "dots.scene.json", "name": "dots", "loop": true, "outputs": [{"type": "png", "pattern": "frames/{name}_%05d.png"}]}]}"#.utf8)
            .write(to: directory.appendingPathComponent("spinners/job.json"))
        let batch = try runThrobber(["batch", "spinners/job.json", "--backend", "cpu"], in: directory)
        #expect(batch.status == 0, "\(batch.stderr)")
        #expect(batch.stderr.contains("loops every 1.4 s (84 frames)"), "\(batch.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("spinners/frames").path).count == 84)

        // A parameter out of its declared range is a usage error, exit 64.
        let bad = try runThrobber(["render", "spinners/dots.scene.json", "--set", "dotSize=-1", "-o", "bad", "--backend", "cpu"], in: directory)
        #expect(bad.status == 64 && bad.stderr.contains("invalid dotSize '-1'"), "\(bad.stderr)")
        // A missing file says so, exit 66.
        let missing = try runThrobber(["render", "spinners/none.scene.json", "-o", "bad", "--backend", "cpu"], in: directory)
        #expect(missing.status == 66 && missing.stderr.contains("none.scene.json"), "\(missing.stderr)")
    }
    @Test func parityDrawsAFileScenesRandomCasesAndNamesItsFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: Self.example, to: directory.appendingPathComponent("dots.scene.json"))
        let parity = try runThrobber(["parity", "--scenes", "./dots.scene.json,ring", "--random", "4", "--seed", "9", "--backend", "cpu",
                                      "--dry-run"], in: directory)
        #expect(parity.status == 0, "\(parity.stderr)")
        let lines = parity.stdout.split(separator: "\n")
        // Four random cases of each scene; the file's reproduce with the file's path.
        #expect(lines.filter { $0.hasPrefix("three-bounce #") }.count == 4, "\(parity.stdout)")
        #expect(lines.filter { $0.hasPrefix("ring #") }.count == 4, "\(parity.stdout)")
        #expect(lines.filter { $0.hasPrefix("three-bounce #") }.allSatisfy { $0.contains(" render ./dots.scene.json ") }, "\(parity.stdout)")
        // A case's command draws that case: run the first.
        let first = try #require(lines.first { $0.hasPrefix("three-bounce #0") })
        let words = first.components(separatedBy: " — ")[1].split(separator: " ").dropFirst().map(String.init)
        let render = try runThrobber(words.map { $0 == "parity-repro" ? "repro" : $0 }, in: directory)
        #expect(render.status == 0, "\(render.stderr)")
    }

    @Test func aFileScenesFrameReproducesFromItsFileAndOnlyFromTheSameBytes() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: Self.example, to: directory.appendingPathComponent("dots.scene.json"))
        let render = try runThrobber(["render", "./dots.scene.json", "--frames", "2", "--start", "0.3", "--set", "gap=9", "--scale", "2",
                                      "-o", "out", "--backend", "cpu", "-q"], in: directory)
        #expect(render.status == 0, "\(render.stderr)")
        let frame = "out/three-bounce_00001.png"
        let same = try runThrobber(["reproduce", frame], in: directory)
        #expect(same.status == 0 && same.stdout.hasPrefix("same "), "\(same.stdout)\(same.stderr)")

        // Moved: the frame says where it was; --scene-file says where it is now.
        try FileManager.default.moveItem(at: directory.appendingPathComponent("dots.scene.json"), to: directory.appendingPathComponent("moved.json"))
        let missing = try runThrobber(["reproduce", frame], in: directory)
        #expect(missing.status == 66 && missing.stderr.contains("--scene-file"), "\(missing.stderr)")
        let found = try runThrobber(["reproduce", frame, "--scene-file", "moved.json"], in: directory)
        #expect(found.status == 0, "\(found.stderr)")

        // Changed: refused, whatever the change.
        let moved = directory.appendingPathComponent("moved.json")
        try Data((try String(contentsOf: moved, encoding: .utf8) + "\n").utf8).write(to: moved)
        let changed = try runThrobber(["reproduce", frame, "--scene-file", "moved.json"], in: directory)
        #expect(changed.status == 65 && changed.stderr.contains("changed since"), "\(changed.stderr)")
    }

    @Test func aFrameThatCannotBeDrawnStopsTheRunBeforeAnythingIsWritten() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // An overshooting curve takes the radius below 0 as the dots shrink, from t = 0.56 s on;
        // with no stagger every dot starts at radius 0, so frame 0 alone is fine.
        let text = try String(contentsOf: Self.example, encoding: .utf8)
            .replacingOccurrences(of: #""ease-in-out": "ease-in-out","#, with: #""ease-in-out": { "cubicBezier": [0.2, 1.6, 0.7, 1.6] },"#)
            .replacingOccurrences(of: #""default": 0.16"#, with: #""default": 0"#)
        try Data(text.utf8).write(to: directory.appendingPathComponent("over.scene.json"))
        let one = try runThrobber(["render", "./over.scene.json", "--frames", "1", "-o", "one", "--backend", "cpu", "-q"], in: directory)
        #expect(one.status == 0, "\(one.stderr)")
        let many = try runThrobber(["render", "./over.scene.json", "--frames", "84", "-o", "many", "--backend", "cpu"], in: directory)
        #expect(many.status == 65 && many.stderr.contains("radius = -") && many.stderr.contains("a length is at least 0 at t = "), "\(many.stderr)")
        #expect(many.stderr.split(separator: "\n").count == 1, "\(many.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("many").path))
    }
    @Test func textFromAStringParameterIsDrawnAndReproduced() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let badge = Self.example.deletingLastPathComponent().appendingPathComponent("done-badge.scene.json")
        try FileManager.default.copyItem(at: badge, to: directory.appendingPathComponent("badge.scene.json"))
        for (directoryName, status) in [("a", "Done"), ("b", "Gespeichert ✓")] {
            let render = try runThrobber(["render", "./badge.scene.json", "--start", "1", "--set", "status=\(status)", "-o", directoryName,
                                          "--backend", "cpu", "-q"], in: directory)
            #expect(render.status == 0, "\(render.stderr)")
            let again = try runThrobber(["reproduce", "\(directoryName)/done-badge_00000.png"], in: directory)
            #expect(again.status == 0 && again.stdout.hasPrefix("same "), "\(again.stdout)\(again.stderr)")
        }
        // The status is painted: the two frames differ, and only below the check mark.
        let compare = try runThrobber(["compare", "a/done-badge_00000.png", "b/done-badge_00000.png"], in: directory)
        #expect(compare.status == 1, "\(compare.stdout)")
    }
}
