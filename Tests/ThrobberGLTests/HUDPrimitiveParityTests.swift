import Foundation
import Testing
import Throbber
import ThrobberCPU
@testable import ThrobberGL
import ThrobberTestSupport

/// `Strokes` and `RadialGradient` on GL against the CPU reference: every channel within 2/255
/// (SPEC §0), as layers (layers.frag) and as records under boxes the boxes pass draws (boxes.frag's
/// `itemCoverage`).
///
/// Serialized and synchronous: a GL context is current on the thread that made it.
@Suite(.serialized, .enabled(if: GLAvailability.osmesa.available, Comment(rawValue: GLAvailability.osmesa.reason)))
struct HUDPrimitiveParityTests {
    /// The largest channel difference over `lists`, each expected within 2/255.
    func assertParity(_ lists: [DrawList], label: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let gl = try GLRenderer()
        let cpu = CPURenderer()
        var worst = 0
        for (index, list) in lists.enumerated() {
            let diff = ImageDiff(expected: cpu.render(list), observed: try gl.render(list), tolerance: 2)
            worst = max(worst, diff.maxChannelDifference)
            #expect(diff.pixelsOverTolerance == 0,
                    "\(label) \(index) (\(list.width)×\(list.height)): \(diff.pixelsOverTolerance) pixels differ by more than 2/255\n\(diff.failureLines.joined(separator: "\n"))",
                    sourceLocation: sourceLocation)
        }
        print("parity \(label): largest channel difference \(worst)/255 over \(lists.count) draw lists")
    }

    /// Random strokes and gradients, degenerate ones among them (`HUDPrimitiveCases.randomLists`).
    @Test func randomStrokesAndGradientsMatchTheCPUReference() throws {
        try assertParity(HUDPrimitiveCases.randomLists(count: 80, seed: 0x5EED), label: "random strokes and gradients")
    }

    /// The same lists with scattered boxes over them, which the boxes pass draws: there the
    /// strokes and gradients are records, painted by boxes.frag's `itemCoverage`.
    @Test func strokesAndGradientsUnderTheBoxesPassMatchTheCPUReference() throws {
        var generator = SplitMix64(seed: 11)
        let lists = HUDPrimitiveCases.randomLists(count: 40, seed: 0xB0C5).map { list in
            let (w, h) = (Double(list.width), Double(list.height))
            let boxes = (0..<12).map { _ in
                QuadInstance(centerX: generator.next(in: 0...w), centerY: generator.next(in: 0...h), halfX: generator.next(in: 0.5...9),
                             halfY: generator.next(in: 0.5...6), rotation: generator.next(in: 0...7), cornerRadius: generator.next(in: 0...0.4),
                             color: RGBA(generator.next(in: 0...1), generator.next(in: 0...1), generator.next(in: 0...1), generator.next(in: 0.2...1)))
            }
            var covered = list
            // Boxes under the first item and over the rest: the records of both sides reach them.
            covered.items.insert(DrawItem("boxes", Boxes(boxes, width: list.width, height: list.height)), at: 1)
            #expect(LayerPlan(covered).boxItems == [1])
            return covered
        }
        try assertParity(lists, label: "strokes and gradients under the boxes pass")
    }

    /// SVProgressHUD's glyphs at 1x–3x, opaque and not, over its gradient mask; the mask on the
    /// phone canvas at 1x and 3x.
    @Test func theHUDsGlyphsAndMaskMatchTheCPUReference() throws {
        var lists: [DrawList] = []
        for scale in [1.0, 1.37, 2, 3] {
            for color in [RGBA(1, 1, 1, 1), RGBA(0.9, 0.95, 1, 0.8)] {
                let glyphs = HUDPrimitiveCases.glyphs(scale: scale, color: color)
                let side = Int((28 * scale).rounded(.up))
                let mask = RadialGradient(centerX: Double(side) / 2, centerY: Double(side) / 2, reach: Double(side), color: RGBA(0, 0, 0, 0.75),
                                          width: side, height: side)
                lists.append(DrawList(width: side, height: side, background: PaintColor(RGBA(0.2, 0.2, 0.2, 0.9)),
                                      items: [DrawItem("mask", mask)] + glyphs.map { DrawItem(ItemID($0.0), $0.1) }))
            }
        }
        for scale in [1, 3] {
            let (width, height) = (390 * scale, 844 * scale)
            let mask = RadialGradient(centerX: Double(width) / 2, centerY: Double(height) / 2, reach: Double(min(width, height)),
                                      color: RGBA(0, 0, 0, 0.75 * 0.6), width: width, height: height)
            lists.append(DrawList(width: width, height: height, background: PaintColor(.clear), items: [DrawItem("mask", mask)]))
        }
        try assertParity(lists, label: "HUD glyphs and mask")
    }

    /// The error cross is one shape on GL too: its crossing is painted once, unlike two strokes.
    @Test func theErrorCrossIsOneShapeOnGL() throws {
        let color = RGBA(0.2, 0.4, 0.9, 0.6)
        let cross = try #require(HUDPrimitiveCases.glyphs(scale: 3, color: color).first { $0.0 == "cross" }?.1)
        let halves = cross.segments.map { s in
            Strokes(segments: [(Double(s.x0), Double(s.y0), Double(s.x1), Double(s.y1))], lineWidth: Double(cross.lineWidth), color: color,
                    width: 84, height: 84)
        }
        let gl = try GLRenderer()
        let one = try gl.render(DrawList(width: 84, height: 84, background: PaintColor(.clear), items: [DrawItem("cross", cross)]))
        let two = try gl.render(DrawList(width: 84, height: 84, background: PaintColor(.clear),
                                         items: [DrawItem("first", halves[0]), DrawItem("second", halves[1])]))
        #expect(one[41, 41].a == 153 && two[41, 41].a == 214, "\(one[41, 41]) vs \(two[41, 41])")
    }
}
