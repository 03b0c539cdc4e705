import Foundation
import Testing
@testable import Throbber
import ThrobberText

/// Issue 46.2: every frame's cost is bounded before it is drawn, whatever its primitives —
/// arcs, discs, waves, strokes, glyphs, gradients as well as boxes — and a scene file's nested
/// copies and its preflight are bounded before they are paid for.
struct FrameWorkTests {
    static func area(_ r: PixelRect) -> Double { Double(max(0, r.x1 - r.x0)) * Double(max(0, r.y1 - r.y0)) }

    /// Each kind's work is its shapes' bounds on the canvas, summed; one shape for a single
    /// primitive, one per box or glyph for the kinds that hold several. Random sizes, centres off
    /// the canvas included, so the clipping counts.
    @Test(arguments: [1, 2, 3, 4, 5])
    func everyKindReportsItsShapesAndTheirPixels(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        func r(_ range: ClosedRange<Double>) -> Double { range.lowerBound + rng.nextUnit() * (range.upperBound - range.lowerBound) }
        let (w, h) = (Int(r(1...900)), Int(r(1...900)))
        let color = RGBA(0.2, 0.4, 0.6, 0.8)
        let disc = Disc(centerX: r(-200...1100), centerY: r(-200...1100), radius: r(0...700), color: color, width: w, height: h)
        let arc = Arc(centerX: r(-200...1100), centerY: r(-200...1100), radius: r(0...700), lineWidth: r(0...50), start: 0,
                      sweep: r(0...7), color: color, width: w, height: h)
        let wave = Wave(originX: 0, amplitude: r(0...100), k: 0.1, phase: 0, baseline: r(0...900), bottom: nil, color: color, width: w, height: h)
        let strokes = Strokes(segments: [(r(0...900), r(0...900), r(0...900), r(0...900))], lineWidth: r(0...40), color: color, width: w, height: h)
        let gradient = RadialGradient(centerX: 1, centerY: 1, reach: r(1...100), color: color, width: w, height: h)
        let singles: [any Primitive] = [disc, arc, wave, strokes, gradient]
        for single in singles {
            #expect(single.pixelWork == PixelWork(shapes: 1, pixels: Self.area(single.bounds)), "\(type(of: single))")
        }
        #expect(gradient.pixelWork.pixels == Double(w * h))
        let count = Int(r(1...50))
        let quads = (0..<count).map { _ in
            QuadInstance(centerX: r(-100...1000), centerY: r(-100...1000), halfX: r(0...300), halfY: r(0...300), rotation: r(0...7),
                         cornerRadius: 0, color: color)
        }
        let boxes = Boxes(quads, width: w, height: h)
        #expect(boxes.pixelWork.shapes == count)
        #expect(boxes.pixelWork.pixels == quads.reduce(0) { $0 + Self.area($1.bounds(width: w, height: h)) })
        let ring = BoxRing(centerX: r(0...900), centerY: r(0...900), offsetX: r(0...300), offsetY: 0, halfX: r(1...40), halfY: r(1...40),
                           boxRotation: 0, cornerRadius: 0, start: 0, steps: count, slots: Array(0..<count), colors: [color], width: w, height: h)
        #expect(ring.pixelWork.shapes == count)
        #expect(ring.pixelWork.pixels == ring.boxes().reduce(0) { $0 + Self.area($1.bounds(width: w, height: h)) })
        let glyphQuads = (0..<count).map { _ in
            Glyphs.Quad(x: Int(r(-50...950)), y: Int(r(-50...950)), atlasX: 0, atlasY: 0, width: Int(r(0...60)), rows: Int(r(0...60)))
        }
        let glyphs = Glyphs(glyphQuads, atlas: "atlas", revision: 0, color: color, width: w, height: h)
        #expect(glyphs.pixelWork.shapes == count)
        #expect(glyphs.pixelWork.pixels == glyphQuads.reduce(0) { $0 + Self.area($1.bounds(width: w, height: h)) })
        // A frame sums them, each kind once.
        let list = DrawList(width: w, height: h, background: PaintColor(.clear),
                            items: [DrawItem("d", disc), DrawItem("a", arc), DrawItem("b", boxes), DrawItem("r", ring), DrawItem("a2", arc)])
        let work = FrameWork(list)
        #expect(work.pixels == Self.area(disc.bounds) + 2 * Self.area(arc.bounds) + boxes.pixelWork.pixels + ring.pixelWork.pixels)
        #expect(work.shares.map(\.one) == ["disc", "arc", "box"])
        #expect(work.shares.first { $0.one == "box" }?.work.shapes == 2 * count)
    }

    /// Every kind names itself in a refusal, one and many, and a new kind must (a requirement).
    @Test func everyKindHasANoun() {
        for kind in PrimitiveKinds.all {
            #expect(!kind.noun.one.isEmpty && !kind.noun.many.isEmpty && kind.noun.one != kind.noun.many, "\(kind.kind)")
        }
    }

    /// The refusal names the shapes, their pixels, how many times the limit, and the limit.
    @Test(arguments: [10, 1000, 10_000])
    func aFrameOverTheLimitSaysWhatAndByHowMuch(arcs: Int) {
        let side = 1000
        let arc = Arc(centerX: 500, centerY: 500, radius: 490, lineWidth: 4, start: 0, sweep: 8, color: RGBA(0, 0, 0, 1), width: side, height: side)
        let list = DrawList(width: side, height: side, background: PaintColor(.clear),
                            items: (0..<arcs).map { DrawItem(ItemID("a\($0)"), arc) })
        let work = FrameWork(list)
        #expect(work.pixels == Double(arcs) * Self.area(arc.bounds))
        #expect(work.cost == work.pixels + Double(arcs * Limits.pixelsPerShape))
        #expect(work.isWithin() == (work.cost <= Double(Limits.pixelsPerFrame)))
        let text = work.text()
        #expect(text.hasPrefix("the \(arcs) arcs of a frame cover \(formatNumber(work.pixels)) px"), "\(text)")
        #expect(text.contains("\(Limits.pixelsPerFrame) px"))
        let times = Double(text.split(separator: ",")[1].split(separator: " ")[0])
        #expect(times.map { abs($0 - work.cost / Double(Limits.pixelsPerFrame)) <= 0.011 } == true, "\(text)")
    }

    /// Many tiny shapes cost what their setup costs: refused though their pixels are few, and
    /// the line says so; a thousand, or as many as the cap less a few, are drawn.
    @Test(arguments: [(1000, true), (Limits.shapesPerFrame - 1_000, true), (Limits.shapesPerFrame + 1_000, false), (2_000_000, false)])
    func manyTinyShapesCostTheirSetup(count: Int, within: Bool) {
        let quads = (0..<count).map { QuadInstance(centerX: Double($0 % 100), centerY: 5, halfX: 1, halfY: 1, rotation: 0, cornerRadius: 0,
                                                   color: RGBA(0, 0, 0, 1)) }
        let work = FrameWork(items: [DrawItem("b", Boxes(quads, width: 100, height: 100))])
        #expect(work.shapes == count && work.pixels < Double(count) * 100)
        #expect(work.isWithin() == within)
        if !within {
            #expect(work.text().contains("px and cost \(formatNumber(work.cost)) px with \(Limits.pixelsPerShape) px a shape for its setup"), "\(work.text())")
        }
    }

    /// What users legitimately do still renders: every built-in at its defaults on the largest
    /// canvas (16,384 px a side), and the wave ball's 10,000 ticks (the README's limit).
    @Test func builtInsAtTheirLargestCanvasesAreWithinTheBudget() throws {
        for model in SceneRegistry.defaults {
            let side = max(model.canvasSize.width, model.canvasSize.height)
            let scale = min(Limits.scale, Double(Scene.maximumPixelSide) / side * (1 - 1e-9))
            try Scene(model, scale: scale).validate()
        }
        var ball = WaveBall()
        ball.tickCount = 10_000
        try Scene(ball, scale: 3).validate()
    }
}
