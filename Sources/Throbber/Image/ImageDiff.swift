import Foundation

/// How two images of the same size differ under the parity rule of SPEC §0, on the stored 8-bit
/// values.
///
/// The rule: every channel may differ by at most `tolerance` steps, except that where either
/// image's alpha is ≤ ``ImageDiff/invisibleAlpha`` the colour channels are not compared, only
/// alpha. Near the clearing threshold one renderer may write (0, 0, 0, 0) and the other
/// (r, g, b, 1); their colour bytes then differ by up to 255 on a pixel nobody can see (SPEC §0
/// "Comparing two renders"). Every figure here — the largest difference, both pixel counts, the
/// first failures, the PSNR and ``heatMap(expected:observed:tolerance:)`` — follows that rule.
///
/// The PSNR is 10·log10(255² / MSE), where MSE is the mean squared difference over the channels
/// the rule compares: four per pixel, or only alpha where either alpha is ≤ 1. Identical images
/// (MSE = 0) have an infinite PSNR. Alpha is one of those channels; ``psnrRGB`` leaves it out.
public struct ImageDiff: Sendable, Equatable {
    /// Where either image's alpha is at most this (of 255), only alpha is compared (SPEC §0).
    public static let invisibleAlpha: UInt8 = 1

    /// The largest difference of any compared channel of any pixel, in 8-bit steps.
    public var maxChannelDifference: Int
    /// Pixels where some compared channel differs by more than 1 step.
    public var pixelsOverOne: Int
    /// Pixels where some compared channel differs by more than the tolerance.
    public var pixelsOverTolerance: Int
    /// Pixels whose colour channels were skipped because either alpha is ≤ ``invisibleAlpha``
    /// while their colour bytes differ.
    public var pixelsColourIgnored: Int
    /// The tolerance the counts were taken against.
    public var tolerance: Int
    /// Peak signal-to-noise ratio over the compared channels in dB (infinite for identical images).
    public var psnr: Double
    /// The PSNR over the colour channels alone: R, G and B of the pixels whose colour the rule
    /// compares (both alphas > ``invisibleAlpha``), alpha left out; infinite when those agree.
    public var psnrRGB: Double
    /// The first few pixels over the tolerance: (x, y, expected, observed).
    public var firstFailures: [(x: Int, y: Int, expected: [UInt8], observed: [UInt8])]

    /// Compares `observed` with `expected` under the rule of SPEC §0.
    ///
    /// - Parameters:
    ///   - expected: the reference image.
    ///   - observed: the image under test.
    ///   - tolerance: allowed difference per channel in 8-bit steps.
    ///   - keep: how many failing pixels to keep for the report.
    /// - Precondition: both images have the same size.
    public init(expected: Image, observed: Image, tolerance: Int = 2, keep: Int = 5) {
        precondition(expected.width == observed.width && expected.height == observed.height, "image sizes differ")
        var maxDifference = 0
        var overOne = 0
        var overTolerance = 0
        var colourIgnored = 0
        var squaredError = 0.0
        var comparedChannels = 0
        var colourSquaredError = 0.0
        var colourChannels = 0
        var failures: [(x: Int, y: Int, expected: [UInt8], observed: [UInt8])] = []
        expected.pixels.withUnsafeBufferPointer { e in
            observed.pixels.withUnsafeBufferPointer { o in
                for p in 0..<(expected.width * expected.height) {
                    let i = p * 4
                    let alphaOnly = ImageDiff.comparesAlphaOnly(e[i + 3], o[i + 3])
                    let first = alphaOnly ? 3 : 0
                    var pixelMax = 0
                    for c in first..<4 {
                        let d = abs(Int(e[i + c]) - Int(o[i + c]))
                        pixelMax = max(pixelMax, d)
                        squaredError += Double(d * d)
                        if c < 3 { colourSquaredError += Double(d * d) }
                    }
                    comparedChannels += 4 - first
                    if !alphaOnly { colourChannels += 3 }
                    if alphaOnly && (e[i] != o[i] || e[i + 1] != o[i + 1] || e[i + 2] != o[i + 2]) { colourIgnored += 1 }
                    maxDifference = max(maxDifference, pixelMax)
                    if pixelMax > 1 { overOne += 1 }
                    if pixelMax > tolerance {
                        overTolerance += 1
                        if failures.count < keep {
                            failures.append((p % expected.width, p / expected.width,
                                             Array(e[i..<(i + 4)]), Array(o[i..<(i + 4)])))
                        }
                    }
                }
            }
        }
        self.maxChannelDifference = maxDifference
        self.pixelsOverOne = overOne
        self.pixelsOverTolerance = overTolerance
        self.pixelsColourIgnored = colourIgnored
        self.tolerance = tolerance
        self.psnr = ImageDiff.psnr(squaredError: squaredError, channels: comparedChannels)
        self.psnrRGB = ImageDiff.psnr(squaredError: colourSquaredError, channels: colourChannels)
        self.firstFailures = failures
    }

    /// 10·log10(255² / MSE) for a sum of squared differences over `channels` channel values;
    /// infinite when the sum is 0 (or nothing was compared).
    public static func psnr(squaredError: Double, channels: Int) -> Double {
        let mse = squaredError / Double(max(1, channels))
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    /// Whether the rule compares only the alpha of a pixel whose alphas are `a` and `b`: either
    /// is ≤ ``invisibleAlpha`` (SPEC §0).
    @inlinable
    public static func comparesAlphaOnly(_ a: UInt8, _ b: UInt8) -> Bool {
        a <= invisibleAlpha || b <= invisibleAlpha
    }

    /// The largest difference of the channels the rule compares at byte offset `i` (a pixel's
    /// first channel) of two RGBA8 buffers.
    static func pixelDifference(_ e: [UInt8], _ o: [UInt8], at i: Int) -> Int {
        let alpha = abs(Int(e[i + 3]) - Int(o[i + 3]))
        if comparesAlphaOnly(e[i + 3], o[i + 3]) { return alpha }
        var d = alpha
        for c in 0..<3 { d = max(d, abs(Int(e[i + c]) - Int(o[i + c]))) }
        return d
    }

    /// A heat map of where `observed` differs from `expected` under the same rule: the expected
    /// image dimmed to grey, pixels off by 1 step in blue, by up to `tolerance` in yellow, beyond
    /// it in red (brighter the larger the difference).
    ///
    /// - Precondition: both images have the same size.
    public static func heatMap(expected: Image, observed: Image, tolerance: Int) -> Image {
        precondition(expected.width == observed.width && expected.height == observed.height, "image sizes differ")
        var pixels = [UInt8](repeating: 255, count: expected.pixels.count)
        for p in 0..<(expected.width * expected.height) {
            let i = p * 4
            let d = pixelDifference(expected.pixels, observed.pixels, at: i)
            let a = Int(expected.pixels[i + 3])
            let luma = (Int(expected.pixels[i]) * 3 + Int(expected.pixels[i + 1]) * 6 + Int(expected.pixels[i + 2])) / 10
            let grey = UInt8(40 + (luma * a / 255 + 255 * (255 - a) / 255) * 60 / 255)
            let rgb: (UInt8, UInt8, UInt8)
            switch d {
            case 0: rgb = (grey, grey, grey)
            case 1: rgb = (40, 90, 255)
            case ...tolerance: rgb = (255, 220, 0)
            default: rgb = (UInt8(min(255, 160 + d)), 0, 0)
            }
            pixels[i] = rgb.0; pixels[i + 1] = rgb.1; pixels[i + 2] = rgb.2; pixels[i + 3] = 255
        }
        return Image(width: expected.width, height: expected.height, pixels: pixels)
    }

    /// The failures as `pixel (x, y): expected …, observed …` lines (piglit's form).
    public var failureLines: [String] {
        firstFailures.map { "pixel (\($0.x), \($0.y)): expected \($0.expected), observed \($0.observed)" }
    }

    /// Two diffs are equal when every figure and every kept failure is.
    public static func == (lhs: ImageDiff, rhs: ImageDiff) -> Bool {
        lhs.maxChannelDifference == rhs.maxChannelDifference && lhs.pixelsOverOne == rhs.pixelsOverOne
            && lhs.pixelsOverTolerance == rhs.pixelsOverTolerance && lhs.pixelsColourIgnored == rhs.pixelsColourIgnored
            && lhs.tolerance == rhs.tolerance && lhs.psnr == rhs.psnr && lhs.psnrRGB == rhs.psnrRGB
            && lhs.firstFailures.count == rhs.firstFailures.count
            && zip(lhs.firstFailures, rhs.firstFailures).allSatisfy {
                $0.x == $1.x && $0.y == $1.y && $0.expected == $1.expected && $0.observed == $1.observed
            }
    }
}
