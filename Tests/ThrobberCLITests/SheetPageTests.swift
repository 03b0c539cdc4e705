import Foundation
import Testing
import Throbber
import ThrobberPNG
import ThrobberTestSupport

/// A `sheet` output larger than `maxSize` is split into pages as TexturePacker's multipack
/// splits one: numbered files, each page with its own atlas (the first listing the others), every frame on
/// exactly one page, every page claimed, listed in the manifest and reproducible.
@Suite(.serialized)
struct SheetPageTests {
    /// 60 ring frames of 50 × 50 px with their PNG files; a sheet of them at `maxSize` (none: the default).
    static func job(maxSize: Int?) -> String {
        """
        {"renders": [{"scene": "ring", "frames": 60, "parameters": {"hudSize": 50},
          "outputs": [{"type": "png", "pattern": "frames/{name}_%03d.png"},
                      {"type": "sheet", "path": "sheets/s.png"\(maxSize.map { ", \"maxSize\": \($0)" } ?? "")}]}]}
        """
    }

    func write(_ text: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent("job.json")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func json(_ url: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    /// The `w × h` px of `image` at (x, y).
    func slice(_ image: Image, x: Int, y: Int, w: Int, h: Int) -> Image {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(w * h * 4)
        for row in y..<y + h {
            let start = (row * image.width + x) * 4
            pixels += image.pixels[start..<start + w * 4]
        }
        return Image(width: w, height: h, pixels: pixels)
    }

    @Test func aSheetLargerThanMaxSizeIsSplitIntoPagesThatHoldEveryFrameOnce() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try write(SheetPageTests.job(maxSize: 256), in: directory)
        let result = try runThrobber(["batch", path, "--backend", "cpu", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let sheets = directory.appendingPathComponent("sheets")
        // 5 × 5 frames of 50 px fit 256 px: pages of 25, 25 and 10 frames.
        #expect(try listing(sheets) == ["s-0.json", "s-0.png", "s-1.json", "s-1.png", "s-2.json", "s-2.png"])
        let pngNames = (0..<60).map { String(format: "ring_%03d", $0) }
        var seen: [String: Int] = [:]
        for page in 0..<3 {
            let image = try PNGCodec.decode(Data(contentsOf: sheets.appendingPathComponent("s-\(page).png")))
            #expect(image.width <= 256 && image.height <= 256, "page \(page) is \(image.width)×\(image.height) px")
            let atlas = try json(sheets.appendingPathComponent("s-\(page).json"))
            let meta = try #require(atlas["meta"] as? [String: Any])
            #expect(meta["image"] as? String == "s-\(page).png")
            let size = try #require(meta["size"] as? [String: Int])
            #expect(size == ["w": image.width, "h": image.height])
            // The first page names the others (PixiJS loads them with it); the others name none.
            #expect(meta["related_multi_packs"] as? [String] == (page == 0 ? ["s-1.json", "s-2.json"] : nil))
            let frames = try #require(atlas["frames"] as? [String: [String: Any]])
            #expect(frames.count == (page < 2 ? 25 : 10))
            // The page's animation lists its own frames, in order (PixiJS finds them on this page
            // only); meta.animations the whole clip, on the first page alone.
            let animation = try #require((atlas["animations"] as? [String: [String]])?["ring"])
            #expect(animation == Array(pngNames[(25 * page)..<min(60, 25 * page + 25)]))
            #expect((meta["animations"] as? [String: [String]])?["ring"] == (page == 0 ? pngNames : nil))
            for (name, frame) in frames {
                seen[name, default: 0] += 1
                let rect = try #require(frame["frame"] as? [String: Int])
                let (x, y, w, h) = (rect["x"]!, rect["y"]!, rect["w"]!, rect["h"]!)
                #expect(w == 50 && h == 50 && x + w <= image.width && y + h <= image.height, "\(name): \(rect)")
                // The cell is the frame's own PNG, pixel for pixel.
                let file = directory.appendingPathComponent("frames/\(name).png")
                let expected = try PNGCodec.decode(Data(contentsOf: file))
                let cell = slice(image, x: x, y: y, w: w, h: h)
                #expect(cell == expected, "page \(page) at \(x),\(y) is not \(file.lastPathComponent)")
            }
        }
        // Frame names are the PNG frames' names, each on exactly one page.
        #expect(Set(seen.keys) == Set(pngNames))
        #expect(seen.values.allSatisfy { $0 == 1 }, "frames on more than one page: \(seen.filter { $0.value != 1 })")
        // The manifest lists every page and atlas, and verify checks them.
        let manifest = try json(directory.appendingPathComponent("job.manifest.json"))
        #expect(manifest["plannedArtifacts"] as? Int == 6)
        let artifacts = try #require(manifest["artifacts"] as? [[String: Any]])
        #expect(artifacts.compactMap { ($0["file"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } }.sorted()
                == ["s-0.json", "s-0.png", "s-1.json", "s-1.png", "s-2.json", "s-2.png"])
        let verify = try runThrobber(["verify", directory.appendingPathComponent("job.manifest.json").path])
        #expect(verify.status == 0 && verify.stdout.contains("60/60 frames, 6/6 artifacts: all intact"), "\(verify.stdout)\(verify.stderr)")
        // Each page renders again from its own tEXt: its own cells, in its own columns.
        for page in 0..<3 {
            let reproduce = try runThrobber(["reproduce", sheets.appendingPathComponent("s-\(page).png").path])
            #expect(reproduce.status == 0, "page \(page): \(reproduce.stdout)\(reproduce.stderr)")
            #expect(reproduce.stdout.contains("\(page < 2 ? 25 : 10) cells in \(page < 2 ? 5 : 4) columns"), "\(reproduce.stdout)")
        }
    }

    @Test func aSheetThatFitsOnePageKeepsItsPlainNames() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try write(SheetPageTests.job(maxSize: nil), in: directory)
        let result = try runThrobber(["batch", path, "--backend", "cpu", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try listing(directory.appendingPathComponent("sheets")) == ["s.json", "s.png"])
        let atlas = try json(directory.appendingPathComponent("sheets/s.json"))
        let meta = try #require(atlas["meta"] as? [String: Any])
        #expect(meta["image"] as? String == "s.png")
        #expect(meta["related_multi_packs"] == nil, "a single page lists no other pages")
        #expect((atlas["frames"] as? [String: Any])?.keys.sorted() == (0..<60).map { String(format: "ring_%03d", $0) })
        let image = try PNGCodec.decode(Data(contentsOf: directory.appendingPathComponent("sheets/s.png")))
        #expect(image.width == 8 * 50 && image.height == 8 * 50, "the squarest grid of 60 frames: \(image.width)×\(image.height)")
    }

    @Test func frameNamesFollowTheDefaultPatternWithoutAPNGOutput() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try write(#"{"renders": [{"scene": "ring", "scale": 2, "frames": 3, "outputs": [{"type": "sheet", "path": "s.png"}]}]}"#,
                             in: directory)
        let result = try runThrobber(["batch", path, "--backend", "cpu", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let atlas = try json(directory.appendingPathComponent("s.json"))
        #expect((atlas["frames"] as? [String: Any])?.keys.sorted() == ["ring@2x_00000", "ring@2x_00001", "ring@2x_00002"])
    }

    /// A resume keeps an atlas that reads as the one it would write, whatever its layout (an
    /// atlas written before the JSON went through JSONEncoder laid it out by hand), and replaces
    /// one whose values differ.
    @Test func aResumeKeepsAnAtlasByItsValuesNotItsLayout() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try write(#"{"renders": [{"scene": "ring", "frames": 3, "outputs": [{"type": "sheet", "path": "s.png"}]}]}"#,
                             in: directory)
        #expect(try runThrobber(["batch", path, "--backend", "cpu", "--quiet"]).status == 0)
        let atlasURL = directory.appendingPathComponent("s.json")
        var atlas = try json(atlasURL)
        // The same values in the same order, laid out otherwise: on one line, no space before a colon.
        let text = try String(contentsOf: atlasURL, encoding: .utf8)
        let relaidOut = Data(text.replacingOccurrences(of: "\n *", with: "", options: .regularExpression)
            .replacingOccurrences(of: "\" : ", with: "\": ").utf8)
        #expect(relaidOut.count < text.utf8.count - 100)
        try relaidOut.write(to: atlasURL)
        let kept = try runThrobber(["batch", path, "--backend", "cpu", "--skip-existing"])
        #expect(kept.status == 0 && !kept.stderr.contains("replaced"), "\(kept.stderr)")
        #expect(try Data(contentsOf: atlasURL) == relaidOut, "the atlas was written again")
        #expect(try runThrobber(["verify", directory.appendingPathComponent("job.manifest.json").path]).status == 0)
        // Another frame rate is another atlas.
        var meta = try #require(atlas["meta"] as? [String: Any])
        meta["frameRate"] = 30
        atlas["meta"] = meta
        try JSONSerialization.data(withJSONObject: atlas).write(to: atlasURL)
        let replaced = try runThrobber(["batch", path, "--backend", "cpu", "--skip-existing"])
        #expect(replaced.status == 0 && replaced.stderr.contains("replaced \(atlasURL.path): it is not the atlas"), "\(replaced.stderr)")
        #expect(try json(atlasURL)["meta"].flatMap { ($0 as? [String: Any])?["frameRate"] as? Double } == 60)
    }
}
