import Foundation
import Throbber
import ThrobberPNG
import ThrobberBatch
import ThrobberRender

/// The figures of one comparison, as `parity` and `compare` print and write them.
struct DiffFigures: Codable {
    var maxChannelDifference: Int
    var pixelsOverOne: Int
    var pixelsOverMaxDiff: Int
    /// Pixels where either alpha is ≤ 1 and the colour bytes differ: not compared (SPEC §0).
    var pixelsColourIgnored: Int
    var maxDiff: Int
    var maxPixels: Int
    /// Peak signal-to-noise ratio over the compared channels (alpha among them) in dB; null when
    /// the images are identical (infinite PSNR).
    var psnr: Double?
    /// The PSNR over R, G and B of the pixels whose colour is compared, alpha left out; null when
    /// those agree.
    var psnrRGB: Double?
    var pass: Bool

    init(_ diff: ImageDiff, maxPixels: Int) {
        maxChannelDifference = diff.maxChannelDifference
        pixelsOverOne = diff.pixelsOverOne
        pixelsOverMaxDiff = diff.pixelsOverTolerance
        pixelsColourIgnored = diff.pixelsColourIgnored
        maxDiff = diff.tolerance
        self.maxPixels = maxPixels
        psnr = diff.psnr.isFinite ? (diff.psnr * 100).rounded() / 100 : nil
        psnrRGB = diff.psnrRGB.isFinite ? (diff.psnrRGB * 100).rounded() / 100 : nil
        pass = diff.pixelsOverTolerance <= maxPixels
    }

    /// "max 1, >1: 0 px, >2: 0 px, PSNR inf dB".
    var summary: String { summary(rgbOnly: false) }

    /// The summary with the PSNR over the compared channels, or with `rgbOnly` over the colour
    /// channels alone ("PSNR (RGB) 41.20 dB").
    func summary(rgbOnly: Bool) -> String {
        let value = rgbOnly ? psnrRGB : psnr
        let psnrText = value.map { String(format: "%.2f dB", $0) } ?? "inf dB"
        return "max \(maxChannelDifference), >1: \(pixelsOverOne) px, >\(maxDiff): \(pixelsOverMaxDiff) px, PSNR\(rgbOnly ? " (RGB)" : "") \(psnrText)"
    }
}

/// The driver a comparison checked.
struct RendererStrings: Codable {
    var vendor: String
    var renderer: String
    var version: String
    var platform: String
}
