import Foundation
import Testing
import Throbber
@testable import ThrobberGL

/// How the GL renderer lays a draw list out, without a driver: which items the one-pass layers
/// shader takes (`LayerPlan`) and, for the boxes it leaves out, the lists of everything that can
/// reach them (`FrameStack`).
struct FrameStackTests {
    /// Draw lists of every scene at odd scales and times, and tick rings whose counts are not
    /// multiples of 4 (the lit ticks then sit between the background ones).
    static func lists() throws -> [DrawList] {
        var lists: [DrawList] = []
        for id in SceneRegistry.ids {
            for scale in [0.37, 1, 1.7] {
                let scene = try LaidOutScene(Scene(try SceneRegistry.model(id), scale: scale))
                lists += [0, 0.61, 1.9].map { scene.drawList(at: $0) }
            }
        }
        for count in [1, 3, 6, 13, 26] {
            let scene = try LaidOutScene(Scene(WaveBall(), scale: 1.3).setting("tickCount", to: "\(count)")
                .setting("progress", to: "1").setting("fillFrom", to: "1"))
            lists.append(scene.drawList(at: 5))
        }
        return lists
    }

    /// Boxes scattered without a ring: what only the boxes pass can draw.
    static func scatteredBoxes(count: Int, side: Int = 64) -> DrawList {
        var generator = SplitMix64(seed: 7)
        let boxes = (0..<count).map { _ in
            QuadInstance(centerX: generator.next(in: 0...Double(side)), centerY: generator.next(in: 0...Double(side)),
                         halfX: generator.next(in: 0.2...9), halfY: generator.next(in: 0.2...5), rotation: generator.next(in: 0...7),
                         cornerRadius: generator.next(in: 0...0.2),
                         color: RGBA(generator.next(in: 0...1), generator.next(in: 0...1), generator.next(in: 0...1), generator.next(in: 0...1)))
        }
        return DrawList(width: side, height: side, background: PaintColor(RGBA(0.2, 0.3, 0.4, 0.5)), items: [
            DrawItem("disc", Disc(centerX: 30, centerY: 30, radius: 20, color: RGBA(1, 0.5, 0, 0.7), width: side, height: side)),
            DrawItem("boxes", Boxes(boxes, width: side, height: side)),
            DrawItem("arc", Arc(centerX: 32, centerY: 32, radius: 15, lineWidth: 3, start: 1, sweep: 4, maskRotation: 0.5,
                                color: RGBA(0, 0, 1, 0.8), width: side, height: side)),
        ])
    }

    @Test func everySceneIsOnePassOfLayers() throws {
        for list in try FrameStackTests.lists() {
            let plan = LayerPlan(list)
            #expect(plan.boxItems.isEmpty, "\(list.width)×\(list.height): items \(plan.boxItems) left to the boxes pass")
        }
    }

    @Test func boxesWithoutARingGoToTheBoxesPass() {
        let list = FrameStackTests.scatteredBoxes(count: 40)
        #expect(LayerPlan(list).boxItems == [1])
        // A few boxes are layers of their own.
        #expect(LayerPlan(FrameStackTests.scatteredBoxes(count: Boxes.maximumSingleBoxes)).boxItems.isEmpty)
    }

    @Test func aRingWithAGapInItsStepsGoesToTheBoxesPass() throws {
        let list = try LaidOutScene(Scene(WaveBall())).drawList(at: 1)
        guard var ring = list.items[3].primitive(as: BoxRing.self) else {
            Issue.record("the wave ball's fourth item is not its tick ring")
            return
        }
        ring.slots[5] = ring.slots[4]
        var broken = list
        broken.items[3] = DrawItem(list.items[3].id, ring)
        #expect(LayerPlan(broken).boxItems == [3])
    }

    /// The wave ball's disc, both waves' clip and its thin circle read one centre; the disc and
    /// the clips one radius; the two tick rings one centre (so the shader computes one distance
    /// and one angle for them): 27 vec4s where each layer on its own reads 33.
    @Test func equalCentresAndRadiiAreReadFromOnePlace() throws {
        let list = try LaidOutScene(Scene(WaveBall()).setting("progress", to: "1").setting("fillFrom", to: "1")).drawList(at: 2)
        let plan = LayerPlan(list)
        let all = Array(plan.layers.indices)
        #expect(plan.layers.count == 6)
        let (places, _, vectors, shared) = plan.layout(all)
        let separate = 1 + plan.layers.reduce(0) { $0 + ($1.values.count + $1.table.count) / 4 }
        #expect(separate == 33 && vectors.count / 4 == 27, "\(vectors.count / 4) vec4s, \(separate) unshared")
        // disc: bounds, centre, radius, colour; wave: bounds, curve, bottom, centre, radius, colour;
        // ring: bounds, centre, …; arc: bounds, centre, stroke, colour.
        let (disc, front, back, ticks, circle, lit) = (places[0], places[1], places[2], places[3], places[4], places[5])
        #expect(front[3] == disc[1] && back[3] == disc[1] && circle[1] == disc[1], "centres \(places)")
        #expect(front[4] == disc[2] && back[4] == disc[2], "radii \(places)")
        #expect(lit[1] == ticks[1], "ring centres \(places)")
        #expect(shared.count == 9)
        // Every place holds the vec4 the layer put there.
        for (layer, own) in zip(plan.layers, places) {
            for (n, at) in own.enumerated() {
                #expect(Array(vectors[(4 * at)..<(4 * at + 4)]) == Array(layer.values[(4 * n)..<(4 * n + 4)]))
            }
        }
        let code = plan.code(all)
        #expect(code.components(separatedBy: "ringBoxCoverage(p, V(\(ticks[1])).xy").count == 3, "\(code)")
    }

    /// Numbers that differ in a single bit are not shared, and the program's key says so: a
    /// program compiled for a shared place is never used for numbers that do not share it.
    @Test func onlyEqualBitsShareAPlace() throws {
        let list = try LaidOutScene(Scene(WaveBall())).drawList(at: 2)
        var nudged = list
        guard var wave = nudged.items[1].primitive(as: Wave.self) else {
            Issue.record("the wave ball's second item is not its front wave")
            return
        }
        wave.clipRadius = wave.clipRadius.nextUp
        nudged.items[1] = DrawItem(list.items[1].id, wave)
        let (plan, nudgedPlan) = (LayerPlan(list), LayerPlan(nudged))
        let all = Array(plan.layers.indices)
        let (places, _, vectors, _) = plan.layout(all)
        let (nudgedPlaces, _, nudgedVectors, _) = nudgedPlan.layout(all)
        #expect(places[1][4] == places[0][2] && nudgedPlaces[1][4] != nudgedPlaces[0][2])
        #expect(nudgedVectors.count == vectors.count + 4)
        #expect(plan.program(all).shape != nudgedPlan.program(all).shape)
        #expect(plan.code(all) != nudgedPlan.code(all))
    }

    /// Strokes and a radial gradient are layers of the one pass (one segment reading one vec4,
    /// two reading two) and, beside boxes the boxes pass draws, records in every list they reach:
    /// a stroke's record holds both segments, its line width and its segment count, a gradient's
    /// its centre and reach; the gradient covers the canvas, so every box lists it.
    @Test func strokesAndGradientsAreLayersAndRecords() throws {
        let side = 64
        var list = FrameStackTests.scatteredBoxes(count: 40, side: side)
        let check = Strokes(segments: [(4, 50, 20, 60), (20, 60, 60, 6)], lineWidth: 3, color: RGBA(1, 1, 1, 0.5), width: side, height: side)
        let stem = Strokes(segments: [(30, 10, 30, 40)], lineWidth: 2, color: RGBA(1, 1, 1, 1), width: side, height: side)
        let mask = RadialGradient(centerX: 32, centerY: 30, reach: 64, color: RGBA(0, 0, 0, 0.75), width: side, height: side)
        list.items += [DrawItem("mask", mask), DrawItem("check", check), DrawItem("stem", stem)]
        let plan = LayerPlan(list)
        #expect(plan.boxItems == [1])
        // disc, arc (masked), mask, check, stem; each layer: bounds, its vec4s, colour.
        #expect(plan.layers.map { $0.values.count / 4 } == [4, 5, 3, 5, 4])
        #expect(plan.layers.suffix(3).map(\.shape) == [RadialGradient.shape, Strokes.shape, Strokes.singleShape])
        let code = plan.code(Array(plan.layers.indices))
        #expect(code.contains("radialGradientCoverage(p, V(") && code.contains(", 2.0, V(") && code.contains(", 1.0, V("), "\(code)")

        let stack = FrameStack([list][...], boxItems: [[1]], width: side, height: side)
        #expect(!stack.boxesOnly)
        let count = stack.recordCount
        func record(_ n: Int) -> [Float] { Array(stack.records[(n * FrameStack.recordFloats)..<((n + 1) * FrameStack.recordFloats)]) }
        let (maskRecord, checkRecord, stemRecord) = (record(count - 3), record(count - 2), record(count - 1))
        #expect(maskRecord == [0, 0, 64, 64, GLPrimitiveRows.recordKind(of: RadialGradient.self), 32, 30, 64] + [Float](repeating: 0, count: 8)
                + [0, 0, 0, 0.75])
        let strokesKind = GLPrimitiveRows.recordKind(of: Strokes.self)
        let b = check.bounds
        #expect(checkRecord == [Float(b.x0), Float(b.y0), Float(b.x1), Float(b.y1), strokesKind, 4, 50, 20, 60, 20, 60, 60, 6, 3, 2, 0, 1, 1, 1, 0.5])
        let s = stem.bounds
        #expect(stemRecord == [Float(s.x0), Float(s.y0), Float(s.x1), Float(s.y1), strokesKind, 30, 10, 30, 40, 30, 10, 30, 40, 2, 1, 0, 1, 1, 1, 1])
        #expect(Array(GLPrimitiveRows.recordKinds.map { $0.kind }.drop { $0 != "Strokes" }.prefix(3)) == ["Strokes", "RadialGradient", "Path"])
        // Every box lists the mask, whose bounds are the canvas.
        #expect(stack.instanceCount > 0)
        for n in 0..<stack.instanceCount {
            let words = stack.instances[(n * FrameStack.instanceWords)...].prefix(FrameStack.instanceWords).map { Int($0) }
            #expect(stack.entries[words[6]..<(words[6] + words[7])].contains(Int32(count - 3)), "box \(n) does not list the mask")
        }
    }

    /// Every item of `list` made of boxes (Boxes, BoxRing), as the boxes pass's items.
    static func quadItems(_ list: DrawList) -> [Int] {
        list.items.indices.filter { GLPreparedItems.prepare(list.items[$0]) is BoxBatch }
    }

    @Test func everyRecordThatCanCoverABoxIsInItsList() throws {
        for list in try FrameStackTests.lists() + [FrameStackTests.scatteredBoxes(count: 40)] {
            // Two copies of the frame, so the second frame's records and lists are checked too.
            let boxItems = FrameStackTests.quadItems(list)
            let stack = FrameStack([list, list][...], boxItems: [boxItems, boxItems], width: list.width, height: list.height)
            // Every record's bounds, in order, as the stack numbers them.
            var bounds: [PixelRect] = []
            var annuli: [Annulus?] = []
            var boxRecords: [Int] = []
            for _ in 0..<2 {
                for (index, item) in list.items.enumerated() {
                    if let batch = GLPreparedItems.prepare(item) as? BoxBatch {
                        for rect in batch.boxBounds where !rect.isEmpty {
                            if boxItems.contains(index) { boxRecords.append(bounds.count) }
                            bounds.append(rect)
                            annuli.append(nil)
                        }
                    } else if !item.bounds.isEmpty {
                        bounds.append(item.bounds)
                        annuli.append(item.primitive.annulus)
                    }
                }
            }
            #expect(bounds.count == stack.recordCount)
            #expect(boxRecords.count == stack.instanceCount)
            let half = bounds.count / 2
            for (n, record) in boxRecords.enumerated() {
                let words = stack.instances[(n * FrameStack.instanceWords)...].prefix(FrameStack.instanceWords).map { Int($0) }
                let entries = stack.entries[words[6]..<(words[6] + words[7])].map(Int.init)
                #expect(words[8] == (record < half ? 0 : list.height), "the box's frame top row")
                #expect(entries == entries.sorted(), "a box's list is out of paint order")
                #expect(entries.contains(record), "a box's list lacks the box itself")
                // Every record of the same frame whose bounds (and annulus) reach the box's
                // bounds may cover one of its pixels, so it must be listed.
                let frame = record < half ? 0..<half : half..<bounds.count
                for other in frame where bounds[other].intersects(bounds[record])
                    && FrameStack.Reach(bounds: bounds[other], annulus: annuli[other], isBox: false).reaches(bounds[record]) {
                    #expect(entries.contains(other), "\(list.width)×\(list.height): record \(other) reaches box \(record) but is not listed")
                }
            }
        }
    }
}

extension SplitMix64 {
    /// A number drawn uniformly from `range`.
    mutating func next(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * nextUnit()
    }
}
