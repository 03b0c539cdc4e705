/// An RGBA8 image: top-down rows, 4 bytes per pixel, sRGB-encoded, straight (un-premultiplied)
/// alpha — the form PNG stores. A pixel whose alpha is 0 is (0, 0, 0, 0).
public struct Image: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width × height × 4` bytes, row after row from the top. Changing them drops `rowStamps`.
    public var pixels: [UInt8] { didSet { rowStamps = nil } }
    /// The renderer's promise about which rows equal rows of other images (`RowStamps`), when it
    /// made one; any change to `pixels` drops it.
    public internal(set) var rowStamps: RowStamps?

    /// Wraps existing pixels.
    ///
    /// - Precondition: `pixels.count == width * height * 4`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "pixel buffer size does not match \(width)×\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Images are equal when their sizes and pixels are; stamps are not part of what they show.
    public static func == (a: Image, b: Image) -> Bool {
        a.width == b.width && a.height == b.height && a.pixels == b.pixels
    }

    /// A transparent image.
    public init(width: Int, height: Int) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 4))
    }

    /// The four channels of pixel (x, y).
    public subscript(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}

/// Turns premultiplied floating-point accumulators into the stored 8-bit form (SPEC §0 "Colour"):
/// un-premultiply with the unquantised alpha (one reciprocal, as the shader does), then v8 = floor(clamp(v, 0, 1)·255 + 0.5); a pixel
/// whose quantised alpha is 0 becomes (0, 0, 0, 0). The GLSL twin is `resolvePixel` in Shaders/common.glsl.
@inlinable @inline(__always)
public func resolvePixel(_ r: Float, _ g: Float, _ b: Float, _ a: Float) -> (UInt8, UInt8, UInt8, UInt8) {
    let a8 = quantise(a)
    if a8 == 0 { return (0, 0, 0, 0) }
    let inverse = 1 / a
    return (quantise(r * inverse), quantise(g * inverse), quantise(b * inverse), a8)
}

/// v8 = floor(clamp(v, 0, 1)·255 + 0.5). The argument of floor is ≥ 0.5, where truncation is
/// floor: one conversion instruction instead of a call to floorf on baseline x86-64.
@inlinable @inline(__always)
public func quantise(_ v: Float) -> UInt8 {
    // NaN fails `v > 0` and becomes 0, so the conversion below can never trap.
    let clamped: Float = v > 0 ? (v < 1 ? v : 1) : 0
    return UInt8(truncatingIfNeeded: Int32(clamped * 255 + 0.5))
}

