import Foundation
import Testing
import Throbber
import ThrobberCPU
import ThrobberPNG
import ThrobberTestSupport

/// The PNG encoders from the command line and job files, the built `throbber` binary run as a user
/// would: every encoder writes the same pixels and tEXt, `auto` chooses from the frames and says
/// so, and a job's settings reach each output.
@Suite(.serialized)
struct CLIPNGTests {
    /// Every --png-encoder writes the pixels and tEXt the default (auto: chosen from the clip's
    /// first two frames) does, and render's report line says what auto chose and why; the job
    /// file's "pngEncoder" reaches batch's frames too.
    @Test func pngEncodersWriteTheSameFramesFromRenderAndBatch() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var line = ""
        func frame(_ encoder: [String], number: Int = 0) throws -> Data {
            let output = directory.appendingPathComponent(encoder.joined(separator: "-").isEmpty ? "default" : encoder.joined(separator: "-"))
            if number == 0 {
                let result = try runThrobber(["render", "ring", "-o", output.path, "--start", "0.3", "--frames", "3", "--backend", "cpu"] + encoder)
                #expect(result.status == 0, "\(encoder): \(result.stderr)")
                line = result.stderr
            }
            return try Data(contentsOf: output.appendingPathComponent("ring_0000\(number).png"))
        }
        let reference = try frame([])
        let pixels = try PNGCodec.decode(reference)
        let text = try PNGCodec.textChunks(reference)
        let automatic = try PNGEncoder.automatic.choice(for: try PNGCodec.decode(try frame([], number: 1)), previous: pixels)
        #expect(line.contains("; PNG \(automatic)\n"), "render's line names auto's choice and why: \(line)")
        let byDefault = try reference == automatic.encoder.encode(pixels, text: text)
        #expect(byDefault, "the default is auto, chosen from frames 0 and 1")
        for encoder in [["--png-encoder", "libpng"], ["--png-encoder", "isal", "--png-level", "3"], ["--png-encoder", "libdeflate", "--png-level", "12"],
                        ["--png-encoder", "fast"], ["--png-encoder", "compact"], ["--png-encoder", "small"]] {
            let data = try frame(encoder)
            // Only the setting auto chose writes auto's bytes.
            let named = try PNGEncoder(name: encoder[1], level: encoder.count > 3 ? Int(encoder[3]) : nil)
            #expect((data == reference) == (named == automatic.encoder), "\(encoder) against auto's \(automatic)")
            let same = try PNGCodec.decode(data) == pixels
            #expect(same, "\(encoder)")
            #expect(try PNGCodec.textChunks(data).map { "\($0.0)=\($0.1)" } == text.map { "\($0.0)=\($0.1)" })
        }
        let job = directory.appendingPathComponent("job.json")
        try "{\"pngEncoder\": \"isal\", \"backend\": \"cpu\", \"renders\": [{\"scene\": \"ring\", \"start\": 0.3, \"outputs\": [{\"type\": \"png\", \"pattern\": \"batch/ring_%05d.png\", \"level\": 3}]}]}"
            .write(to: job, atomically: true, encoding: .utf8)
        let batch = try runThrobber(["batch", job.path, "--quiet"])
        #expect(batch.status == 0, "\(batch.stderr)")
        let data = try Data(contentsOf: directory.appendingPathComponent("batch/ring_00000.png"))
        let same = try PNGCodec.decode(data) == pixels
        #expect(same && data != reference)
        #expect(try data == PNGEncoder.isal(level: 3).encode(pixels, text: PNGCodec.textChunks(data)), "isal at the output's level 3")
    }

    /// A job's PNG settings: the job's "pngEncoder"/"pngLevel", an output's own "encoder"/"level",
    /// sheets at `compact` unless told otherwise, and one line for each mistake.
    @Test func jobPNGSettingsReachEachOutput() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func run(_ top: String, _ outputs: String) throws -> CommandResult {
            let job = directory.appendingPathComponent("job.json")
            try "{\(top) \"backend\": \"cpu\", \"renders\": [{\"scene\": \"activity\", \"frames\": 2, \"outputs\": [\(outputs)]}]}"
                .write(to: job, atomically: true, encoding: .utf8)
            return try runThrobber(["batch", job.path, "--quiet", "--overwrite"], in: directory)
        }
        func file(_ name: String) throws -> (Data, Image, [(String, String)]) {
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            return (data, try PNGCodec.decode(data), try PNGCodec.textChunks(data))
        }
        let frames = "{\"type\": \"png\", \"pattern\": \"f_%d.png\"}, {\"type\": \"sheet\", \"path\": \"s.png\"}"
        #expect(try run("", frames).status == 0)
        var (data, image, text) = try file("f_1.png")
        let first = try file("f_0.png").1
        #expect(try data == PNGEncoder.automatic.choice(for: image, previous: first).encoder.encode(image, text: text))
        (data, image, text) = try file("s.png")
        #expect(try data == PNGEncoder.zlib(level: 8).encode(image, text: text), "a sheet is compact by default")
        // The job's encoder and level go to frames and sheets alike.
        #expect(try run("\"pngEncoder\": \"libpng\", \"pngLevel\": 2,", frames).status == 0)
        (data, image, text) = try file("f_1.png")
        #expect(try data == PNGEncoder.libpng(level: 2).encode(image, text: text))
        (data, image, text) = try file("s.png")
        #expect(try data == PNGEncoder.libpng(level: 2).encode(image, text: text))
        // An output's own encoder wins, without the job's level.
        #expect(try run("\"pngEncoder\": \"libdeflate\", \"pngLevel\": 9,", "{\"type\": \"png\", \"pattern\": \"f_%d.png\", \"encoder\": \"fast\"}, "
                        + "{\"type\": \"sheet\", \"path\": \"s.png\", \"encoder\": \"isal\", \"level\": 0}").status == 0)
        (data, image, text) = try file("f_1.png")
        #expect(try data == PNGEncoder.isal(level: 1).encode(image, text: text))
        (data, image, text) = try file("s.png")
        #expect(try data == PNGEncoder.isal(level: 0).encode(image, text: text))
        // `auto` on a sheet chooses from the page itself, as for frames from the clip's: the
        // report names the choice and why, for the frames and for the sheet.
        let job = directory.appendingPathComponent("job.json")
        try "{\"backend\": \"cpu\", \"renders\": [{\"scene\": \"activity\", \"frames\": 2, \"outputs\": [\(frames.replacingOccurrences(of: "\"s.png\"}", with: "\"s.png\", \"encoder\": \"auto\"}"))]}]}"
            .write(to: job, atomically: true, encoding: .utf8)
        let reported = try runThrobber(["batch", job.path, "--overwrite"], in: directory)
        #expect(reported.status == 0, "\(reported.stderr)")
        (data, image, text) = try file("s.png")
        let page = try PNGEncoder.automatic.choice(for: image)
        #expect(try data == page.encoder.encode(image, text: text))
        #expect(reported.stderr.contains("; PNG \(page)\n"), "the sheet's line names auto's choice: \(reported.stderr)")
        (data, image, text) = try file("f_1.png")
        let clip = try PNGEncoder.automatic.choice(for: image, previous: try file("f_0.png").1)
        #expect(reported.stderr.contains(": PNG \(clip)\n"), "a line names auto's choice for the clip's frames: \(reported.stderr)")
        // Mistakes: one line each, naming the key, the value and what is allowed.
        for (top, outputs, message) in [
            ("\"pngEncoder\": \"zopfli\",", frames, "unknown pngEncoder \"zopfli\" (known: auto, libpng, libdeflate, isal, zlib, fast, small, compact)"),
            ("\"pngEncoder\": \"small\", \"pngLevel\": 3,", frames, "invalid pngLevel 3: no level with 'small', which is libdeflate at level 12"),
            ("", "{\"type\": \"png\", \"encoder\": \"isal\", \"level\": 7}", "invalid level 7: an integer in [0, 3] for isal"),
            ("", "{\"type\": \"sheet\", \"level\": 2}", "invalid level 2: no level with 'compact', which is zlib at level 8"),
            ("\"pngEncoder\": \"libdeflate\",", "{\"type\": \"png\", \"level\": \"max\"}", "\"level\" must be an integer in [0, 12], not a string"),
        ] {
            let result = try run(top, outputs)
            #expect(result.status == 65 && result.stderr.contains(message), "\(top) \(outputs): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
    }

    /// `preview` writes its sheet with any encoder: the same pixels, `compact` (zlib 8) by default.
    @Test func previewSheetsTakeEveryEncoder() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func sheet(_ encoder: [String]) throws -> Data {
            let output = directory.appendingPathComponent("sheet\(encoder.joined()).png")
            let result = try runThrobber(["preview", "activity", "--frames", "4", "--backend", "cpu", "-o", output.path] + encoder)
            #expect(result.status == 0, "\(encoder): \(result.stderr)")
            return try Data(contentsOf: output)
        }
        let reference = try sheet([])
        let pixels = try PNGCodec.decode(reference)
        // The sheet carries its provenance (tEXt), as every PNG the tool writes does.
        let compact = try reference == PNGEncoder.zlib(level: 8).encode(pixels, text: PNGCodec.textChunks(reference))
        #expect(compact, "the default sheet is zlib at level 8")
        for encoder in [["--png-encoder", "libpng"], ["--png-encoder", "isal", "--png-level", "0"], ["--png-encoder", "fast"], ["--png-encoder", "small"]] {
            let data = try sheet(encoder)
            let same = try PNGCodec.decode(data) == pixels
            #expect(same && data != reference, "\(encoder)")
        }
        let bad = try runThrobber(["preview", "activity", "-o", directory.appendingPathComponent("x.png").path, "--png-encoder", "isal", "--png-level", "5"])
        #expect(bad.status == 64 && bad.stderr.contains("invalid --png-level '5': an integer in [0, 3]"), "\(bad.stderr)")
    }
}
