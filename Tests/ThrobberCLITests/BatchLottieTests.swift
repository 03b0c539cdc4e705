import Foundation
import Testing
import ThrobberTestSupport

/// `throbber batch` with a `lottie` output, run as a user would (docs/batches.md "Outputs").
@Suite(.serialized)
struct BatchLottieTests {
    /// Beside PNG frames at two scales: one Lottie and one dotLottie, each written once, the
    /// clip's span at scale 1 — the bytes `throbber export` writes for that span — reported,
    /// verified, and refused (73) on a second run without `--overwrite`.
    @Test func aBatchWritesTheClipAsLottieBesideItsFrames() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let job = directory.appendingPathComponent("job.json")
        try """
            {"renders": [{"scene": "ring", "scales": [1, 2], "frames": 6, "fps": 12,
                          "outputs": [{"type": "png", "pattern": "f/{name}@{scale}x_%02d.png"},
                                      {"type": "lottie", "path": "l/{name}.json"}, {"type": "lottie", "path": "l/{name}.lottie"}]}]}
            """.write(to: job, atomically: true, encoding: .utf8)
        let result = try runThrobber(["batch", job.path, "--backend", "cpu"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = directory.appendingPathComponent("l/ring.json")
        #expect(result.stderr.contains("batch: ring@1x → \(json.path): Lottie of 6 frames at 12 fps from t = 0 s, exported at scale 1"),
                "\(result.stderr)")
        #expect(try listing(directory.appendingPathComponent("l")) == ["ring.json", "ring.lottie"])
        #expect(try listing(directory.appendingPathComponent("f")).count == 12)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        #expect(root["w"] as? Int == 84 && root["h"] as? Int == 84 && root["fr"] as? Double == 12 && root["op"] as? Double == 6,
                "\(root["w"] ?? "") \(root["h"] ?? "") \(root["fr"] ?? "") \(root["op"] ?? "")")
        let exported = directory.appendingPathComponent("export.json")
        #expect(try runThrobber(["export", "ring", "--fps", "12", "--duration", "0.5", "-o", exported.path, "-q"]).status == 0)
        #expect(try Data(contentsOf: exported) == Data(contentsOf: json), "the batch writes what `throbber export` writes for the span")
        let verify = try runThrobber(["verify", directory.appendingPathComponent("job.manifest.json").path])
        #expect(verify.status == 0 && verify.stdout.contains("2/2 artifacts"), "\(verify.stdout)\(verify.stderr)")
        let before = try Data(contentsOf: json)
        let again = try runThrobber(["batch", job.path, "--backend", "cpu"])
        #expect(again.status == 73 && again.stderr.contains("--overwrite"), "\(again.stderr)")
        #expect(try Data(contentsOf: json) == before)
    }
}
