import Throbber

/// What a frame is, as far as choosing its PNG writer goes, measured cheaply on a sample of its
/// rows (issue 49: `auto` decided by the clip's own frames, not by a scene's name): its size, how
/// much of it is transparent, how much of it repeats the pixel to its left (what the Sub filter and
/// a deflate match make nearly free), and how much of it changed from the frame before.
///
/// Reads at most `sampledRows` rows, evenly spaced, so its cost does not grow with the height:
/// about 64 · width pixels.
public struct FrameTraits: Sendable, Equatable, CustomStringConvertible {
    /// The longer side, px.
    public var side: Int
    /// Of the sampled pixels, the fraction whose alpha is 0.
    public var transparent: Double
    /// Of the sampled pixels after each row's first, the fraction equal to the pixel on their left.
    public var flat: Double
    /// Of the sampled rows, the fraction that differ from the same row of the frame before; nil
    /// for a first frame (or one of another size than the frame before).
    public var changed: Double?

    /// The most rows one measurement reads.
    public static let sampledRows = 64

    /// Traits as given (the sweep's recorded points, tests).
    public init(side: Int, transparent: Double, flat: Double, changed: Double?) {
        self.side = side
        self.transparent = transparent
        self.flat = flat
        self.changed = changed
    }

    /// Measures `image`, against `previous` when it is the frame before (same size).
    public init(_ image: Image, previous: Image? = nil) {
        side = max(image.width, image.height)
        let rows = FrameTraits.rows(height: image.height)
        let rowBytes = image.width * 4
        var transparentCount = 0, flatCount = 0, pixels = 0, neighbours = 0, changedRows = 0
        let comparable = previous.map { $0.width == image.width && $0.height == image.height } ?? false
        image.pixels.withUnsafeBufferPointer { bytes in
            let words = UnsafeRawPointer(bytes.baseAddress!)
            for y in rows {
                let row = words + y * rowBytes
                var left: UInt32 = 0
                for x in 0..<image.width {
                    let pixel = row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                    // Alpha is the fourth byte: the top byte of a little-endian word.
                    if pixel >> 24 == 0 { transparentCount += 1 }
                    if x > 0 {
                        neighbours += 1
                        if pixel == left { flatCount += 1 }
                    }
                    left = pixel
                }
                pixels += image.width
            }
            guard comparable, let previous else { return }
            previous.pixels.withUnsafeBufferPointer { before in
                for y in rows where !FrameTraits.equalRows(bytes.baseAddress! + y * rowBytes, before.baseAddress! + y * rowBytes,
                                                          count: rowBytes) {
                    changedRows += 1
                }
            }
        }
        transparent = pixels == 0 ? 0 : Double(transparentCount) / Double(pixels)
        flat = neighbours == 0 ? 1 : Double(flatCount) / Double(neighbours)
        changed = comparable ? (rows.isEmpty ? 0 : Double(changedRows) / Double(rows.count)) : nil
    }

    /// The rows a measurement reads: every row of a short frame, else `sampledRows` evenly spaced.
    static func rows(height: Int) -> [Int] {
        guard height > sampledRows else { return Array(0..<height) }
        return (0..<sampledRows).map { k in (2 * k + 1) * height / (2 * sampledRows) }
    }

    static func equalRows(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
        var i = 0
        while i + 8 <= count {
            if UnsafeRawPointer(a + i).loadUnaligned(as: UInt64.self) != UnsafeRawPointer(b + i).loadUnaligned(as: UInt64.self) { return false }
            i += 8
        }
        while i < count {
            if a[i] != b[i] { return false }
            i += 1
        }
        return true
    }

    public var description: String {
        let percent = { (v: Double) in "\(Int((v * 100).rounded())) %" }
        return "\(side) px, \(percent(transparent)) transparent, \(percent(flat)) flat"
            + (changed.map { ", \(percent($0)) of rows changed" } ?? ", first frame")
    }
}
