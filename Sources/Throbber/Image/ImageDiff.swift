import Foundation

/// How two images of the same size differ, channel by channel on the stored 8-bit values.
public struct ImageDiff: Sendable, Equatable {
    /// The largest difference of any channel of any pixel, in 8-bit steps.
    public var maxChannelDifference: Int
    /// Pixels where some channel differs by more than 1 step.
    public var pixelsOverOne: Int
    /// Pixels where some channel differs by more than the tolerance.
    public var pixelsOverTolerance: Int
    /// The tolerance the counts were taken against.
    public var tolerance: Int
    /// Peak signal-to-noise ratio over all channels in dB (infinite for identical images).
    public var psnr: Double
    /// The first few pixels over the tolerance: (x, y, expected, observed).
    public var firstFailures: [(x: Int, y: Int, expected: [UInt8], observed: [UInt8])]

    /// Compares `observed` with `expected`.
    ///
    /// - Parameters:
    ///   - tolerance: allowed difference per channel in 8-bit steps.
    ///   - keep: how many failing pixels to keep for the report.
    /// - Precondition: both images have the same size.
    public init(expected: Image, observed: Image, tolerance: Int = 2, keep: Int = 5) {
        precondition(expected.width == observed.width && expected.height == observed.height, "image sizes differ")
        var maxDifference = 0
        var overOne = 0
        var overTolerance = 0
        var squaredError = 0.0
        var failures: [(x: Int, y: Int, expected: [UInt8], observed: [UInt8])] = []
        expected.pixels.withUnsafeBufferPointer { e in
            observed.pixels.withUnsafeBufferPointer { o in
                for p in 0..<(expected.width * expected.height) {
                    // Alpha-aware: two fully transparent pixels are the same whatever their colour bytes.
                    if e[p * 4 + 3] == 0 && o[p * 4 + 3] == 0 { continue }
                    var pixelMax = 0
                    for c in 0..<4 {
                        let d = abs(Int(e[p * 4 + c]) - Int(o[p * 4 + c]))
                        pixelMax = max(pixelMax, d)
                        squaredError += Double(d * d)
                    }
                    maxDifference = max(maxDifference, pixelMax)
                    if pixelMax > 1 { overOne += 1 }
                    if pixelMax > tolerance {
                        overTolerance += 1
                        if failures.count < keep {
                            failures.append((p % expected.width, p / expected.width,
                                             Array(e[(p * 4)..<(p * 4 + 4)]), Array(o[(p * 4)..<(p * 4 + 4)])))
                        }
                    }
                }
            }
        }
        let mse = squaredError / Double(max(1, expected.pixels.count))
        self.maxChannelDifference = maxDifference
        self.pixelsOverOne = overOne
        self.pixelsOverTolerance = overTolerance
        self.tolerance = tolerance
        self.psnr = mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
        self.firstFailures = failures
    }

    /// A heat map of where `observed` differs from `expected`: the expected image dimmed to grey,
    /// pixels off by 1 step in blue, by up to `tolerance` in yellow, beyond it in red (brighter
    /// the larger the difference).
    public static func heatMap(expected: Image, observed: Image, tolerance: Int) -> Image {
        precondition(expected.width == observed.width && expected.height == observed.height, "image sizes differ")
        var pixels = [UInt8](repeating: 255, count: expected.pixels.count)
        for p in 0..<(expected.width * expected.height) {
            let i = p * 4
            var d = 0
            if !(expected.pixels[i + 3] == 0 && observed.pixels[i + 3] == 0) {
                for c in 0..<4 { d = max(d, abs(Int(expected.pixels[i + c]) - Int(observed.pixels[i + c]))) }
            }
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

    public static func == (lhs: ImageDiff, rhs: ImageDiff) -> Bool {
        lhs.maxChannelDifference == rhs.maxChannelDifference && lhs.pixelsOverOne == rhs.pixelsOverOne
            && lhs.pixelsOverTolerance == rhs.pixelsOverTolerance && lhs.tolerance == rhs.tolerance
    }
}
