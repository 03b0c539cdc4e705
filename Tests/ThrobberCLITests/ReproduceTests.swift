import Foundation
import Testing
import Throbber
import ThrobberPNG
import ThrobberTestSupport

/// `throbber reproduce` as a user runs it: frames, loop frames, sheets and previews render
/// again from their own tEXt; a changed chunk or a foreign PNG is told apart.
@Suite(.serialized)
struct ReproduceTests {
    @Test func framesSheetsAndPreviewsRenderAgain() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A loop (retimed parts), parameters away from the defaults, a transparent background.
        let job = """
            {"renders": [{"scene": "wave-ball", "name": "wb", "loop": true, "fps": 10, "scale": 0.37,
              "parameters": {"tickCount": 7, "progress": 0.61, "frontWater": "#ff000080"},
              "outputs": [{"type": "png", "pattern": "f/{name}_%03d.png"},
                          {"type": "sheet", "path": "s.png", "json": "s.json", "columns": 6}]}]}
            """
        try Data(job.utf8).write(to: directory.appendingPathComponent("job.json"))
        let batch = try runThrobber(["batch", directory.appendingPathComponent("job.json").path, "-q"])
        #expect(batch.status == 0, "\(batch.stderr)")
        let frames = try listing(directory.appendingPathComponent("f"))
        #expect(frames.count >= 20)
        for file in ["f/\(frames[0])", "f/\(frames[frames.count / 2])", "f/\(frames.last!)", "s.png"] {
            let result = try runThrobber(["reproduce", directory.appendingPathComponent(file).path])
            #expect(result.status == 0, "\(file): \(result.stdout)\(result.stderr)")
            #expect(result.stdout.hasPrefix("same "), "\(result.stdout)")
        }
        // The atlas carries the clip's provenance and each frame's time.
        let atlas = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("s.json"))) as? [String: Any])
        let meta = try #require(atlas["meta"] as? [String: Any])
        let throbber = try #require(meta["throbber"] as? [String: String])
        #expect(throbber["scene"] == "wave-ball" && throbber["speeds"]?.contains("backPhase=") == true, "\(throbber)")
        // Named like the frame file: f/wb_001.png.
        let first = try #require((atlas["frames"] as? [String: Any])?["wb_001"] as? [String: Any])
        #expect(first["t"] as? Double != nil)

        let preview = directory.appendingPathComponent("p.png")
        #expect(try runThrobber(["preview", "ring", "--frames", "5", "--set", "style=dark", "-o", preview.path, "-q"]).status == 0)
        let again = try runThrobber(["reproduce", preview.path])
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")

        let gl = directory.appendingPathComponent("gl")
        #expect(try runThrobber(["render", "double-wave", "--start", "2.5", "--background", "none", "--backend", "gl", "-o", gl.path, "-q"]).status == 0)
        let onGL = try runThrobber(["reproduce", gl.appendingPathComponent("double-wave_00000.png").path])
        #expect(onGL.status == 0 && onGL.stdout.contains("against gl"), "\(onGL.stdout)\(onGL.stderr)")
        let onCPU = try runThrobber(["reproduce", gl.appendingPathComponent("double-wave_00000.png").path, "--backend", "cpu", "--max-diff", "2"])
        #expect(onCPU.status == 0 && onCPU.stdout.contains("against cpu"), "\(onCPU.stdout)\(onCPU.stderr)")
    }

    @Test func aChangedChunkOrAForeignPNGIsToldApart() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try runThrobber(["render", "activity", "--start", "0.3", "-o", directory.path, "-q"]).status == 0)
        let frame = directory.appendingPathComponent("activity_00000.png")
        let data = try Data(contentsOf: frame)
        let image = try PNGCodec.decode(data)
        // The same pixels, labelled with another time: the leaves have stepped on.
        let moved = try PNGCodec.textChunks(data).map { $0.0 == "Throbber:time" ? ($0.0, "0.55") : $0 }
        let retimed = directory.appendingPathComponent("retimed.png")
        try PNGCodec.encode(image, text: moved).write(to: retimed)
        let different = try runThrobber(["reproduce", retimed.path])
        #expect(different.status == 1, "\(different.stdout)\(different.stderr)")
        #expect(different.stdout.hasPrefix("DIFFERENT "), "\(different.stdout)")
        // No tEXt at all: one line, bad data.
        let bare = directory.appendingPathComponent("bare.png")
        try PNGCodec.encode(image).write(to: bare)
        let foreign = try runThrobber(["reproduce", bare.path])
        #expect(foreign.status == 65)
        #expect(foreign.stderr.contains("no Throbber:scene tEXt chunk") && foreign.stderr.split(separator: "\n").count == 1, "\(foreign.stderr)")
        #expect(try runThrobber(["reproduce"]).status == 64)
        #expect(try runThrobber(["reproduce", frame.path, "--backend", "vulkan"]).status == 64)
    }
}
