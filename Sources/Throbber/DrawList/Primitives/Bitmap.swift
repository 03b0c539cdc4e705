/// Straight-alpha RGBA8 pixels of an image asset, shared by reference (one per asset, drawn every frame).
///
/// `identity` names the pixels: two values with one identity (and one size) hold the same bytes,
/// so a renderer keeps what it made of them (GL a texture) by identity and compares no bytes.
public final class BitmapPixels: Sendable {
    public let width: Int
    public let height: Int
    /// `width × height × 4` bytes, rows top-down, each pixel (r, g, b, a) with straight alpha.
    public let rgba: [UInt8]
    /// The asset's name, unique to its pixels (an asset id with its data's digest, say).
    public let identity: String

    /// - Precondition: `width` and `height` ≥ 0 and `rgba.count == width * height * 4`.
    public init(width: Int, height: Int, rgba: [UInt8], identity: String) {
        precondition(width >= 0 && height >= 0 && rgba.count == width * height * 4, "image pixels do not match \(width)×\(height)")
        self.width = width
        self.height = height
        self.rgba = rgba
        self.identity = identity
    }
}

/// An image drawn by an affine transform from its pixel space (texel (i, j) covers
/// [i, i+1] × [j, j+1]) to the canvas, times an opacity, source-over (SPEC §11).
///
/// Each canvas pixel centre p is mapped back into the image, q = T⁻¹(p); its colour is the
/// bilinear interpolation of the four premultiplied texels around q − (0.5, 0.5), texels outside
/// the image counting as transparent (so the edges fade over one texel), times the opacity. A
/// singular transform paints nothing. One instanced quad over its bounds in GL, the same
/// arithmetic on the CPU; both read the same bytes.
public struct Bitmap: Primitive {
    public static let kind = "Bitmap"
    public static let noun = (one: "image", many: "images")

    public let pixels: BitmapPixels
    /// Image space → px.
    public let transform: PathTransform
    /// Multiplies the colour, 0…1.
    public let opacity: Float
    /// px → image space; nil when the transform is singular (nothing is painted).
    public let inverse: PathTransform?
    /// Where the colour can be other than 0 (SPEC §11 "Bounds"), clipped to the canvas.
    public let bounds: PixelRect

    /// `pixels` placed by `transform` on a `width` × `height` canvas, at `opacity` (clamped to 0…1).
    public init(_ pixels: BitmapPixels, transform: PathTransform, opacity: Double = 1, width: Int, height: Int) {
        self.pixels = pixels
        self.transform = transform
        self.opacity = Float(min(max(opacity.isNaN ? 0 : opacity, 0), 1))
        inverse = transform.inverse
        bounds = Bitmap.reach(pixels, transform: transform, paints: inverse != nil && self.opacity > 0, width: width, height: height)
    }

    /// SPEC §11 "Bounds": the image rectangle grown by half a texel (where the bilinear colour
    /// can be other than 0) mapped to px, its pixel bounds plus one pixel, clipped to the
    /// canvas; empty for an empty image, a singular or non-finite transform, or opacity 0.
    static func reach(_ pixels: BitmapPixels, transform: PathTransform, paints: Bool, width: Int, height: Int) -> PixelRect {
        let empty = PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)
        guard paints, pixels.width > 0, pixels.height > 0 else { return empty }
        let w = Double(pixels.width), h = Double(pixels.height)
        let corners = [PathPoint(-0.5, -0.5), PathPoint(w + 0.5, -0.5), PathPoint(-0.5, h + 0.5), PathPoint(w + 0.5, h + 0.5)]
            .map(transform.apply)
        guard corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return empty }
        let rect = PixelRect(minX: corners.map(\.x).min()!, minY: corners.map(\.y).min()!, maxX: corners.map(\.x).max()!,
                             maxY: corners.map(\.y).max()!, margin: 1, width: width, height: height)
        return rect.isEmpty ? empty : rect
    }

    /// The same pixels (one object, or one identity and size), placement and opacity.
    public static func == (a: Bitmap, b: Bitmap) -> Bool {
        (a.pixels === b.pixels
            || (a.pixels.identity == b.pixels.identity && a.pixels.width == b.pixels.width && a.pixels.height == b.pixels.height))
            && a.transform == b.transform && a.opacity == b.opacity && a.bounds == b.bounds
    }
}
