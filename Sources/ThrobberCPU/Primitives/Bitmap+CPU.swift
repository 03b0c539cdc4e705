import Throbber

// The image's row (Throbber/DrawList/Primitives/Bitmap.swift, SPEC §11): its texel and colour
// formulas, twins of Shaders/Primitives/bitmap.glsl in the same order and under the same names (a
// vec2 there is two Floats here, x first), and how the CPU renderer paints an image.

/// SPEC §11: texel (i, j) of a `width` × `height` straight RGBA8 image, premultiplied:
/// (r·a, g·a, b·a, a) of the bytes / 255; outside the image (0, 0, 0, 0). Twin of bitmap.glsl's
/// `bitmapTexel`.
@inline(__always) func bitmapTexel(_ rgba: UnsafePointer<UInt8>, _ width: Int, _ height: Int, _ i: Int, _ j: Int) -> SIMD4<Float> {
    if i < 0 || j < 0 || i >= width || j >= height { return SIMD4() }
    let texel = rgba + 4 * (j * width + i)
    let t = SIMD4<Float>(Float(texel[0]), Float(texel[1]), Float(texel[2]), Float(texel[3])) / 255
    return SIMD4(t.x * t.w, t.y * t.w, t.z * t.w, t.w)
}

/// SPEC §11: the colour an image paints at pixel centre (px, py), as the straight colour a record
/// paints at coverage 1 (its alpha times `opacity`): q = T⁻¹(p) − (0.5, 0.5) with `m` = T⁻¹
/// (a, b, c, d, tx, ty), the premultiplied texels (⌊qx⌋, ⌊qy⌋) … (⌊qx⌋ + 1, ⌊qy⌋ + 1) mixed
/// bilinearly by the fractions of q; clear where that alpha is 0. q is clamped to
/// [−2, width + 1] × [−2, height + 1] first, which changes no colour (all four texels are outside
/// there) and keeps the texel numbers small. Twin of bitmap.glsl's `bitmapColor`.
@inline(__always) func bitmapColor(_ rgba: UnsafePointer<UInt8>, _ width: Int, _ height: Int,
                                   _ m: (a: Float, b: Float, c: Float, d: Float, tx: Float, ty: Float), _ opacity: Float,
                                   _ px: Float, _ py: Float) -> SIMD4<Float> {
    let w = Float(width), h = Float(height)
    let qx = min(max(m.a * px + m.c * py + m.tx - 0.5, -2), w + 1)
    let qy = min(max(m.b * px + m.d * py + m.ty - 0.5, -2), h + 1)
    let fx = qx.rounded(.down), fy = qy.rounded(.down)
    let u = qx - fx, v = qy - fy
    let i = Int(fx), j = Int(fy)
    let t00 = bitmapTexel(rgba, width, height, i, j), t10 = bitmapTexel(rgba, width, height, i + 1, j)
    let t01 = bitmapTexel(rgba, width, height, i, j + 1), t11 = bitmapTexel(rgba, width, height, i + 1, j + 1)
    let c = (t00 * (1 - u) + t10 * u) * (1 - v) + (t01 * (1 - u) + t11 * u) * v
    if c.w <= 0 { return SIMD4() }
    return SIMD4(c.x / c.w, c.y / c.w, c.z / c.w, c.w * opacity)
}

extension Bitmap: CPUPrimitive {
    func prepare(shortcuts: Bool, resources: DrawResources) -> any CPUItem { PreparedBitmap(self) }
}

/// An image as the CPU renderer paints it: its bounds, T⁻¹ in single precision and its bytes.
final class PreparedBitmap: AreaItem {
    let bounds: PixelRect
    let pixels: BitmapPixels
    let inverse: (a: Float, b: Float, c: Float, d: Float, tx: Float, ty: Float)
    let opacity: Float

    init(_ bitmap: Bitmap) {
        // A singular transform has empty bounds: the identity stands in and is never read.
        let m = bitmap.inverse ?? .identity
        bounds = bitmap.bounds
        pixels = bitmap.pixels
        inverse = (Float(m.a), Float(m.b), Float(m.c), Float(m.d), Float(m.tx), Float(m.ty))
        opacity = bitmap.opacity
    }

    /// The same as `paintReference`: every pixel reads its four texels whichever path paints it.
    func paint(_ band: Band) { paintReference(band) }

    /// `bitmapColor` at every pixel centre of the bounds in the band, blended at coverage 1
    /// (SPEC §0: the straight colour premultiplied by its alpha, then source-over); pixels of
    /// colour 0 are left as they are.
    func paintReference(_ band: Band) {
        let top = max(bounds.y0, band.y0), bottom = min(bounds.y1, band.y1)
        guard top < bottom, bounds.x0 < bounds.x1 else { return }
        let width = pixels.width, height = pixels.height, m = inverse, opacity = opacity
        pixels.rgba.withUnsafeBufferPointer { bytes in
            let rgba = bytes.baseAddress!
            for y in top..<bottom {
                let r = y - band.y0, py = Float(y) + 0.5
                band.cut(r, bounds.x0, bounds.x1, materialize: true)
                let row = band.accum + r * band.width * 4
                for x in bounds.x0..<bounds.x1 {
                    let s = bitmapColor(rgba, width, height, m, opacity, Float(x) + 0.5, py)
                    guard s.w > 0 else { continue }
                    var color = PaintColor(.clear)
                    (color.r, color.g, color.b, color.a) = (s.x, s.y, s.z, s.w)
                    band.blend(row + x * 4, color, 1)
                }
            }
        }
    }
}
