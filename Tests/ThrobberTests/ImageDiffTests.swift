import Foundation
import Testing
import Throbber

/// The parity rule of SPEC §0 as `ImageDiff` applies it: ≤ 2 steps per channel, and only alpha
/// where either alpha is ≤ 1.
struct ImageDiffTests {
    /// A 3×2 image of one colour with pixel (1, 1) replaced.
    func pair(_ base: [UInt8], _ expected: [UInt8], _ observed: [UInt8]) -> (Image, Image) {
        func image(_ odd: [UInt8]) -> Image {
            var pixels = Array([[UInt8]](repeating: base, count: 6).joined())
            pixels.replaceSubrange(16..<20, with: odd)
            return Image(width: 3, height: 2, pixels: pixels)
        }
        return (image(expected), image(observed))
    }

    @Test(arguments: [
        // Either alpha ≤ 1: colour is not compared, whatever it is.
        ([0, 0, 0, 0], [255, 255, 255, 1]),
        ([255, 0, 128, 1], [0, 255, 0, 0]),
        ([10, 20, 30, 1], [250, 240, 230, 1]),
        ([0, 0, 0, 0], [200, 0, 0, 2]),
        // Every channel within 2.
        ([100, 100, 100, 2], [102, 98, 101, 2]),
        ([100, 100, 100, 255], [102, 98, 100, 253]),
    ] as [([UInt8], [UInt8])])
    func agreeingPixelsPass(expected: [UInt8], observed: [UInt8]) {
        let (e, o) = pair([7, 8, 9, 255], expected, observed)
        let diff = ImageDiff(expected: e, observed: o, tolerance: 2)
        #expect(diff.pixelsOverTolerance == 0, "\(expected) vs \(observed): \(diff.failureLines)")
        #expect(diff.maxChannelDifference <= 2)
        #expect(diff.firstFailures.isEmpty)
    }

    @Test(arguments: [
        // Both alphas are 2: colour counts, and 3 steps are too many.
        ([100, 100, 100, 2], [103, 100, 100, 2], 3),
        ([100, 100, 100, 2], [100, 100, 97, 2], 3),
        // Alpha itself is always compared, also below the threshold.
        ([0, 0, 0, 0], [0, 0, 0, 3], 3),
        ([50, 50, 50, 1], [50, 50, 50, 4], 3),
        ([50, 50, 50, 255], [50, 50, 50, 252], 3),
        // Opaque and the other transparent: alpha differs by 255.
        ([50, 50, 50, 255], [0, 0, 0, 0], 255),
    ] as [([UInt8], [UInt8], Int)])
    func disagreeingPixelsFail(expected: [UInt8], observed: [UInt8], difference: Int) {
        let (e, o) = pair([7, 8, 9, 255], expected, observed)
        let diff = ImageDiff(expected: e, observed: o, tolerance: 2)
        #expect(diff.pixelsOverTolerance == 1, "\(expected) vs \(observed)")
        #expect(diff.pixelsOverOne == 1)
        #expect(diff.maxChannelDifference == difference)
        #expect(diff.failureLines == ["pixel (1, 1): expected \(expected), observed \(observed)"])
    }

    @Test func colourBelowTheAlphaThresholdIsCountedAsIgnored() {
        let (e, o) = pair([0, 0, 0, 0], [0, 0, 0, 0], [255, 255, 255, 1])
        let diff = ImageDiff(expected: e, observed: o)
        #expect(diff.pixelsColourIgnored == 1)
        #expect(diff.maxChannelDifference == 1)
        #expect(diff.pixelsOverOne == 0)
    }

    /// PSNR over the compared channels: one alpha-only pixel off by 1 among five transparent
    /// ones compares 6 alpha channels, MSE = 1/6.
    @Test func psnrAveragesOverTheComparedChannels() {
        let (e, o) = pair([0, 0, 0, 0], [0, 0, 0, 0], [255, 255, 255, 1])
        let alphaOnly = ImageDiff(expected: e, observed: o)
        #expect(abs(alphaOnly.psnr - 10 * log10(255.0 * 255 * 6)) < 1e-9)
        // Six opaque pixels, one channel off by 3: 24 channels, MSE = 9/24.
        let (e2, o2) = pair([1, 2, 3, 255], [10, 10, 10, 255], [13, 10, 10, 255])
        #expect(abs(ImageDiff(expected: e2, observed: o2).psnr - 10 * log10(255.0 * 255 * 24 / 9)) < 1e-9)
        #expect(ImageDiff(expected: e2, observed: e2).psnr == .infinity)
    }

    /// The colour-only PSNR leaves alpha out: R, G, B of the pixels whose colour is compared.
    @Test func psnrRGBLeavesAlphaOut() {
        // Alpha alone off by 3 on one opaque pixel: the colour channels agree, so RGB is infinite
        // while the PSNR over the compared channels (24 of them, MSE 9/24) is finite.
        let (e, o) = pair([1, 2, 3, 255], [10, 10, 10, 255], [10, 10, 10, 252])
        let alphaOff = ImageDiff(expected: e, observed: o)
        #expect(alphaOff.psnrRGB == .infinity)
        #expect(abs(alphaOff.psnr - 10 * log10(255.0 * 255 * 24 / 9)) < 1e-9)
        // Red off by 3 on one of six opaque pixels: 18 colour channels, MSE = 9/18.
        let (e2, o2) = pair([1, 2, 3, 255], [10, 10, 10, 255], [13, 10, 10, 255])
        #expect(abs(ImageDiff(expected: e2, observed: o2).psnrRGB - 10 * log10(255.0 * 255 * 18 / 9)) < 1e-9)
        // Colour under alpha ≤ 1 is not compared, so it adds no channel and no error.
        let (e3, o3) = pair([0, 0, 0, 0], [0, 0, 0, 0], [255, 255, 255, 1])
        #expect(ImageDiff(expected: e3, observed: o3).psnrRGB == .infinity)
    }

    @Test func heatMapFollowsTheSameRule() {
        // Colour off by 255 under alpha 1: only alpha (off by 1) counts, so the pixel is blue.
        let (e, o) = pair([0, 0, 0, 0], [0, 0, 0, 0], [255, 255, 255, 1])
        let ignored = ImageDiff.heatMap(expected: e, observed: o, tolerance: 2)
        #expect(ignored[1, 1].r == 40 && ignored[1, 1].g == 90 && ignored[1, 1].b == 255)
        #expect(ignored[0, 0].r == ignored[0, 0].g, "an identical pixel is grey")
        // Alpha 2 on both sides, colour off by 3: red.
        let (e2, o2) = pair([0, 0, 0, 0], [100, 100, 100, 2], [103, 100, 100, 2])
        let failing = ImageDiff.heatMap(expected: e2, observed: o2, tolerance: 2)
        #expect(failing[1, 1].r > 150 && failing[1, 1].g == 0)
    }

    @Test func equalityComparesEveryFigureAndTheFailures() {
        let (e, o) = pair([7, 8, 9, 255], [100, 100, 100, 255], [110, 100, 100, 255])
        let (e2, o2) = pair([7, 8, 9, 255], [100, 100, 100, 255], [100, 110, 100, 255])
        let a = ImageDiff(expected: e, observed: o)
        #expect(a == ImageDiff(expected: e, observed: o))
        // Same counts and largest difference, different failing channel values.
        #expect(a != ImageDiff(expected: e2, observed: o2))
        #expect(a != ImageDiff(expected: e, observed: o, tolerance: 3))
        // Same figures but no failure kept.
        #expect(a != ImageDiff(expected: e, observed: o, keep: 0))
        var psnr = a
        psnr.psnr += 1
        #expect(a != psnr)
        var ignored = a
        ignored.pixelsColourIgnored += 1
        #expect(a != ignored)
    }
}
