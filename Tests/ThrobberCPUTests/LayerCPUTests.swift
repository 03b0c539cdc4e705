import Foundation
import Testing
import Throbber
@testable import ThrobberCPU

/// The layer's CPU row (SPEC §10) on single pixels against the spec's formulas evaluated here in
/// double precision: a 2×1 canvas whose content covers both pixels, a mask covering pixel 0 whole
/// and pixel 1 by half, so every mode is seen at c = 1 and c = 0.5 (and c = 0 on a third pixel);
/// mattes of every mode against a source of known colour; nesting; the fast path and the
/// reference path; row reuse.
struct LayerCPUTests {
    static let width = 3, height = 1

    /// A rectangle from x0 to x1 over the whole height, px.
    static func rectangle(_ x0: Double, _ x1: Double) -> PathGeometry {
        PathGeometry(subpaths: [Subpath(start: PathPoint(x0, 0), segments: [.line(to: PathPoint(x1, 0)), .line(to: PathPoint(x1, 1)),
                                                                            .line(to: PathPoint(x0, 1))], closed: true)])
    }

    /// Content of one colour over the whole canvas.
    static func content(_ color: RGBA, id: String = "content") -> [DrawItem] {
        [DrawItem(ItemID(id), Path(rectangle(0, Double(width)), role: .fill(.nonzero), paint: .solid(PaintColor(color)),
                                   width: width, height: height))]
    }

    /// The mask of the tests: pixel 0 covered, pixel 1 half, pixel 2 not at all.
    static func mask(_ mode: LayerMask.Mode, inverted: Bool = false, opacity: Double = 1) -> LayerMask {
        LayerMask(rectangle(0, 1.5), transform: .identity, mode: mode, inverted: inverted, opacity: opacity)
    }

    static let coverage = [1.0, 0.5, 0.0]

    /// SPEC §10 "Masks", in double precision from the spec's words.
    static func m(_ masks: [LayerMask], c: Double) -> Double {
        guard let first = masks.first else { return 1 }
        var m: Double = first.mode == .add ? 0 : 1
        for mask in masks {
            let cc = mask.inverted ? 1 - c : c, k = Double(mask.opacity)
            switch mask.mode {
            case .add: m += k * cc * (1 - m)
            case .subtract: m *= 1 - k * cc
            case .intersect: m *= 1 - k * (1 - cc)
            case .difference: m = m + k * cc - 2 * m * k * cc
            }
        }
        return m
    }

    static func render(_ items: [DrawItem], fast: Bool = true, background: RGBA = .clear) -> Image {
        var renderer = CPURenderer(threadCount: 1)
        renderer.shortcuts = fast
        return renderer.render(DrawList(width: width, height: height, background: PaintColor(background), items: items))
    }

    /// The straight bytes of premultiplied (r, g, b, a) by SPEC §0.
    static func bytes(_ r: Double, _ g: Double, _ b: Double, _ a: Double) -> [Int] {
        func q(_ v: Double) -> Int { Int((min(max(v, 0), 1) * 255 + 0.5).rounded(.down)) }
        guard q(a) > 0 else { return [0, 0, 0, 0] }
        return [q(r / a), q(g / a), q(b / a), q(a)]
    }

    static func pixel(_ image: Image, _ x: Int) -> [Int] { (0..<4).map { Int(image.pixels[x * 4 + $0]) } }

    static func expectClose(_ got: [Int], _ want: [Int], _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(zip(got, want).allSatisfy { abs($0 - $1) <= 1 }, "\(label): \(got), expected \(want)", sourceLocation: sourceLocation)
    }

    @Test(arguments: LayerMask.Mode.allCases)
    func oneMaskOfEachModeFollowsTheFormula(mode: LayerMask.Mode) {
        for inverted in [false, true] {
            for k in [1.0, 0.4] {
                let masks = [LayerCPUTests.mask(mode, inverted: inverted, opacity: k)]
                let layer = Layer(content: LayerCPUTests.content(RGBA(1, 0.5, 0, 1)), masks: masks, opacity: 0.8,
                                  width: LayerCPUTests.width, height: LayerCPUTests.height)
                for fast in [true, false] {
                    let image = LayerCPUTests.render([DrawItem("layer", layer)], fast: fast)
                    for x in 0..<3 {
                        let a = 0.8 * LayerCPUTests.m(masks, c: LayerCPUTests.coverage[x])
                        LayerCPUTests.expectClose(LayerCPUTests.pixel(image, x), LayerCPUTests.bytes(a, 0.5 * a, 0, a),
                                                  "\(mode) inverted \(inverted) k \(k) fast \(fast) pixel \(x)")
                    }
                }
            }
        }
    }

    @Test func masksCombineInOrder() {
        let masks = [LayerCPUTests.mask(.subtract, opacity: 0.3), LayerCPUTests.mask(.add, inverted: true, opacity: 0.7),
                     LayerCPUTests.mask(.difference, opacity: 0.5), LayerCPUTests.mask(.intersect, inverted: true, opacity: 0.9)]
        let layer = Layer(content: LayerCPUTests.content(RGBA(0, 0, 1, 0.5)), masks: masks, width: 3, height: 1)
        let image = LayerCPUTests.render([DrawItem("layer", layer)])
        for x in 0..<3 {
            let a = 0.5 * LayerCPUTests.m(masks, c: LayerCPUTests.coverage[x])
            LayerCPUTests.expectClose(LayerCPUTests.pixel(image, x), LayerCPUTests.bytes(0, 0, a, a), "pixel \(x)")
        }
    }

    @Test(arguments: LayerMatte.Mode.allCases)
    func aMatteOfEachModeFollowsTheFormula(mode: LayerMatte.Mode) {
        // The source: a translucent colour over pixel 0 whole and pixel 1 by half, at opacity 0.9.
        let (r, g, b, alpha) = (0.2, 0.6, 1.0, 0.5)
        let sourceItems = [DrawItem("source", Path(LayerCPUTests.rectangle(0, 1.5), role: .fill(.nonzero),
                                                   paint: .solid(PaintColor(RGBA(r, g, b, alpha))), width: 3, height: 1))]
        let source = Layer(content: sourceItems, opacity: 0.9, width: 3, height: 1)
        let layer = Layer(content: LayerCPUTests.content(RGBA(1, 1, 1, 1)), matte: LayerMatte(mode, source: source), width: 3, height: 1)
        for fast in [true, false] {
            let image = LayerCPUTests.render([DrawItem("layer", layer)], fast: fast)
            for x in 0..<3 {
                let a = 0.9 * alpha * LayerCPUTests.coverage[x]
                let luma = (0.2126 * r + 0.7152 * g + 0.0722 * b) * a
                let q: Double = switch mode {
                case .alpha: a
                case .alphaInverted: 1 - a
                case .luma: luma
                case .lumaInverted: 1 - luma
                }
                LayerCPUTests.expectClose(LayerCPUTests.pixel(image, x), LayerCPUTests.bytes(q, q, q, q), "\(mode) fast \(fast) pixel \(x)")
            }
        }
    }

    @Test func nestedLayersAndALayerInsideAMatteSource() {
        // Inner: opacity 0.5 under an add mask; outer: opacity 0.6 over a background of opaque black.
        let inner = Layer(content: LayerCPUTests.content(RGBA(0, 1, 0, 1)), masks: [LayerCPUTests.mask(.add)], opacity: 0.5,
                          width: 3, height: 1)
        let outer = Layer(content: [DrawItem("inner", inner)], opacity: 0.6, width: 3, height: 1)
        #expect(outer.depth == 2)
        let image = LayerCPUTests.render([DrawItem("outer", outer)], background: RGBA(0, 0, 0, 1))
        for x in 0..<3 {
            let a = 0.3 * LayerCPUTests.coverage[x]
            LayerCPUTests.expectClose(LayerCPUTests.pixel(image, x), LayerCPUTests.bytes(0, a, 0, 1), "nested pixel \(x)")
        }
        // The same nest as the matte source: alpha q = 0.3·c.
        let matted = Layer(content: LayerCPUTests.content(RGBA(1, 0, 0, 1)), matte: LayerMatte(.alpha, source: outer), width: 3, height: 1)
        #expect(matted.depth == 3)
        let second = LayerCPUTests.render([DrawItem("matted", matted)])
        for x in 0..<3 {
            let q = 0.3 * LayerCPUTests.coverage[x]
            LayerCPUTests.expectClose(LayerCPUTests.pixel(second, x), LayerCPUTests.bytes(q, 0, 0, q), "matte source nest pixel \(x)")
        }
    }

    @Test func aLayerIsSourceOverWhatIsBelow() {
        // Below: opaque blue; the layer: half-transparent red at opacity 0.5 → s = (0.25, 0, 0, 0.25).
        let below = LayerCPUTests.content(RGBA(0, 0, 1, 1), id: "below")
        let layer = Layer(content: LayerCPUTests.content(RGBA(1, 0, 0, 0.5)), opacity: 0.5, width: 3, height: 1)
        let image = LayerCPUTests.render(below + [DrawItem("layer", layer)])
        LayerCPUTests.expectClose(LayerCPUTests.pixel(image, 0), LayerCPUTests.bytes(0.25, 0, 0.75, 1), "source-over")
    }

    /// Frames whose layer changes in some rows only: drawn one after another with row reuse,
    /// the bytes are those of each frame drawn alone.
    @Test func rowReuseNeverKeepsStaleRowsOfALayer() {
        let side = 64
        func frame(_ k: Int) -> DrawList {
            let maskY = Double(8 * (k % 5))
            let mask = LayerMask(PathGeometry(subpaths: [Subpath(start: PathPoint(0, maskY), segments: [
                .line(to: PathPoint(64, maskY)), .line(to: PathPoint(64, maskY + 20)), .line(to: PathPoint(0, maskY + 20))], closed: true)]),
                transform: .identity, mode: k % 2 == 0 ? .add : .subtract)
            let diamond = Subpath(start: PathPoint(32, 2), segments: [.line(to: PathPoint(62, 32)), .line(to: PathPoint(32, 62)),
                                                                      .line(to: PathPoint(2, 32))], closed: true)
            let content = [DrawItem("diamond", Path(PathGeometry(subpaths: [diamond]),
                                                 role: .fill(.nonzero), paint: .solid(PaintColor(RGBA(1, 0.5, 0.2, 0.9))),
                                                 width: side, height: side))]
            let layer = Layer(content: content, masks: [mask], opacity: k % 3 == 0 ? 1 : 0.7, width: side, height: side)
            return DrawList(width: side, height: side, background: PaintColor(RGBA(0, 0, 0, 1)), items: [DrawItem("layer", layer)])
        }
        let reusing = CPURenderer(threadCount: 2)
        for k in [0, 1, 1, 2, 5, 3, 0, 4, 4] {
            var fresh = CPURenderer(threadCount: 1)
            fresh.reusesUnchangedRows = false
            #expect(reusing.render(frame(k)).pixels == fresh.render(frame(k)).pixels, "frame \(k)")
        }
    }
}
