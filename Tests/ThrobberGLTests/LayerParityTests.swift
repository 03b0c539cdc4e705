import Foundation
import Testing
import Throbber
import ThrobberCPU
import ThrobberGL
import ThrobberRender
import ThrobberTestSupport
import ThrobberText

/// The layer's GL row (SPEC §10: the layered path, boxes.frag's LAYERED operations) against the
/// CPU reference: every mask mode and matte mode on constructed layers, alone and in a stack of
/// frames with frames that hold no layer, and random layer stacks of parity's `paths` scene
/// (`layers` set: masks, mattes, opacities, nesting over random path geometry); every channel
/// within 2/255.
///
/// Serialized and synchronous: a GL context is current on the thread that made it.
@Suite(.serialized, .enabled(if: GLAvailability.osmesa.available, Comment(rawValue: GLAvailability.osmesa.reason)))
struct LayerParityTests {
    static let side = 48

    static func circle(_ cx: Double, _ cy: Double, _ r: Double) -> PathGeometry {
        let k = 0.5523 * r
        return PathGeometry(subpaths: [Subpath(start: PathPoint(cx + r, cy), segments: [
            .cubic(PathPoint(cx + r, cy + k), PathPoint(cx + k, cy + r), to: PathPoint(cx, cy + r)),
            .cubic(PathPoint(cx - k, cy + r), PathPoint(cx - r, cy + k), to: PathPoint(cx - r, cy)),
            .cubic(PathPoint(cx - r, cy - k), PathPoint(cx - k, cy - r), to: PathPoint(cx, cy - r)),
            .cubic(PathPoint(cx + k, cy - r), PathPoint(cx + r, cy - k), to: PathPoint(cx + r, cy)),
        ], closed: true)])
    }

    static func fill(_ id: String, _ geometry: PathGeometry, _ color: RGBA) -> DrawItem {
        DrawItem(ItemID(id), Path(geometry, role: .fill(.nonzero), paint: .solid(PaintColor(color)), width: side, height: side))
    }

    /// A frame of every mask mode (inverted or not) and matte mode: a background disc, then a
    /// layer of two discs under two masks and a matte whose source is a masked, translucent layer.
    static func frame(_ number: Int) -> DrawList {
        let modes = LayerMask.Mode.allCases, mattes = LayerMatte.Mode.allCases
        let masks = [LayerMask(circle(20, 20, 14), transform: .identity, mode: modes[number % 4], inverted: number % 3 == 1, opacity: 0.8),
                     LayerMask(circle(30, 28, 10.3), transform: .identity, mode: modes[(number / 4) % 4], inverted: number % 5 == 2,
                               opacity: number % 2 == 0 ? 1 : 0.45)]
        let sourceMask = LayerMask(circle(24, 24, 17.7), transform: .identity, mode: .add, inverted: number % 7 == 3)
        let source = Layer(content: [fill("source", circle(26, 22, 20), RGBA(0.9, 0.3, 0.6, 0.75))], masks: [sourceMask], opacity: 0.85,
                           width: side, height: side)
        let inner = Layer(content: [fill("a", circle(18, 24, 16.5), RGBA(1, 0.8, 0, 1)), fill("b", circle(30, 22, 12), RGBA(0, 0.4, 1, 0.6))],
                          masks: masks, matte: number % 5 == 4 ? nil : LayerMatte(mattes[number % 4], source: source),
                          opacity: [1, 0.7, 0.33][number % 3], width: side, height: side)
        let outer = Layer(content: [fill("under", circle(10, 10, 9), RGBA(0.2, 1, 0.2, 0.8)), DrawItem("inner", inner)],
                          masks: number % 2 == 0 ? [] : [LayerMask(circle(24, 24, 21), transform: .identity, mode: .intersect, opacity: 0.9)],
                          opacity: 0.9, width: side, height: side)
        return DrawList(width: side, height: side, background: PaintColor(RGBA(0.1, 0.1, 0.1, number % 2 == 0 ? 1 : 0.4)),
                        items: [fill("back", circle(34, 34, 13), RGBA(1, 1, 1, 0.5)), DrawItem("layer", outer)])
    }

    @Test func everyMaskAndMatteModeMatchesTheCPUReference() throws {
        let gl = try GLRenderer()
        let cpu = CPURenderer()
        var worst = 0
        for number in 0..<20 {
            let list = LayerParityTests.frame(number)
            let diff = ImageDiff(expected: cpu.render(list), observed: try gl.render(list))
            worst = max(worst, diff.maxChannelDifference)
            #expect(diff.pixelsOverTolerance == 0, "frame \(number): \(diff.failureLines.joined(separator: "\n"))")
        }
        print("parity layers: largest channel difference \(worst)/255 over 20 frames")
    }

    /// Every other kind as a layer's content and as a matte source's: discs, waves, arcs, boxes,
    /// radial gradients, under masks, nested, matted.
    @Test func everyKindInsideALayerMatchesTheCPUReference() throws {
        let side = 64
        let kinds: [DrawItem] = [
            DrawItem("disc", Disc(centerX: 30, centerY: 28, radius: 20.3, color: RGBA(0.9, 0.2, 0.1, 0.8), width: side, height: side)),
            DrawItem("wave", Wave(originX: 0, amplitude: 4.5, k: 0.21, phase: 1.3, baseline: 33.2, bottom: nil, color: RGBA(0.1, 0.5, 1, 0.7),
                                  width: side, height: side)),
            DrawItem("arc", Arc(centerX: 32, centerY: 32, radius: 22, lineWidth: 5.5, start: 0.4, sweep: 4.1, color: RGBA(0, 1, 0.4, 1),
                                width: side, height: side)),
            DrawItem("boxes", Boxes([QuadInstance(centerX: 20, centerY: 40, halfX: 9, halfY: 3.5, rotation: 0.7, cornerRadius: 2,
                                                  color: RGBA(1, 1, 0, 0.9)),
                                     QuadInstance(centerX: 44, centerY: 18, halfX: 12, halfY: 5, rotation: -0.3, cornerRadius: 4.5,
                                                  color: RGBA(0.5, 0, 1, 0.6))], width: side, height: side)),
            DrawItem("glow", RadialGradient(centerX: 36, centerY: 30, reach: 25, color: RGBA(1, 0.6, 0.2, 0.9), width: side, height: side)),
        ]
        let gl = try GLRenderer()
        let cpu = CPURenderer()
        var worst = 0
        for (n, mode) in LayerMask.Mode.allCases.enumerated() {
            let mask = LayerMask(LayerParityTests.circle(32, 32, 19.6), transform: .identity, mode: mode, inverted: n % 2 == 1, opacity: 0.85)
            let source = Layer(content: Array(kinds.suffix(2 + n % 3)), masks: [mask], opacity: 0.9, width: side, height: side)
            let inner = Layer(content: Array(kinds.prefix(3 + n % 3)), masks: [mask],
                              matte: LayerMatte(LayerMatte.Mode.allCases[n], source: source), opacity: 0.8, width: side, height: side)
            let list = DrawList(width: side, height: side, background: PaintColor(RGBA(0.2, 0.2, 0.2, 1)),
                                items: [kinds[n], DrawItem("layer", Layer(content: [DrawItem("inner", inner)], opacity: 0.95, width: side, height: side))])
            let expected = cpu.render(list)
            let diff = ImageDiff(expected: expected, observed: try gl.render(list))
            worst = max(worst, diff.maxChannelDifference)
            #expect(diff.pixelsOverTolerance == 0, "\(mode): \(diff.failureLines.joined(separator: "\n"))")
            // The layer paints something: many reds, not the background's alone.
            #expect(Set(stride(from: 0, to: expected.pixels.count, by: 4).map { expected.pixels[$0] }).count > 20, "\(mode)")
        }
        print("parity layers of every kind: largest channel difference \(worst)/255")
    }

    /// A stack of frames, some with a layer and some without: each the same as drawn alone.
    @Test func framesWithLayersDrawTheSameInAStack() throws {
        let gl = try GLRenderer()
        let plain = DrawList(width: LayerParityTests.side, height: LayerParityTests.side, background: PaintColor(RGBA(0, 0, 0, 1)),
                             items: [LayerParityTests.fill("disc", LayerParityTests.circle(20, 20, 15), RGBA(1, 0, 0, 1))])
        let lists = [LayerParityTests.frame(1), plain, LayerParityTests.frame(6), plain]
        let stacked = try gl.render(lists)
        for (k, list) in lists.enumerated() {
            #expect(stacked[k].pixels == (try GLRenderer().render(list)).pixels, "frame \(k) of the stack")
        }
    }

    /// Random layer stacks: parity's `paths` scene with six random layers a case.
    @Test func randomLayerStacksMatchTheCPUReference() throws {
        let gl = try GLRenderer()
        let cpu = CPURenderer()
        var worst = 0
        let cases = try ParityMatrix.randomCases(scenes: ["paths"], count: 30, seed: 10, fixed: [.init("layers", "6")])
        for item in cases {
            let (_, _, diff, _) = try ParityMatrix.compare(try item.laidOutScene(), at: item.t, renderer: gl, reference: cpu)
            worst = max(worst, diff.maxChannelDifference)
            let label = "paths #\(item.index ?? 0) t=\(formatNumber(item.t)) " + item.settings.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
            #expect(diff.pixelsOverTolerance == 0, "\(label): \(diff.failureLines.joined(separator: "\n"))")
        }
        print("parity random layers: largest channel difference \(worst)/255 over \(cases.count) cases")
    }

    /// Deeper than GL's registers: refused with one line; the CPU draws it.
    @Test func layersTooDeepAreRefused() throws {
        var items = [LayerParityTests.fill("disc", LayerParityTests.circle(20, 20, 15), RGBA(1, 0, 0, 1))]
        for k in 0...Layer.maximumDepth { items = [DrawItem(ItemID("layer\(k)"), Layer(content: items, opacity: 0.99, width: 48, height: 48))] }
        let list = DrawList(width: 48, height: 48, background: PaintColor(RGBA(0, 0, 0, 1)), items: items)
        #expect(throws: ThrobberError.self) { try GLRenderer().render(list) }
        #expect(CPURenderer().render(list).pixels.count == 48 * 48 * 4)
    }
}
