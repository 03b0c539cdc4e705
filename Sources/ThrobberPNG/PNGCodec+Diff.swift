import Foundation
import Throbber

extension PNGCodec.RowReader {
    /// Pixels per band of rows that ``diff(_:_:names:tolerance:keep:heatMap:)`` decodes at a time
    /// from each image (~4 MiB as RGBA8):
    /// memory stays flat whatever the image size, except for interlaced files, which the reader
    /// decodes whole (within ``PNGCodec/pixelBudget``), and the heat map, which is kept whole.
    public static let bandPixels = 1 << 20

    /// ``ImageDiff`` over two images of one size read band by band: the same figures, kept
    /// failures (the first `keep` in raster order) and PSNR as comparing the whole images at
    /// once, and the heat map when asked for.
    ///
    /// - Parameters:
    ///   - names: what to call each image in an error (its path).
    /// - Throws: the reader's data error, its message starting with the image's name.
    public static func diff(_ expected: PNGCodec.RowReader, _ observed: PNGCodec.RowReader, names: (String, String),
                            tolerance: Int, keep: Int = 5, heatMap: Bool) throws -> (ImageDiff, Image?) {
        try bandDiff(width: expected.width, height: expected.height, tolerance: tolerance, keep: keep, heatMap: heatMap) { _, rows, e, o in
            try ThrobberError.naming(names.0) { try expected.read(rows: rows, into: &e) }
            try ThrobberError.naming(names.1) { try observed.read(rows: rows, into: &o) }
        }
    }

    /// ``ImageDiff`` of this file, read band by band, against an image in memory (`throbber
    /// reproduce`: the file is `expected`): the figures of comparing the whole images at once,
    /// without the file's pixels ever held whole.
    ///
    /// - Precondition: `image` has the reader's size and no rows have been read.
    public func diff(against image: Image, name: String, tolerance: Int, keep: Int = 5) throws -> ImageDiff {
        precondition(image.width == width && image.height == height && rowsRead == 0, "diff(against:) needs an unread reader of the image's size")
        let rowBytes = width * 4
        return try PNGCodec.RowReader.bandDiff(width: width, height: height, tolerance: tolerance, keep: keep, heatMap: false) { y, rows, e, o in
            try ThrobberError.naming(name) { try read(rows: rows, into: &e) }
            o = Array(image.pixels[y * rowBytes ..< (y + rows) * rowBytes])
        }.0
    }

    /// The band loop of both diffs: `bands(y, rows, &expected, &observed)` fills the two band
    /// buffers with rows `y ..< y + rows` of each image.
    static func bandDiff(width: Int, height: Int, tolerance: Int, keep: Int, heatMap: Bool,
                         bands: (Int, Int, inout [UInt8], inout [UInt8]) throws -> Void) throws -> (ImageDiff, Image?) {
        let bandRows = max(1, bandPixels / max(1, width))
        // The figures accumulate into a diff of two empty images (no failures, infinite PSNR).
        var total = ImageDiff(expected: Image(width: 0, height: 0), observed: Image(width: 0, height: 0),
                              tolerance: tolerance, keep: keep)
        var squaredError = 0
        var comparedChannels = 0
        var colourSquaredError = 0
        var colourChannels = 0
        var heat: [UInt8] = []
        if heatMap { heat.reserveCapacity(width * height * 4) }
        var e: [UInt8] = [], o: [UInt8] = []
        var y = 0
        while y < height {
            let rows = min(bandRows, height - y)
            try bands(y, rows, &e, &o)
            let a = Image(width: width, height: rows, pixels: e), b = Image(width: width, height: rows, pixels: o)
            let band = ImageDiff(expected: a, observed: b, tolerance: tolerance, keep: keep - total.firstFailures.count)
            total.maxChannelDifference = max(total.maxChannelDifference, band.maxChannelDifference)
            total.pixelsOverOne += band.pixelsOverOne
            total.pixelsOverTolerance += band.pixelsOverTolerance
            total.pixelsColourIgnored += band.pixelsColourIgnored
            total.firstFailures += band.firstFailures.map { (x: $0.x, y: $0.y + y, expected: $0.expected, observed: $0.observed) }
            // The PSNR is not additive over bands, its sums are: the squared differences over the
            // channels SPEC §0 compares (only alpha where either alpha is ≤ 1), as ImageDiff sums them.
            for i in stride(from: 0, to: e.count, by: 4) {
                let first = ImageDiff.comparesAlphaOnly(e[i + 3], o[i + 3]) ? 3 : 0
                for c in first..<4 {
                    let d = Int(e[i + c]) - Int(o[i + c])
                    squaredError += d * d
                    if c < 3 { colourSquaredError += d * d }
                }
                comparedChannels += 4 - first
                if first == 0 { colourChannels += 3 }
            }
            if heatMap { heat += ImageDiff.heatMap(expected: a, observed: b, tolerance: tolerance).pixels }
            y += rows
        }
        total.psnr = ImageDiff.psnr(squaredError: Double(squaredError), channels: comparedChannels)
        total.psnrRGB = ImageDiff.psnr(squaredError: Double(colourSquaredError), channels: colourChannels)
        return (total, heatMap ? Image(width: width, height: height, pixels: heat) : nil)
    }
}
