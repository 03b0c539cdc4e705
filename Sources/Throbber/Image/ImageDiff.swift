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

    /// The failures as `pixel (x, y): expected …, observed …` lines (piglit's form).
    public var failureLines: [String] {
        firstFailures.map { "pixel (\($0.x), \($0.y)): expected \($0.expected), observed \($0.observed)" }
    }

    public static func == (lhs: ImageDiff, rhs: ImageDiff) -> Bool {
        lhs.maxChannelDifference == rhs.maxChannelDifference && lhs.pixelsOverOne == rhs.pixelsOverOne
            && lhs.pixelsOverTolerance == rhs.pixelsOverTolerance && lhs.tolerance == rhs.tolerance
    }
}
