import Foundation
import Testing
import Throbber
import ThrobberCPU
import ThrobberPNG

/// `throbber compare` and `throbber parity`, run as a user would.
@Suite(.serialized)
struct ComparisonTests {
    /// A rendered frame and a copy with one pixel's green channel moved by `delta`.
    func perturbedPair(delta: Int, in directory: URL) throws -> (URL, URL) {
        let image = CPURenderer().render(Scene(Ring()).drawList(at: 0.25))
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
