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
        (#""type": "disc", "id": "dot","#, #""type": "text", "id": "dot","#, ["dots.scene.json:39:", "'text' nodes are not drawn by this version"]),
        (#""instance": { "translate": ["dotSize + gap", 0] }"#, #""instance": { "translate": ["dotSize + gap", 0], "scale": [1, 2] }"#,
         ["dots.scene.json:35:", "scale is one number"]),
        (#""values": [0, "dotSize / 2", 0, 0]"#, #""values": [0, "dotSize / 2", 0]"#, ["dots.scene.json:43:", "4 keyTimes and 3 values"]),
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
}
