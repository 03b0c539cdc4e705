import Foundation
import Throbber

/// The pieces of a YUV4MPEG2 stream, the raw format ffmpeg, x264 and mpv read from a pipe: one
/// `header` line, then one `frame` per image.
///
/// Colour is BT.601 limited range ("studio swing": Y in [16, 235], Cb and Cr in [16, 240]) computed
/// from the stored sRGB-encoded bytes, with no linearisation, in exact integer arithmetic rounded
/// to nearest. Without alpha the stream is 4:2:0 with JPEG (centred) chroma siting, `C420jpeg`;
/// with alpha it is 4:4:4 plus an alpha plane, `C444alpha`, which ffmpeg reads as `yuva444p`.
/// The header says the range (`XCOLORRANGE=LIMITED`, which ffmpeg reads) so that an encoder fed
/// the stream tags it instead of guessing; YUV4MPEG2 has no field for the matrix, so BT.601 is
/// documented (docs/video.md) rather than written.
public enum Y4M {
    /// The stream header line.
    ///
    /// The frame rate is written as an exact rational: `n:1` for an integer rate, `n·1000:1001`
    /// for the NTSC rates (23.976, 29.97, 47.952, 59.94, 119.88, 239.76 and, for ones written to
    /// two decimals such as 23.98, anything within 0.005 of them), otherwise the rate to three
    /// decimals over 1000, reduced.
    ///
    /// - Parameters:
    ///   - width: frame width in pixels.
    ///   - height: frame height in pixels.
    ///   - fps: frames per second.
    ///   - alpha: whether frames carry an alpha plane (`C444alpha`) or not (`C420jpeg`).
    /// - Returns: `YUV4MPEG2 W… H… F…:… Ip A1:1 C… XCOLORRANGE=LIMITED` and a newline, in ASCII.
    /// - Precondition: `width` and `height` are positive; `fps` is in (0, 1 000 000].
    public static func header(width: Int, height: Int, fps: Double, alpha: Bool) -> Data {
        precondition(width > 0 && height > 0, "Y4M frame size \(width)×\(height) is not positive")
        let (numerator, denominator) = frameRate(fps)
        let colorspace = alpha ? "C444alpha" : "C420jpeg"
        // LIMITED: `frame` maps Y to [16, 235] and chroma to [16, 240], with or without alpha
        // (the alpha plane is full range by definition of yuva444p and has no tag of its own).
        let line = "YUV4MPEG2 W\(width) H\(height) F\(numerator):\(denominator) Ip A1:1 \(colorspace) XCOLORRANGE=LIMITED\n"
        return Data(line.utf8)
    }

    /// The bytes of one frame as ``frame(_:alpha:)`` writes it: the `FRAME` line and the planes.
    public static func frameLength(width: Int, height: Int, alpha: Bool) -> Int {
        let planeSize = width * height
        let chromaSize = alpha ? planeSize : ((width + 1) / 2) * ((height + 1) / 2)
        return "FRAME\n".utf8.count + planeSize + 2 * chromaSize + (alpha ? planeSize : 0)
    }

    /// One frame: `FRAME`, a newline, then the planes.
    ///
    /// Without alpha the planes are Y (width × height), then Cb and Cr (⌈width/2⌉ × ⌈height/2⌉
    /// each, every sample the mean of the 2×2 block it covers, or of fewer pixels at an odd edge);
    /// each pixel is first composited over `matte` (black by default), since the format holds no alpha. With alpha the
    /// planes are Y, Cb, Cr and A, all width × height; Y, Cb and Cr come from the straight colour
    /// and A is the alpha byte unchanged (full range, as ffmpeg's `yuva444p` expects).
    ///
    /// - Parameters:
    ///   - image: the frame, with the size given to `header`.
    ///   - alpha: whether the stream was declared with alpha.
    /// - Returns: the frame's bytes, ready to append to the stream.
    ///   - matte: the opaque colour a frame without alpha is composited over, as 8-bit sRGB bytes.
    public static func frame(_ image: Image, alpha: Bool, matte: (r: Int, g: Int, b: Int) = (0, 0, 0)) -> Data {
        let width = image.width, height = image.height
        let planeSize = width * height
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        let chromaSize = alpha ? planeSize : chromaWidth * chromaHeight
        let marker = Array("FRAME\n".utf8)
        var data = Data(count: frameLength(width: width, height: height, alpha: alpha))
        data.withUnsafeMutableBytes { (out: UnsafeMutableRawBufferPointer) in
            let out = out.bindMemory(to: UInt8.self)
            for (i, byte) in marker.enumerated() { out[i] = byte }
            let yPlane = marker.count, cbPlane = yPlane + planeSize, crPlane = cbPlane + chromaSize
            image.pixels.withUnsafeBufferPointer { src in
                if alpha {
                    let aPlane = crPlane + chromaSize
                    for i in 0..<planeSize {
                        let r = Int(src[4 * i]), g = Int(src[4 * i + 1]), b = Int(src[4 * i + 2])
                        out[yPlane + i] = quantise(lumaNumerator(r, g, b) * 255 + lumaOffset, count: 1)
                        out[cbPlane + i] = quantise(blueNumerator(r, g, b) * 255 + chromaOffset, count: 1)
                        out[crPlane + i] = quantise(redNumerator(r, g, b) * 255 + chromaOffset, count: 1)
                        out[aPlane + i] = src[4 * i + 3]
                    }
                    return
                }
                for i in 0..<planeSize {
                    let (r, g, b) = over(src, i, matte)
                    out[yPlane + i] = quantise(lumaNumerator(r, g, b) + lumaOffset, count: 1)
                }
                for cy in 0..<chromaHeight {
                    let rows = min(2, height - 2 * cy)
                    for cx in 0..<chromaWidth {
                        let columns = min(2, width - 2 * cx)
                        // The transform is linear, so the mean of the samples is the sample of the
                        // summed colours: sum exact numerators and round once.
                        var blue = 0, red = 0
                        for dy in 0..<rows {
                            for dx in 0..<columns {
                                let (r, g, b) = over(src, (2 * cy + dy) * width + 2 * cx + dx, matte)
                                blue += blueNumerator(r, g, b)
                                red += redNumerator(r, g, b)
                            }
                        }
                        let count = rows * columns
                        out[cbPlane + cy * chromaWidth + cx] = quantise(blue + chromaOffset * count, count: count)
                        out[crPlane + cy * chromaWidth + cx] = quantise(red + chromaOffset * count, count: count)
                    }
                }
            }
        }
        return data
    }

    // The BT.601 limited-range transform on 8-bit values, scaled to integers: with r, g, b and a
    // in 0…255, Y = 16 + (65.481·R + 128.553·G + 24.966·B) for R = r·a/255², and so on for Cb and Cr.
    // Every numerator below is over `scale` = 1000 · 255 · 255; the straight (alpha-plane) path
    // multiplies by a = 255 itself.
    private static let scale = 1000 * 255 * 255
    private static let lumaOffset = 16 * scale
    private static let chromaOffset = 128 * scale

    @inline(__always)
    private static func lumaNumerator(_ r: Int, _ g: Int, _ b: Int) -> Int {
        65_481 * r + 128_553 * g + 24_966 * b
    }

    @inline(__always)
    private static func blueNumerator(_ r: Int, _ g: Int, _ b: Int) -> Int {
        -37_797 * r - 74_203 * g + 112_000 * b
    }

    @inline(__always)
    private static func redNumerator(_ r: Int, _ g: Int, _ b: Int) -> Int {
        112_000 * r - 93_786 * g - 18_214 * b
    }

    /// Pixel `i` composited over `matte` (source-over on the 8-bit values), still over 255 · 255.
    @inline(__always)
    private static func over(_ src: UnsafeBufferPointer<UInt8>, _ i: Int, _ matte: (r: Int, g: Int, b: Int)) -> (Int, Int, Int) {
        let a = Int(src[4 * i + 3]), rest = 255 - a
        return (Int(src[4 * i]) * a + matte.r * rest, Int(src[4 * i + 1]) * a + matte.g * rest, Int(src[4 * i + 2]) * a + matte.b * rest)
    }

    /// Rounds `numerator / (scale · count)` to nearest (halves up) and clamps it to a byte.
    /// Every numerator here is non-negative: the offsets exceed the most negative chroma term.
    @inline(__always)
    private static func quantise(_ numerator: Int, count: Int) -> UInt8 {
        let denominator = scale * count
        return UInt8(min(255, max(0, (numerator + denominator / 2) / denominator)))
    }

    /// The frame rate as an exact rational (see `header`).
    static func frameRate(_ fps: Double) -> (numerator: Int, denominator: Int) {
        precondition(fps > 0 && fps <= 1_000_000, "Y4M frame rate \(fps) is not in (0, 1000000]")
        if fps == fps.rounded() { return (Int(fps), 1) }
        for base in [24, 30, 48, 60, 120, 240] {
            let ntsc = Double(base) * 1000 / 1001
            if abs(fps - ntsc) < 0.005 { return (base * 1000, 1001) }
        }
        let numerator = Int((fps * 1000).rounded())
        precondition(numerator > 0, "Y4M frame rate \(fps) is below 0.0005")
        var a = numerator, b = 1000
        while b != 0 { (a, b) = (b, a % b) }
        return (numerator / a, 1000 / a)
    }
}
