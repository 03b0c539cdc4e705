import Foundation
import Testing
import Throbber
import ThrobberPNG
import ThrobberTestSupport

/// `throbber export` as a user runs it (docs/lottie.md "Export"): a Lottie file or a dotLottie
/// archive with its themes, the scene's own loop and rate, and nothing written or replaced on a
/// mistake.
@Suite(.serialized)
struct ExportCLITests {
    @Test func aSceneIsWrittenAsLottieThatThrobberRendersBack() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let export = try runThrobber(["export", "progress-ring", "--set", "progressEnd=1", "-o", "ring.json"], in: directory)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stderr.contains("ring.json (progress-ring") && export.stderr.contains("ringColor"), "\(export.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("ring.json")))
            as? [String: Any])
        #expect(root["w"] as? Int == 84 && root["h"] as? Int == 84 && root["fr"] as? Int == 60 && root["op"] as? Int == 60)
        // Throbber reads its own export back.
        let render = try runThrobber(["render", "ring.json", "--frames", "1", "--start", "0.5", "-o", "out", "--backend", "cpu", "-q"],
                                     in: directory)
        #expect(render.status == 0, "\(render.stderr)")
    }

    @Test func aDotLottieCarriesOneThemePerNamedParameterSet() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let export = try runThrobber(["export", "ring", "-o", "ring.lottie", "--theme", "dark", "--set", "style=dark",
                                      "--theme", "brand", "--set", "ringColor=#ff5722"], in: directory)
        #expect(export.status == 0, "\(export.stderr)")
        // Throbber's own reader opens it, theme by theme.
        for theme in ["dark", "brand"] {
            let render = try runThrobber(["render", "ring.lottie", "--set", "theme=\(theme)", "--frames", "1", "-o", theme,
                                          "--backend", "cpu", "-q"], in: directory)
            #expect(render.status == 0, "\(theme): \(render.stderr)")
        }
        let brand = try Data(contentsOf: directory.appendingPathComponent("brand/ring_00000.png"))
        let dark = try Data(contentsOf: directory.appendingPathComponent("dark/ring_00000.png"))
        #expect(try PNGCodec.decode(brand).width == 84)
        let (brandPixels, darkPixels) = (try PNGCodec.decode(brand).pixels, try PNGCodec.decode(dark).pixels)
        #expect(brandPixels != darkPixels)
    }

    @Test func mistakesAreOneLineAndWriteNothing() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let themeInJSON = try runThrobber(["export", "ring", "-o", "ring.json", "--theme", "dark", "--set", "style=dark"], in: directory)
        #expect(themeInJSON.status == 64 && themeInJSON.stderr.contains(".lottie"), "\(themeInJSON.stderr)")
        let scaled = try runThrobber(["export", "ring", "-o", "ring.json", "--scale", "2"], in: directory)
        #expect(scaled.status == 64 && scaled.stderr.contains("--scale"), "\(scaled.stderr)")
        let png = try runThrobber(["export", "ring", "-o", "ring.png"], in: directory)
        #expect(png.status == 64 && png.stderr.contains(".json"), "\(png.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)

        // Nothing of the user's is replaced unless asked.
        let mine = directory.appendingPathComponent("ring.json")
        try Data("mine".utf8).write(to: mine)
        let existing = try runThrobber(["export", "ring", "-o", "ring.json"], in: directory)
        #expect(existing.status == 73 && existing.stderr.contains("--overwrite"), "\(existing.stderr)")
        #expect(try String(contentsOf: mine, encoding: .utf8) == "mine")
        let replaced = try runThrobber(["export", "ring", "-o", "ring.json", "--overwrite", "-q"], in: directory)
        let written = try Data(contentsOf: mine)
        #expect(replaced.status == 0 && written.count > 1000, "\(replaced.stderr)")
    }

    @Test func whatLottieCannotHoldTheSameWayIsRefusedNamingIt() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A Lottie file whose dot is shown through a track matte: the export writes masks, not mattes.
        let shape = #""shapes":[{"ty":"el","p":{"a":0,"k":[50,50]},"s":{"a":0,"k":[40,40]}},{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}]"#
        let lottie = #"{"v":"5.7.0","fr":30,"ip":0,"op":30,"w":100,"h":100,"layers":["#
            + #"{"ty":4,"ind":1,"nm":"window","td":1,"ip":0,"op":30,"st":0,"ks":{},"# + shape + "},"
            + #"{"ty":4,"ind":2,"nm":"dot","tt":1,"ip":0,"op":30,"st":0,"ks":{},"# + shape + "}]}"
        try Data(lottie.utf8).write(to: directory.appendingPathComponent("matted.json"))
        let check = try runThrobber(["render", "matted.json", "--frames", "1", "-o", "r", "--backend", "cpu", "-q"], in: directory)
        try #require(check.status == 0, "the test's Lottie file must render: \(check.stderr)")
        let refused = try runThrobber(["export", "matted.json", "-o", "out.lottie"], in: directory)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("track matte") && refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.lottie").path))
    }
}
