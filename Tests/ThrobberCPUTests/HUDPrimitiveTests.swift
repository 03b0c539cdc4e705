import Foundation
import Testing
import Throbber
@testable import ThrobberCPU
import ThrobberTestSupport

/// The CPU rows of `Strokes` and `RadialGradient` (SVProgressHUD's glyphs and its gradient mask):
/// their coverage at known points, the one-shape rule of strokes, and the fast path (`paint`)
/// against the per-pixel reference (`paintReference`), byte for byte.
struct HUDPrimitiveTests {
    /// SPEC §7 "Mask" on the 390 × 844 pt canvas at 1x: g = (195, 422), reach 390, black at 0.75.
    @Test func gradientCoverageAtTheCheckPoints() {
        let alpha: Float = 0.75
        let cases: [(x: Float, y: Float, alpha: Float)] = [(195, 379, 0.75 * 43 / 390), (0, 422, 0.375), (195, 0, 0.75), (195, 422, 0)]
        for point in cases {
            let a = alpha * radialGradientCoverage(point.x, point.y, 195, 422, 390)
            #expect(abs(a - point.alpha) < 1e-6, "(\(point.x), \(point.y)): alpha \(a), not \(point.alpha)")
        }
        #expect(abs(0.75 * radialGradientCoverage(195, 379, 195, 422, 390) - 0.0827) < 0.0001)
    }

    /// The same canvas rendered: each pixel's alpha is the formula at its centre (x + ½, y + ½).
    @Test func gradientPixelsFollowTheFormulaAtTheirCentres() {
        let mask = RadialGradient(centerX: 195, centerY: 422, reach: 390, color: RGBA(0, 0, 0, 0.75), width: 390, height: 844)
        #expect(mask.bounds == PixelRect(x0: 0, y0: 0, x1: 390, y1: 844))
        let list = DrawList(width: 390, height: 844, background: PaintColor(.clear), items: [DrawItem("mask", mask)])
        let image = CPURenderer(threadCount: 2).render(list)
        for (x, y) in [(195, 379), (0, 422), (195, 0), (195, 422), (389, 843), (100, 600)] {
            let dx = Double(x) + 0.5 - 195, dy = Double(y) + 0.5 - 422
            let expected = 0.75 * min(1, (dx * dx + dy * dy).squareRoot() / 390)
            #expect(abs(Double(image[x, y].a) - expected * 255) <= 0.51, "pixel (\(x), \(y)): alpha \(image[x, y].a), not \(expected * 255)")
        }
        #expect(image[195, 379].a == 21)
        #expect(image[195, 0].a == 191)
        #expect(image[0, 422].a == 95)
    }

    /// A segment's distance is |p − a| when it has no length, its end points' distance past its
    /// ends (round caps) and the perpendicular one along it.
    @Test func segmentDistanceClampsToTheEndPoints() {
        #expect(segmentDistance(3, 4, 0, 0, 0, 0) == 5)
        #expect(segmentDistance(-3, 4, 0, 0, 10, 0) == 5)
        #expect(segmentDistance(13, -4, 0, 0, 10, 0) == 5)
        #expect(segmentDistance(6, 2.5, 0, 0, 10, 0) == 2.5)
        let stroke = Strokes.Segment(x0: 0, y0: 0, x1: 10, y1: 0)
        #expect(strokesCoverage(5, 0, stroke, stroke, 1, 2) == 1)
        #expect(strokesCoverage(5, 3, stroke, stroke, 1, 2) == 0)
        #expect(strokesCoverage(5, 0, stroke, stroke, 1, 0) == 0, "a line of no width covers nothing")
    }

    /// Bounds: the segments' box grown by half the line width and the margin, clipped.
    @Test func strokesBoundsHoldTheSegments() {
        let strokes = Strokes(segments: [(10, 20, 30, 5), (30, 5, -8, 12)], lineWidth: 4, color: RGBA(1, 1, 1, 1), width: 40, height: 40)
        #expect(strokes.bounds == PixelRect(x0: 0, y0: 2, x1: 33, y1: 23))
        #expect(strokes.segmentCount == 2 && strokes.segments.count == 2)
        let one = Strokes(segments: [(10, 20, 30, 5)], lineWidth: 4, color: RGBA(1, 1, 1, 1), width: 40, height: 40)
        #expect(one.segmentCount == 1 && one.second == one.first && one.segments == [one.first])
    }

    /// The error cross is one shape: where its segments cross, the colour is painted once, where
    /// two strokes painted one after the other would paint it twice.
    @Test func theErrorCrossIsOneShape() throws {
        let scale = 3.0, side = 84
        let color = RGBA(0.2, 0.4, 0.9, 0.6)
        let cross = try #require(HUDPrimitiveCases.glyphs(scale: scale, color: color).first { $0.0 == "cross" }?.1)
        let halves = cross.segments.map { s in
            Strokes(segments: [(Double(s.x0), Double(s.y0), Double(s.x1), Double(s.y1))], lineWidth: Double(cross.lineWidth), color: color,
                    width: side, height: side)
        }
        let background = PaintColor(.clear)
        let one = DrawList(width: side, height: side, background: background, items: [DrawItem("cross", cross)])
        let two = DrawList(width: side, height: side, background: background,
                           items: [DrawItem("first", halves[0]), DrawItem("second", halves[1])])
        let renderer = CPURenderer(threadCount: 1)
        let (a, b) = (renderer.render(one), renderer.render(two))
        // The crossing (42, 42): covered by both segments; once at 0.6, twice at 1 − 0.4².
        #expect(a[41, 41].a == 153, "one shape: \(a[41, 41])")
        #expect(b[41, 41].a == 214, "two strokes: \(b[41, 41])")
        // Far from the crossing the two agree: on one arm only.
        #expect(a[15, 15] == b[15, 15] && a[15, 15].a == 153)
        #expect(a[10, 73] == b[10, 73])
        var differing = 0
        for y in 0..<side { for x in 0..<side where a[x, y] != b[x, y] { differing += 1; #expect(abs(x - y) < 12 && abs(x + y - 83) < 12) } }
        #expect(differing > 0)
    }

    /// Random strokes and gradients, degenerate ones among them, painted by the fast path and by
    /// the reference, on one and three threads and with rows short of solid-run slots.
    @Test func fastPathChangesNoByte() {
        var plain = CPURenderer(threadCount: 1)
        plain.shortcuts = false
        var renderers = [CPURenderer(threadCount: 1), CPURenderer(threadCount: 3), CPURenderer(threadCount: 1)]
        renderers[2].solidRunsPerRow = 1
        for (index, list) in HUDPrimitiveCases.randomLists(count: 60, seed: 0x5EED).enumerated() {
            let reference = plain.render(list)
            for renderer in renderers {
                #expect(firstDifference(renderer.render(list), reference) == nil, "list \(index), \(renderer.threadCount) threads, \(renderer.solidRunsPerRow) runs")
            }
        }
        // The HUD's own: its glyphs at 1x–3x, opaque and not, over its mask, the phone canvas at 3x.
        for scale in [1.0, 2, 3] {
            for color in [RGBA(1, 1, 1, 1), RGBA(1, 1, 1, 0.8)] {
                let glyphs = HUDPrimitiveCases.glyphs(scale: scale, color: color)
                let side = Int((28 * scale).rounded(.up))
                let list = DrawList(width: side, height: side, background: PaintColor(RGBA(0.1, 0.1, 0.1, 0.9)),
                                    items: glyphs.map { DrawItem(ItemID($0.0), $0.1) })
                #expect(firstDifference(renderers[0].render(list), plain.render(list)) == nil, "glyphs @\(scale)x")
            }
        }
        let mask = RadialGradient(centerX: 585, centerY: 1266, reach: 1170, color: RGBA(0, 0, 0, 0.75), width: 1170, height: 2532)
        let hud = DrawList(width: 1170, height: 2532, background: PaintColor(.clear), items: [DrawItem("mask", mask)])
        #expect(firstDifference(renderers[1].render(hud), plain.render(hud)) == nil, "the HUD mask at 1170 × 2532")
    }
}
