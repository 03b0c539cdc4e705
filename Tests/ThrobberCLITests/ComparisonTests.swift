import Foundation
import Testing
import Throbber
import ThrobberCPU
import ThrobberPNG
import ThrobberTestSupport

/// `throbber compare` and `throbber parity`, run as a user would.
@Suite(.serialized)
struct ComparisonTests {
    /// A rendered frame and a copy with one pixel's green channel moved by `delta`.
    func perturbedPair(delta: Int, in directory: URL) throws -> (URL, URL) {
        let image = CPURenderer().render(try LaidOutScene(Scene(Ring())).drawList(at: 0.25))
        var pixels = image.pixels
        let i = (40 * image.width + 12) * 4 + 1
        pixels[i] = UInt8(Int(pixels[i]) + (pixels[i] > 128 ? -delta : delta))
        let a = directory.appendingPathComponent("a.png"), b = directory.appendingPathComponent("b.png")
        try PNGCodec.encode(image).write(to: a)
        try PNGCodec.encode(Image(width: image.width, height: image.height, pixels: pixels)).write(to: b)
        return (a, b)
    }

    @Test func onePixelOffByThreeIsCaught() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (a, b) = try perturbedPair(delta: 3, in: directory)
        let heatMap = directory.appendingPathComponent("diff.png")
        let result = try runThrobber(["compare", a.path, b.path, "--diff", heatMap.path])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("FAIL"))
        #expect(result.stdout.contains("max 3, >1: 1 px, >2: 1 px"))
        #expect(result.stdout.contains("pixel (12, 40)"))
        let map = try PNGCodec.decode(Data(contentsOf: heatMap))
        #expect(map.width == 84 && map.height == 84)
        #expect(map[12, 40].r > 150 && map[12, 40].g == 0, "the differing pixel is red in the heat map")
        #expect(map[0, 0].r == map[0, 0].g, "identical pixels are grey")
        // One pixel allowed beyond the bound: accepted.
        #expect(try runThrobber(["compare", a.path, b.path, "--max-pixels", "1"]).status == 0)
    }

    @Test func aHeatMapNeverReplacesAnInput() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (a, b) = try perturbedPair(delta: 3, in: directory)
        for (input, role) in [(a, "expected"), (b, "observed")] {
            let before = try Data(contentsOf: input)
            let result = try runThrobber(["compare", a.path, b.path, "--diff", input.path])
            #expect(result.status == 64, "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(result.stderr.contains("--diff heat map") && result.stderr.contains("the \(role) image"))
            #expect(try Data(contentsOf: input) == before, "the input is left as it was")
        }
        let folder = try runThrobber(["compare", a.path, directory.path])
        #expect(folder.status == 66 && folder.stderr.contains("it is a directory"), "\(folder.stderr)")
        let missing = try runThrobber(["compare", a.path, directory.appendingPathComponent("gone.png").path])
        #expect(missing.status == 66 && missing.stderr.contains("No such file or directory"), "\(missing.stderr)")
    }

    @Test func onePixelOffByTwoIsAccepted() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (a, b) = try perturbedPair(delta: 2, in: directory)
        let result = try runThrobber(["compare", a.path, b.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("PASS"))
        #expect(result.stdout.contains("max 2, >1: 1 px, >2: 0 px"))
        #expect(try runThrobber(["compare", a.path, b.path, "--max-diff", "1"]).status == 1)
    }

    @Test func compareJSONIsComplete() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (a, b) = try perturbedPair(delta: 5, in: directory)
        let result = try runThrobber(["compare", a.path, b.path, "--json"])
        #expect(result.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let figures = try #require(json["figures"] as? [String: Any])
        #expect(figures["maxChannelDifference"] as? Int == 5)
        #expect(figures["pixelsOverMaxDiff"] as? Int == 1)
        #expect(figures["pass"] as? Bool == false)
        #expect(figures["psnr"] as? Double != nil)
        #expect(json["width"] as? Int == 84)
        #expect((json["firstFailures"] as? [String])?.count == 1)
    }

    @Test func differentSizesAreAClearError() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = directory.appendingPathComponent("a.png"), b = directory.appendingPathComponent("b.png")
        try PNGCodec.encode(Image(width: 3, height: 2)).write(to: a)
        try PNGCodec.encode(Image(width: 2, height: 3)).write(to: b)
        let result = try runThrobber(["compare", a.path, b.path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("3×2") && result.stderr.contains("2×3"))
        let missing = try runThrobber(["compare", a.path, directory.appendingPathComponent("nope.png").path])
        #expect(missing.status == 66)
        try Data("junk".utf8).write(to: b)
        #expect(try runThrobber(["compare", a.path, b.path]).status == 65)
    }

    /// A 16-bit copy of a frame (v8 × 257, no gAMA chunk, as converters write it) is the same
    /// image: it used to differ by up to 72 steps through libpng's gamma conversion.
    @Test func aSixteenBitCopyComparesEqual() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let frame = CPURenderer().render(try LaidOutScene(Scene(WaveBall())).drawList(at: 0.7))
        let png = TestPNG(width: frame.width, height: frame.height, bitDepth: 16, colorType: 6)
        let a = directory.appendingPathComponent("frame.png"), b = directory.appendingPathComponent("frame16.png")
        try PNGCodec.encode(frame).write(to: a)
        try Data(png.bytes { x, y in
            let p = frame[x, y]
            return [Int(p.r) * 257, Int(p.g) * 257, Int(p.b) * 257, Int(p.a) * 257]
        }).write(to: b)
        let result = try runThrobber(["compare", a.path, b.path, "--max-diff", "0"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("max 0, >1: 0 px"), "\(result.stdout)")
    }

    /// The PNG bomb of issue 14 (declaring 16000×16000 RGBA) is refused from its header with one
    /// line naming the file, its declared size and the budget; nothing is inflated.
    @Test func aPNGBombIsRefusedInOneLine() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bomb = directory.appendingPathComponent("bomb.png"), small = directory.appendingPathComponent("small.png")
        try Data(TestPNG(width: 16000, height: 16000, bitDepth: 8, colorType: 6)
            .file(idat: [0x78, 0xDA, 0xED, 0xC1, 0x01, 0x0D])).write(to: bomb)
        try PNGCodec.encode(Image(width: 4, height: 4)).write(to: small)
        for arguments in [[small.path, bomb.path], [bomb.path, bomb.path]] {
            let result = try runThrobber(["compare"] + arguments)
            #expect(result.status == 65, "\(result.stdout)\(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(result.stderr)")
            #expect(result.stderr.contains("\(bomb.path): declares 16000×16000 px") && result.stderr.contains("33,554,432"),
                    "\(result.stderr)")
        }
    }

    @Test func truncatedAndOversizedPNGsAreOneLineDataErrors() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (a, b) = try perturbedPair(delta: 0, in: directory)
        let whole = try Data(contentsOf: b)
        try whole.prefix(whole.count - 200).write(to: b)
        let truncated = try runThrobber(["compare", a.path, b.path])
        #expect(truncated.status == 65)
        #expect(truncated.stderr.split(separator: "\n").count == 1, "\(truncated.stderr)")
        #expect(truncated.stderr.contains("\(b.path): not a readable PNG: libpng:") && truncated.stderr.contains("truncated"),
                "\(truncated.stderr)")
        try Data(TestPNG(width: 1, height: PNGCodec.maxSide + 1, bitDepth: 8, colorType: 0)
            .file(idat: TestPNG.zlibStored([0]))).write(to: b)
        let tall = try runThrobber(["compare", a.path, b.path])
        #expect(tall.status == 65)
        #expect(tall.stderr.contains("\(b.path)") && tall.stderr.contains("height exceeds user limit"), "\(tall.stderr)")
    }

    /// `compare` reads the files in bands of rows (about a mebipixel each); its figures, kept
    /// failures, PSNR and heat map must be those of ImageDiff on the whole images. Differences sit
    /// in every band, at band edges, and under invisible alpha.
    @Test func bandByBandComparisonEqualsTheWholeImageDiff() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let width = 2048, height = 1100
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) {
            let (x, y) = (i % width, i / width)
            pixels[i * 4] = UInt8((x * 7 + y) & 0xFF)
            pixels[i * 4 + 1] = UInt8((y * 3) & 0xFF)
            pixels[i * 4 + 2] = UInt8((x ^ y) & 0xFF)
            pixels[i * 4 + 3] = x % 97 == 0 ? 1 : 255
        }
        let expected = Image(width: width, height: height, pixels: pixels)
        var moved = pixels
        // (x, y, channel, delta): more failures than are kept, in several bands.
        for (x, y, c, d) in [(5, 3, 0, 9), (2047, 511, 1, 4), (0, 512, 2, 1), (97, 600, 0, 200), (97, 601, 3, 3),
                             (100, 700, 1, 2), (7, 1023, 0, 30), (8, 1024, 2, 5), (2047, 1099, 3, 60), (3, 1099, 1, 7)] {
            let i = (y * width + x) * 4 + c
            moved[i] = UInt8((Int(moved[i]) + d) & 0xFF)
        }
        let observed = Image(width: width, height: height, pixels: moved)
        let a = directory.appendingPathComponent("a.png"), b = directory.appendingPathComponent("b.png")
        let heatMap = directory.appendingPathComponent("diff.png")
        try PNGCodec.encode(expected, settings: .init(level: 1)).write(to: a)
        try PNGCodec.encode(observed, settings: .init(level: 1)).write(to: b)
        let result = try runThrobber(["compare", a.path, b.path, "--json", "--diff", heatMap.path])
        #expect(result.status == 1, "\(result.stderr)")
        let whole = ImageDiff(expected: expected, observed: observed, tolerance: 2)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let figures = try #require(json["figures"] as? [String: Any])
        let reference = DiffFigures(whole)
        #expect(figures["maxChannelDifference"] as? Int == reference.maxChannelDifference)
        #expect(figures["pixelsOverOne"] as? Int == reference.pixelsOverOne)
        #expect(figures["pixelsOverMaxDiff"] as? Int == reference.pixelsOverMaxDiff)
        #expect(figures["pixelsColourIgnored"] as? Int == reference.pixelsColourIgnored)
        #expect(figures["psnr"] as? Double == reference.psnr)
        #expect(figures["psnrRGB"] as? Double == reference.psnrRGB)
        #expect(reference.psnrRGB != reference.psnr, "the case tells the two PSNRs apart")
        #expect(json["firstFailures"] as? [String] == whole.failureLines)
        #expect(whole.pixelsOverTolerance > 5 && whole.pixelsColourIgnored > 0, "the case exercises truncation and invisible pixels")
        #expect(try PNGCodec.decode(Data(contentsOf: heatMap)) == ImageDiff.heatMap(expected: expected, observed: observed, tolerance: 2))
    }

    /// `--psnr rgb` prints the colour-only PSNR, labelled; any other value is one usage line.
    @Test func psnrChannelsAreChosenAndChecked() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (a, b) = (directory.appendingPathComponent("a.png"), directory.appendingPathComponent("b.png"))
        // Alpha differs by 5, colour not at all: over 8 channels MSE = 25/8, PSNR 43.18 dB; RGB inf.
        let e = Image(width: 2, height: 1, pixels: [10, 20, 30, 255, 10, 20, 30, 255])
        let o = Image(width: 2, height: 1, pixels: [10, 20, 30, 250, 10, 20, 30, 255])
        try PNGCodec.encode(e).write(to: a)
        try PNGCodec.encode(o).write(to: b)
        let all = try runThrobber(["compare", a.path, b.path, "--max-diff", "10"])
        #expect(all.status == 0 && all.stdout.contains("PSNR 43.18 dB") && !all.stdout.contains("(RGB)"), "\(all.stdout)")
        let rgb = try runThrobber(["compare", a.path, b.path, "--max-diff", "10", "--psnr", "rgb"])
        #expect(rgb.status == 0 && rgb.stdout.contains("PSNR (RGB) inf dB"), "\(rgb.stdout)")
        let bad = try runThrobber(["compare", a.path, b.path, "--psnr", "rgbx"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--psnr") && bad.stderr.contains("rgbx") && bad.stderr.contains("rgba or rgb"), "\(bad.stderr)")
        #expect(bad.stderr.split(separator: "\n").count == 1)
    }

    @Test func parityOnASmallMatrixPassesAndWritesJSON() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("parity.json")
        let result = try runThrobber(["parity", "--scenes", "ring,activity", "--scales", "1,2", "--times", "3",
                                      "--json", json.path, "--out", directory.appendingPathComponent("fail").path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("GL_RENDERER"))
        #expect(result.stdout.contains("12 cases (2 scenes × 2 scales × 3 times), 12 passed, 0 failed"))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        #expect((report["cases"] as? [[String: Any]])?.count == 12)
        let renderer = try #require(report["renderer"] as? [String: String])
        #expect(renderer["renderer"]?.isEmpty == false)
        #expect((report["summary"] as? [String: Any])?["failed"] as? Int == 0)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("fail").path))
    }

    @Test func parityFailuresWriteExpectedObservedAndHeatMap() throws {
        // A zero bound makes the 1/255 rounding differences of llvmpipe fail, which exercises the
        // failure path on real renderer output.
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("fail")
        let result = try runThrobber(["parity", "--scenes", "wave-ball", "--scales", "1", "--at", "0", "--max-diff", "0",
                                      "--out", out.path])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("FAIL wave-ball @1x t=0"))
        #expect(try listing(out) == ["wave-ball@1x_t0_diff.png", "wave-ball@1x_t0_expected.png", "wave-ball@1x_t0_observed.png"])
    }

    @Test func parityRejectsBadMatrixInput() throws {
        #expect(try runThrobber(["parity", "--scales", "0"]).status == 64)
        #expect(try runThrobber(["parity", "--scenes", "rng"]).stderr.contains("did you mean 'ring'"))
        #expect(try runThrobber(["parity", "--at", "1", "--times", "3"]).status == 64)
    }
}

/// The figures `compare --json` prints, computed here from ImageDiff (PSNR rounded to 0.01 dB).
private struct DiffFigures {
    var maxChannelDifference, pixelsOverOne, pixelsOverMaxDiff, pixelsColourIgnored: Int
    var psnr: Double?
    var psnrRGB: Double?

    init(_ diff: ImageDiff) {
        maxChannelDifference = diff.maxChannelDifference
        pixelsOverOne = diff.pixelsOverOne
        pixelsOverMaxDiff = diff.pixelsOverTolerance
        pixelsColourIgnored = diff.pixelsColourIgnored
        psnr = diff.psnr.isFinite ? (diff.psnr * 100).rounded() / 100 : nil
        psnrRGB = diff.psnrRGB.isFinite ? (diff.psnrRGB * 100).rounded() / 100 : nil
    }
}
