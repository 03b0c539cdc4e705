import Foundation
import Testing
import Throbber
import ThrobberPNG
import ThrobberTestSupport

/// Sheets as TexturePacker writes them: trimmed, aliased, padded and extruded frames packed on
/// pages named by `{page}`, JSON Array atlases and a Phaser multi-atlas. Every frame is put back
/// together from its page as PixiJS does (its pixels at spriteSourceSize in a transparent
/// sourceSize frame) and compared with its PNG; scripts/browser-test does the same in Chromium.
@Suite(.serialized)
struct PackedSheetTests {
    let sheetTests = SheetPageTests()

    /// The frame `entry` describes, put back together from `page`.
    func restore(_ entry: [String: Any], from page: Image) throws -> Image {
        let rect = try #require(entry["frame"] as? [String: Int]), source = try #require(entry["spriteSourceSize"] as? [String: Int])
        let size = try #require(entry["sourceSize"] as? [String: Int])
        #expect(rect["w"] == source["w"] && rect["h"] == source["h"] && entry["rotated"] as? Bool == false)
        let sprite = sheetTests.slice(page, x: rect["x"]!, y: rect["y"]!, w: rect["w"]!, h: rect["h"]!)
        var pixels = [UInt8](repeating: 0, count: size["w"]! * size["h"]! * 4)
        for y in 0..<sprite.height {
            let to = ((source["y"]! + y) * size["w"]! + source["x"]!) * 4
            pixels.replaceSubrange(to..<to + sprite.width * 4, with: sprite.pixels[(y * sprite.width * 4)..<((y + 1) * sprite.width * 4)])
        }
        return Image(width: size["w"]!, height: size["h"]!, pixels: pixels)
    }

    @Test(arguments: [("activity", 0.5, 2, 1, "array"), ("wave-ball", 0.4, 0, 0, "hash"), ("ring", 0.5, 3, 2, "hash")])
    func everyFrameOfAPackedSheetIsItsPNG(scene: String, scale: Double, padding: Int, extrude: Int, format: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let job = """
            {"renders": [{"scene": "\(scene)", "loop": true, "fps": 30, "scale": \(scale),
              "outputs": [{"type": "png", "pattern": "frames/f_%03d.png"},
                          {"type": "sheet", "path": "sheets/s-{page}.png", "maxSize": 300, "trim": true, "alias": true,
                           "padding": \(padding), "extrude": \(extrude), "format": "\(format)", "multiatlas": "sheets/all.json"}]}]}
            """
        let path = try sheetTests.write(job, in: directory)
        let result = try runThrobber(["batch", path, "--backend", "cpu"])
        #expect(result.status == 0, "\(result.stderr)")
        let frames = try listing(directory.appendingPathComponent("frames")).map { String($0.dropLast(4)) }
        let multi = try sheetTests.json(directory.appendingPathComponent("sheets/all.json"))
        let textures = try #require(multi["textures"] as? [[String: Any]])
        var stored = 0, seen: [String] = []
        for (number, texture) in textures.enumerated() {
            #expect(texture["image"] as? String == "s-\(number).png")
            let page = try PNGCodec.decode(Data(contentsOf: directory.appendingPathComponent("sheets/s-\(number).png")))
            let atlas = try sheetTests.json(directory.appendingPathComponent("sheets/s-\(number).json"))
            let meta = try #require(atlas["meta"] as? [String: Any])
            #expect(meta["size"] as? [String: Int] == ["w": page.width, "h": page.height] && page.width <= 300 && page.height <= 300)
            // The whole animation on the first page, in order: loading it (and the pages it
            // lists) plays the clip; the other pages list only their own frames.
            #expect((meta["animations"] as? [String: [String]])?[scene] == (number == 0 ? frames : nil))
            let listed: [(String, [String: Any])] = format == "array"
                ? try #require(atlas["frames"] as? [[String: Any]]).map { ($0["filename"] as! String, $0) }
                : try #require(atlas["frames"] as? [String: [String: Any]]).map { ($0.key, $0.value) }
            var rects = Set<String>()
            for (name, entry) in listed {
                seen.append(name)
                let png = try PNGCodec.decode(Data(contentsOf: directory.appendingPathComponent("frames/\(name).png")))
                let restored = try restore(entry, from: page)
                #expect(restored.pixels == png.pixels, "\(name) on page \(number) is not its PNG")
                let rect = try #require(entry["frame"] as? [String: Int])
                rects.insert("\(rect["x"]!),\(rect["y"]!),\(rect["w"]!),\(rect["h"]!)")
                // Extruded edges: the pixels around the frame repeat its outermost ones.
                if extrude > 0, let rect = entry["frame"] as? [String: Int] {
                    let corner = sheetTests.slice(page, x: rect["x"]! - extrude, y: rect["y"]! - extrude, w: 1, h: 1)
                    #expect(corner.pixels == sheetTests.slice(page, x: rect["x"]!, y: rect["y"]!, w: 1, h: 1).pixels, "\(name): corner")
                }
            }
            stored += rects.count
            // (A JSON Hash read by JSONSerialization loses its order: compare as sets.)
            #expect((texture["frames"] as? [[String: Any]])?.map { $0["filename"] as! String }.sorted() == listed.map(\.0).sorted())
        }
        #expect(seen.sorted() == frames, "every frame under its name on exactly one page")
        // The activity spinner steps through 12 leaves: 30 frames, 12 stored.
        if scene == "activity" { #expect(stored == 12, "\(stored) stored") } else { #expect(stored <= frames.count) }
        #expect(result.stderr.contains("\(textures.count) page\(textures.count == 1 ? "" : "s") ("), "\(result.stderr)")
        // The manifest lists what was written, and verify finds it whole.
        let verify = try runThrobber(["verify", directory.appendingPathComponent("job.manifest.json").path])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        // A resume keeps it all, byte for byte (the manifest records each page).
        let again = try runThrobber(["batch", path, "--backend", "cpu", "--skip-existing", "--quiet"])
        #expect(again.status == 0 && !again.stderr.contains("replaced"), "\(again.stderr)")
    }

    @Test(arguments: [
        (#""trim": "yes""#, "\"trim\" must be"),
        (#""padding": 300"#, "padding"),
        (#""extrude": -1"#, "extrude"),
        (#""format": "xml""#, "unknown format \"xml\""),
        (#""json": "s-{pages}.json""#, "unknown placeholder {pages}; did you mean {page}?"),
        (#""animation": """#, "invalid animation"),
        (#""fps": 0"#, "fps"),
    ])
    func badSheetSettingsAreOneLine(setting: String, message: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try sheetTests.write("""
            {"renders": [{"scene": "ring", "frames": 2, "outputs": [{"type": "sheet", "path": "s.png", \(setting)}]}]}
            """, in: directory)
        let result = try runThrobber(["batch", path, "--backend", "cpu"])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains(message) && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try listing(directory) == ["job.json"])
    }
}

extension PackedSheetTests {
    /// A packed page's tEXt says when its frames are, not where: `reproduce` refuses it in one
    /// line (exit 65) rather than render a grid that cannot match, and renders a plain grid's page.
    @Test func reproduceRefusesAPackedPageAndRendersAGridPage() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try sheetTests.write("""
            {"renders": [{"scene": "ring", "frames": 4, "scale": 0.3,
              "outputs": [{"type": "sheet", "path": "packed.png", "trim": true}, {"type": "sheet", "path": "grid.png"}]}]}
            """, in: directory)
        #expect(try runThrobber(["batch", path, "--backend", "cpu", "--quiet"]).status == 0)
        let packed = try runThrobber(["reproduce", directory.appendingPathComponent("packed.png").path, "--backend", "cpu"])
        #expect(packed.status == 65 && packed.stderr.contains("laid out by its atlas"), "\(packed.stderr)")
        #expect(packed.stderr.split(separator: "\n").count == 1, "\(packed.stderr)")
        let grid = try runThrobber(["reproduce", directory.appendingPathComponent("grid.png").path, "--backend", "cpu"])
        #expect(grid.status == 0, "\(grid.stdout)\(grid.stderr)")
    }
}
