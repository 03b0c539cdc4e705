import Testing
import Throbber

/// The layer's value (SPEC §10): its bounds (the content's, cut by what masks and mattes make
/// certainly 0), its depth, its work (every part counted) and its equality.
struct LayerTests {
    static func square(_ x: Double, _ y: Double, _ side: Double) -> PathGeometry {
        PathGeometry(subpaths: [Subpath(start: PathPoint(x, y), segments: [.line(to: PathPoint(x + side, y)),
                                                                           .line(to: PathPoint(x + side, y + side)),
                                                                           .line(to: PathPoint(x, y + side))], closed: true)])
    }

    static func content(_ x: Double, _ y: Double, _ side: Double) -> [DrawItem] {
        [DrawItem("fill", Path(square(x, y, side), role: .fill(.nonzero), paint: .solid(PaintColor(RGBA(1, 0, 0, 1))), width: 100, height: 100))]
    }

    static func mask(_ x: Double, _ y: Double, _ side: Double, _ mode: LayerMask.Mode, inverted: Bool = false, opacity: Double = 1) -> LayerMask {
        LayerMask(square(x, y, side), transform: .identity, mode: mode, inverted: inverted, opacity: opacity)
    }

    @Test func boundsAreTheContentsCutByMasksAndMattes() {
        let content = LayerTests.content(10, 10, 50)
        func bounds(_ masks: [LayerMask], matte: LayerMatte? = nil) -> PixelRect {
            Layer(content: content, masks: masks, matte: matte, width: 100, height: 100).bounds
        }
        #expect(bounds([]) == PixelRect(x0: 10, y0: 10, x1: 60, y1: 60))
        // A first add: only inside the mask.
        #expect(bounds([LayerTests.mask(30, 30, 10, .add)]) == PixelRect(x0: 30, y0: 30, x1: 40, y1: 40))
        // A later add grows it; an inverted one reaches everywhere; subtract never grows it.
        #expect(bounds([LayerTests.mask(30, 30, 10, .add), LayerTests.mask(20, 20, 5, .add)]) == PixelRect(x0: 20, y0: 20, x1: 40, y1: 40))
        #expect(bounds([LayerTests.mask(30, 30, 10, .add), LayerTests.mask(20, 20, 5, .difference, inverted: true)])
                == PixelRect(x0: 10, y0: 10, x1: 60, y1: 60))
        #expect(bounds([LayerTests.mask(0, 0, 5, .subtract)]) == PixelRect(x0: 10, y0: 10, x1: 60, y1: 60))
        // Intersect cuts at full opacity only.
        #expect(bounds([LayerTests.mask(0, 0, 20, .intersect)]) == PixelRect(x0: 10, y0: 10, x1: 20, y1: 20))
        #expect(bounds([LayerTests.mask(0, 0, 20, .intersect, opacity: 0.5)]) == PixelRect(x0: 10, y0: 10, x1: 60, y1: 60))
        // An alpha matte cuts to its source; an inverted one does not.
        let source = Layer(content: LayerTests.content(50, 50, 30), width: 100, height: 100)
        #expect(bounds([], matte: LayerMatte(.alpha, source: source)) == PixelRect(x0: 50, y0: 50, x1: 60, y1: 60))
        #expect(bounds([], matte: LayerMatte(.luma, source: source)) == PixelRect(x0: 50, y0: 50, x1: 60, y1: 60))
        #expect(bounds([], matte: LayerMatte(.alphaInverted, source: source)) == PixelRect(x0: 10, y0: 10, x1: 60, y1: 60))
    }

    @Test func depthWorkAndEquality() {
        let inner = Layer(content: LayerTests.content(10, 10, 50), masks: [LayerTests.mask(0, 0, 20, .add)], width: 100, height: 100)
        let source = Layer(content: [DrawItem("inner", inner)], width: 100, height: 100)
        let outer = Layer(content: LayerTests.content(0, 0, 100), matte: LayerMatte(.luma, source: source), opacity: 0.5, width: 100, height: 100)
        #expect(inner.depth == 1 && source.depth == 2 && outer.depth == 3)
        // Squares of four chords each: the outer content, the inner content and its mask.
        #expect(outer.chordCount == 12 && inner.chordCount == 8)
        // The content's 50² px, the mask's 20², the source's (its inner layer's parts and its own
        // composite), and the outer content 100² and composite.
        let work = outer.pixelWork
        #expect(work.shapes > 4)
        let least: Double = 100 * 100 + 50 * 50 + 20 * 20
        #expect(work.pixels >= least)
        #expect(FrameWork(items: [DrawItem("outer", outer)]).pixels == work.pixels)
        let again = Layer(content: LayerTests.content(0, 0, 100), matte: LayerMatte(.luma, source: source), opacity: 0.5, width: 100, height: 100)
        #expect(again == outer)
        let other = Layer(content: LayerTests.content(0, 0, 100), matte: LayerMatte(.alpha, source: source), opacity: 0.5, width: 100, height: 100)
        #expect(other != outer)
        #expect(Layer(content: [], width: 10, height: 10).bounds.isEmpty)
    }
}

/// Parity's `paths` scene with random layers (SPEC §10): every mode drawn, nesting, and the
/// cases drawn before `layers` existed kept.
struct RandomPathsLayerTests {
    /// Every layer of `items`, nested ones and matte sources included.
    static func layers(_ items: [DrawItem]) -> [Layer] {
        items.compactMap { $0.primitive(as: Layer.self) }.flatMap { layer in
            [layer] + RandomPathsLayerTests.layers(layer.content) + (layer.matte.map { [$0.source] + RandomPathsLayerTests.layers($0.source.content) } ?? [])
        }
    }

    @Test func oneHundredSeedsDrawEveryMaskAndMatteModeAndNest() {
        var masks = Set<String>(), mattes = Set<LayerMatte.Mode>(), deepest = 0
        for seed in 1...100 {
            var model = RandomPaths()
            model.seed = seed
            model.layers = 6
            let items = model.drawItems(for: model.frameState(at: 0.3), scale: 1, width: 96, height: 96)
            #expect(items == model.drawItems(for: model.frameState(at: 0.3), scale: 1, width: 96, height: 96), "seed \(seed) draws alike")
            for layer in RandomPathsLayerTests.layers(items) {
                for mask in layer.masks { masks.insert("\(mask.mode)\(mask.inverted ? " inverted" : "")") }
                if let matte = layer.matte { mattes.insert(matte.mode) }
                deepest = max(deepest, layer.depth)
                #expect(layer.depth <= RandomPaths.deepestLayer)
            }
            // Without layers, the paths are those of before.
            model.layers = 0
            #expect(model.drawItems(for: model.frameState(at: 0.3), scale: 1, width: 96, height: 96).allSatisfy { $0.primitive is Path })
        }
        #expect(masks.count == 8, "\(masks.sorted())")
        #expect(mattes == Set(LayerMatte.Mode.allCases))
        #expect(deepest >= 3)
    }

    @Test func randomCasesDrawLayersAfterEverythingElse() throws {
        let sampler = ParameterSampler(seed: 1)
        var layered = 0
        for index in 0..<40 {
            let drawn = try sampler.draw("paths", index: index)
            let without = try sampler.draw("paths", index: index, fixed: [.init("layers", "0")])
            #expect(drawn.time == without.time)
            #expect(drawn.settings.filter { $0.name != "layers" } == without.settings.filter { $0.name != "layers" }, "case \(index)")
            if drawn.settings.contains(where: { $0.name == "layers" }) { layered += 1 }
        }
        #expect(layered > 10)
    }
}
