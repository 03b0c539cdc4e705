import Foundation
import Testing
import Throbber
@testable import ThrobberCPU

/// The image's CPU row (SPEC §11) on single pixels: the check values of the section (a texel's
/// centre gives the texel, half-way between two texels their average, half a texel past an edge
/// half the edge texel, the opacity, a quarter turn mapping texels exactly), and every pixel of
/// scaled, turned and skewed images against the section's formula evaluated here in double
/// precision, over a background; bounds that hold every pixel the formula paints.
struct BitmapCPUTests {
    /// Straight RGBA8 texels, row by row.
    static func pixels(_ width: Int, _ height: Int, _ texels: [[UInt8]], identity: String = "test") -> BitmapPixels {
        BitmapPixels(width: width, height: height, rgba: texels.flatMap { $0 }, identity: identity)
    }

    /// A `width` × `height` image of random bytes, some texels transparent and some opaque.
    static func random(_ width: Int, _ height: Int, seed: UInt64) -> BitmapPixels {
        var generator = SplitMix64(seed: seed)
        let texels = (0..<(width * height)).map { _ -> [UInt8] in
            let alpha: UInt8 = generator.chance(0.15) ? 0 : generator.chance(0.3) ? 255 : UInt8(generator.next(below: 256))
            return [UInt8(generator.next(below: 256)), UInt8(generator.next(below: 256)), UInt8(generator.next(below: 256)), alpha]
        }
        return pixels(width, height, texels, identity: "random \(seed)")
    }

    static func render(_ bitmap: Bitmap, width: Int, height: Int, background: RGBA = .clear, fast: Bool = true) -> Image {
        var renderer = CPURenderer(threadCount: 1)
        renderer.shortcuts = fast
        return renderer.render(DrawList(width: width, height: height, background: PaintColor(background), items: [DrawItem("image", bitmap)]))
    }

    static func bytes(_ image: Image, _ x: Int, _ y: Int) -> [Int] {
        let p = image[x, y]
        return [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
    }

    /// SPEC §11 from its words, in double precision: the premultiplied colour s at pixel (x, y)
    /// painted over `background` by §0's source-over, as stored bytes.
    static func expected(_ image: BitmapPixels, _ transform: PathTransform, opacity: Double, background: RGBA, _ x: Int, _ y: Int) -> [Int] {
        var s = [0.0, 0, 0, 0]
        if let inverse = transform.inverse {
            let q = inverse.apply(PathPoint(Double(x) + 0.5, Double(y) + 0.5))
            let qx = q.x - 0.5, qy = q.y - 0.5
            let i = Int(qx.rounded(.down)), j = Int(qy.rounded(.down))
            let u = qx - Double(i), v = qy - Double(j)
            func texel(_ i: Int, _ j: Int) -> [Double] {
                guard i >= 0, j >= 0, i < image.width, j < image.height else { return [0, 0, 0, 0] }
                let k = 4 * (j * image.width + i), a = Double(image.rgba[k + 3]) / 255
                return (0..<3).map { Double(image.rgba[k + $0]) / 255 * a } + [a]
            }
            let weights = [((i, j), (1 - u) * (1 - v)), ((i + 1, j), u * (1 - v)), ((i, j + 1), (1 - u) * v), ((i + 1, j + 1), u * v)]
            for ((ti, tj), w) in weights {
                let t = texel(ti, tj)
                for c in 0..<4 { s[c] += t[c] * w * opacity }
            }
        }
        let below = [background.r * background.a, background.g * background.a, background.b * background.a, background.a]
        let dst = (0..<4).map { s[$0] + below[$0] * (1 - s[3]) }
        func q(_ v: Double) -> Int { Int((min(max(v, 0), 1) * 255 + 0.5).rounded(.down)) }
        guard q(dst[3]) > 0 else { return [0, 0, 0, 0] }
        return [q(dst[0] / dst[3]), q(dst[1] / dst[3]), q(dst[2] / dst[3]), q(dst[3])]
    }

    /// Identity: pixel (x, y)'s centre is texel (x, y)'s, so each pixel is its texel's bytes.
    @Test func aTexelsCentreGivesTheTexel() {
        let image = BitmapCPUTests.random(5, 4, seed: 1)
        let rendered = BitmapCPUTests.render(Bitmap(image, transform: .identity, width: 5, height: 4), width: 5, height: 4)
        for y in 0..<4 {
            for x in 0..<5 {
                let k = 4 * (y * 5 + x)
                let texel = image.rgba[k + 3] == 0 ? [0, 0, 0, 0] : image.rgba[k..<(k + 4)].map { Int($0) }
                #expect(BitmapCPUTests.bytes(rendered, x, y) == texel, "pixel (\(x), \(y))")
            }
        }
    }

    /// Moved half a pixel right: pixel 1 lies half-way between texels 0 and 1 (their
    /// premultiplied average), pixel 0 half a texel left of the image (half of texel 0), and pixel
    /// 2 half a texel right of it (half of texel 1).
    @Test func halfWayBetweenTexelsIsTheirAverageAndEdgesFade() {
        let image = BitmapCPUTests.pixels(2, 1, [[200, 0, 100, 200], [0, 60, 250, 100]])
        let moved = PathTransform(a: 1, b: 0, c: 0, d: 1, tx: 0.5, ty: 0)
        let rendered = BitmapCPUTests.render(Bitmap(image, transform: moved, width: 3, height: 1), width: 3, height: 1)
        // Premultiplied halves: texel 0 (200·200, 0, 100·200, 200)/2/255², texel 1 likewise.
        #expect(BitmapCPUTests.bytes(rendered, 0, 0) == [200, 0, 100, 100])
        #expect(BitmapCPUTests.bytes(rendered, 2, 0) == [0, 60, 250, 50])
        // (a0·c0 + a1·c1) / (a0 + a1) straight, alpha (200 + 100) / 2 = 150.
        let r = (200.0 * 200 + 0 * 100) / 300, g = (0.0 * 200 + 60 * 100) / 300, b = (100.0 * 200 + 250 * 100) / 300
        #expect(BitmapCPUTests.bytes(rendered, 1, 0) == [Int(r.rounded()), Int(g.rounded()), Int(b.rounded()), 150])
        #expect(BitmapCPUTests.bytes(rendered, 1, 0) == BitmapCPUTests.expected(image, moved, opacity: 1, background: .clear, 1, 0))
    }

    /// The opacity multiplies the premultiplied colour: an opaque texel at 0.4 has alpha 102 and
    /// its colour unchanged; over an opaque background, the mix.
    @Test func opacityMultipliesTheColour() {
        let image = BitmapCPUTests.pixels(1, 1, [[10, 200, 90, 255]])
        let alone = BitmapCPUTests.render(Bitmap(image, transform: .identity, opacity: 0.4, width: 1, height: 1), width: 1, height: 1)
        #expect(BitmapCPUTests.bytes(alone, 0, 0) == [10, 200, 90, 102])
        let over = BitmapCPUTests.render(Bitmap(image, transform: .identity, opacity: 0.4, width: 1, height: 1), width: 1, height: 1,
                                         background: RGBA(1, 1, 1, 1))
        // 0.4·c + 0.6·255.
        #expect(BitmapCPUTests.bytes(over, 0, 0) == [157, 233, 189, 255])
        let none = BitmapCPUTests.render(Bitmap(image, transform: .identity, opacity: 0, width: 1, height: 1), width: 1, height: 1)
        #expect(BitmapCPUTests.bytes(none, 0, 0) == [0, 0, 0, 0])
    }

    /// A quarter turn clockwise (T(x, y) = (h − y, x)) maps texel (i, j) to pixel (h − 1 − j, i) exactly.
    @Test func aQuarterTurnMapsTexelsExactly() {
        let (w, h) = (5, 3)
        let image = BitmapCPUTests.random(w, h, seed: 2)
        let turn = PathTransform(a: 0, b: 1, c: -1, d: 0, tx: Double(h), ty: 0)
        let rendered = BitmapCPUTests.render(Bitmap(image, transform: turn, width: h, height: w), width: h, height: w)
        for j in 0..<h {
            for i in 0..<w {
                let k = 4 * (j * w + i)
                let texel = image.rgba[k + 3] == 0 ? [0, 0, 0, 0] : image.rgba[k..<(k + 4)].map { Int($0) }
                #expect(BitmapCPUTests.bytes(rendered, h - 1 - j, i) == texel, "texel (\(i), \(j))")
            }
        }
    }

    /// Scaled by 2.5 (bilinear between texels), turned, skewed and mirrored with fractional moves,
    /// over a background: every pixel of the canvas within 1/255 of the formula in double
    /// precision (single precision's rounding), by the fast and the reference path alike.
    @Test(arguments: [
        PathTransform(a: 2.5, b: 0, c: 0, d: 2.5, tx: 0, ty: 0),
        PathTransform(a: 2.5, b: 0, c: 0, d: 2.5, tx: 1.25, ty: 0.7),
        PathTransform(a: 1.3 * cos(0.6), b: 1.3 * sin(0.6), c: -0.8 * sin(0.6) + 0.4, d: 0.8 * cos(0.6), tx: 9.37, ty: 2.61),
        PathTransform(a: 0.35, b: -0.1, c: 0.2, d: 0.4, tx: 3.5, ty: 4.25),
        PathTransform(a: -1.7, b: 0, c: 0, d: 1.2, tx: 20.2, ty: 3.1),
    ])
    func everyPixelFollowsTheFormula(transform: PathTransform) {
        let image = BitmapCPUTests.random(7, 6, seed: 3)
        let (width, height) = (24, 20)
        let background = RGBA(0.2, 0.4, 0.9, 0.6)
        let bitmap = Bitmap(image, transform: transform, opacity: 0.85, width: width, height: height)
        for fast in [true, false] {
            let rendered = BitmapCPUTests.render(bitmap, width: width, height: height, background: background, fast: fast)
            var worst = 0
            for y in 0..<height {
                for x in 0..<width {
                    let want = BitmapCPUTests.expected(image, transform, opacity: 0.85, background: background, x, y)
                    let got = BitmapCPUTests.bytes(rendered, x, y)
                    worst = max(worst, zip(want, got).map { abs($0 - $1) }.max()!)
                }
            }
            #expect(worst <= 1, "fast \(fast): largest difference \(worst)/255")
        }
    }

    /// Bounds hold every pixel where the colour is other than 0, at every scale the tests use:
    /// the formula is 0 at every pixel outside them.
    @Test func boundsHoldEveryPaintedPixel() {
        let image = BitmapCPUTests.random(4, 3, seed: 4)
        for scale in [0.3, 1, 2.5, 4] {
            let transform = PathTransform(a: scale, b: 0.2 * scale, c: -0.3 * scale, d: scale, tx: 10.3, ty: 6.6)
            let bitmap = Bitmap(image, transform: transform, width: 40, height: 30)
            for y in 0..<30 {
                for x in 0..<40 where !(x >= bitmap.bounds.x0 && x < bitmap.bounds.x1 && y >= bitmap.bounds.y0 && y < bitmap.bounds.y1) {
                    #expect(BitmapCPUTests.expected(image, transform, opacity: 1, background: .clear, x, y) == [0, 0, 0, 0],
                            "scale \(scale): pixel (\(x), \(y)) is outside \(bitmap.bounds)")
                }
            }
        }
    }

    /// A singular transform, an empty image or opacity 0 paints nothing: empty bounds.
    @Test func nothingToPaintHasNoBounds() {
        let image = BitmapCPUTests.random(3, 3, seed: 5)
        #expect(Bitmap(image, transform: PathTransform(a: 1, b: 2, c: 2, d: 4, tx: 0, ty: 0), width: 10, height: 10).bounds.isEmpty)
        #expect(Bitmap(image, transform: .identity, opacity: 0, width: 10, height: 10).bounds.isEmpty)
        #expect(Bitmap(BitmapPixels(width: 0, height: 0, rgba: [], identity: "empty"), transform: .identity, width: 10, height: 10).bounds.isEmpty)
        #expect(Bitmap(image, transform: PathTransform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0), width: 10, height: 10).bounds.isEmpty)
        let far = PathTransform(a: 1, b: 0, c: 0, d: 1, tx: 100, ty: 0)
        #expect(Bitmap(image, transform: far, width: 10, height: 10).bounds.isEmpty)
    }

    /// Equal pixels (by identity), placement and opacity are equal items; another identity,
    /// transform or opacity is not.
    @Test func equalityFollowsIdentityPlacementAndOpacity() {
        let a = BitmapCPUTests.random(3, 2, seed: 6)
        let same = BitmapPixels(width: 3, height: 2, rgba: a.rgba, identity: a.identity)
        let other = BitmapPixels(width: 3, height: 2, rgba: a.rgba, identity: "other")
        let base = Bitmap(a, transform: .identity, width: 8, height: 8)
        #expect(base == Bitmap(same, transform: .identity, width: 8, height: 8))
        #expect(base != Bitmap(other, transform: .identity, width: 8, height: 8))
        #expect(base != Bitmap(a, transform: PathTransform(a: 1, b: 0, c: 0, d: 1, tx: 0.5, ty: 0), width: 8, height: 8))
        #expect(base != Bitmap(a, transform: .identity, opacity: 0.5, width: 8, height: 8))
    }
}
