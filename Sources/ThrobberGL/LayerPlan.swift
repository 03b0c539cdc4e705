import Foundation
import Throbber

/// One frame's draw list as the layers pass (Shaders/layers.frag) takes it: per layer, the
/// statement that paints it and the numbers it reads; `program(_:)` puts a run of them together
/// into a program's shape (LAYERS) and its numbers (`v_v`).
///
/// Discs, waves and arcs become one statement each; a quad batch becomes one statement per box
/// when it has few, or one for the whole batch when it is a ring of boxes (`QuadRing`) whose steps
/// are consecutive (and, with boxes of several colours, never overlap); any other batch is left
/// to the boxes pass (`boxItems`).
struct LayerPlan {
    /// The most boxes of a batch that is not a usable ring drawn as single layers; a larger one
    /// goes to the boxes pass.
    static let maximumSingleBoxes = 4
    /// The most neighbours on each side a ring's statements try per pixel written out; a ring
    /// whose boxes reach further (boxes wide against their spacing) tries them in a loop.
    static let maximumRingReach = 4
    /// The most places of a ring with per-box colours (their colours are uniforms).
    static let maximumColouredRing = 32

    /// One layer: its numbers (whole vec4s), the GLSL statement painting it — made from the place
    /// of its first vec4 in `v_v` — and where it can paint.
    struct Layer {
        var values: [Float]
        /// What the statement looks like apart from the place of its numbers: layers of equal
        /// shapes in equal order make the same program.
        var shape: Int
        var statement: (Int) -> String
        var bounds: PixelRect
        var annulus: Annulus?

        /// Whether some pixel centre of `rect` can lie in the layer's bounds and annulus.
        func reaches(_ rect: PixelRect) -> Bool {
            FrameStack.Reach(bounds: bounds, annulus: annulus, isBox: false).reaches(rect)
        }
    }

    /// The layers, in paint order.
    private(set) var layers: [Layer] = []
    /// The frame's background (straight alpha).
    let background: PaintColor
    /// The union of the bounds of every item drawn here (empty when none is).
    private(set) var bounds = PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)
    /// The items (indices into the list's items) the boxes pass draws.
    private(set) var boxItems: [Int] = []

    init(_ list: DrawList) {
        background = list.background
        for (index, item) in list.items.enumerated() where !item.bounds.isEmpty {
            switch item {
            case .disc(let d):
                add(item.bounds, item.annulus, [d.centerX, d.centerY, d.radius, 0], color: d.color, shape: 1) { o in
                    "discCoverage(p, V(\(o)).xyz)"
                }
            case .wave(let w):
                let values = [w.originX, w.amplitude, w.k, w.phase, w.baseline, w.bottom, w.clipCenterX, w.clipCenterY,
                              w.clipRadius, 0, 0, 0]
                add(item.bounds, item.annulus, values, color: w.color, shape: w.clipRadius >= 0 ? 2 : 3) { o in
                    let band = "waveBandCoverage(p, V(\(o)).x, V(\(o)).y, V(\(o)).z, V(\(o)).w, V(\(o + 1)).x, V(\(o + 1)).y)"
                    return w.clipRadius >= 0 ? "\(band) * fillCoverage(circleDistance(p, V(\(o + 1)).zw, V(\(o + 2)).x))" : band
                }
            case .arc(let a):
                add(item.bounds, item.annulus, [a.centerX, a.centerY, a.radius, a.lineWidth, a.start, a.sweep, a.maskDirectionX, a.maskDirectionY],
                    color: a.color, shape: a.isFullCircle ? 4 : a.maskRotation >= 0 ? 5 : 6) { o in
                    if a.isFullCircle { return "circleStrokeCoverage(p, V(\(o)).xy, V(\(o)).z, V(\(o)).w)" }
                    let stroke = "strokeCoverage(arcDistance(p, V(\(o)).xy, V(\(o)).z, V(\(o + 1)).x, V(\(o + 1)).y), V(\(o)).w)"
                    return a.maskRotation >= 0 ? "\(stroke) * ringMask(p - V(\(o)).xy, V(\(o + 1)).zw)" : stroke
                }
            case .quads(let batch):
                if let ring = batch.ring, addRing(ring, batch) { continue }
                guard batch.instances.count <= LayerPlan.maximumSingleBoxes else {
                    boxItems.append(index)
                    continue
                }
                for (q, rect) in zip(batch.instances, batch.instanceBounds) where !rect.isEmpty {
                    // cos θ and sin θ in single precision, as the CPU renderer computes them.
                    add(rect, nil, [q.centerX, q.centerY, q.cornerRadius, 0, q.halfX, q.halfY, cos(q.rotation), sin(q.rotation)],
                        color: q.color, shape: 7) { o in
                        "boxCoverage(p, V(\(o)).xy, V(\(o + 1)).xy, V(\(o + 1)).zw, V(\(o)).z)"
                    }
                }
            }
        }
    }

    /// Appends a layer: its bounds, `values` (whole vec4s), its colour, and the statement painting
    /// it, made by `coverage` from the place of its first value vec4.
    private mutating func add(_ rect: PixelRect, _ annulus: Annulus?, _ values: [Float], color: PaintColor, shape: Int,
                              _ coverage: @escaping (Int) -> String) {
        let count = values.count / 4
        layers.append(Layer(values: [Float(rect.x0), Float(rect.y0), Float(rect.x1), Float(rect.y1)] + values + [color.r, color.g, color.b, color.a],
                            shape: shape, statement: { o in "dst = paint(dst, V(\(o + 1 + count)), inside(p, V(\(o))) * \(coverage(o + 1))); " },
                            bounds: rect, annulus: annulus))
        bounds = PixelRect.union([bounds, rect])
    }

    /// The shape and the numbers of the program painting the layers `indices` in paint order:
    /// their shapes, and `v_v` — the background, then each layer's vec4s.
    func program(_ indices: [Int]) -> (shape: [Int], vectors: [Float]) {
        var vectors = [background.r, background.g, background.b, background.a]
        for i in indices { vectors += layers[i].values }
        return (indices.map { layers[$0].shape }, vectors)
    }

    /// The statements painting the layers `indices` in paint order (LAYERS), their numbers
    /// placed as `program(_:)` places them.
    func code(_ indices: [Int]) -> String {
        var code = ""
        var at = 1
        for i in indices {
            code += layers[i].statement(at)
            at += layers[i].values.count / 4
        }
        return code
    }

    /// Appends a ring of boxes as one layer when its boxes are consecutive steps of one turn and,
    /// if they differ in colour, no two can cover one pixel; returns false (and appends nothing)
    /// otherwise.
    private mutating func addRing(_ ring: QuadRing, _ batch: QuadBatch) -> Bool {
        let steps = ring.steps
        guard steps >= 1, ring.slots.count == batch.instances.count, !batch.bounds.isEmpty else { return false }
        // The steps, reduced to one turn, must be distinct and consecutive: first … first + span.
        var taken = [Bool](repeating: false, count: steps)
        for slot in ring.slots {
            let place = ((slot % steps) + steps) % steps
            guard !taken[place] else { return false }
            taken[place] = true
        }
        let count = ring.slots.count
        var first = 0
        if count < steps {
            // The run starts after the one gap.
            guard let start = (0..<steps).first(where: { taken[$0] && !taken[($0 - 1 + steps) % steps] }),
                  (0..<count).allSatisfy({ taken[(start + $0) % steps] }) else { return false }
            first = start
        }
        let span = count - 1
        let base = ring.base
        let stepAngle = 2 * Double.pi / Double(steps)
        let offsetX = Double(base.centerX) - Double(ring.centerX), offsetY = Double(base.centerY) - Double(ring.centerY)
        let baseAngle = atan2(offsetY, offsetX)
        // How far, in steps, a box reaches from its own angle about the centre: the corners of
        // the box grown by half a pixel (where its coverage ends).
        let cosR = Double(cos(base.rotation)), sinR = Double(sin(base.rotation))
        let hx = Double(base.halfX) + 0.5, hy = Double(base.halfY) + 0.5
        // A box over the centre may cover a pixel at any angle: every step is a candidate.
        let cx = -offsetX * cosR - offsetY * sinR, cy = offsetX * sinR - offsetY * cosR
        var neighbours = steps
        if abs(cx) > hx || abs(cy) > hy {
            // The box does not hold the centre, so its angular extent is its corners'.
            var reach = 0.0
            for (sx, sy) in [(1.0, 1.0), (1, -1), (-1, 1), (-1, -1)] {
                let x = offsetX + sx * hx * cosR - sy * hy * sinR, y = offsetY + sx * hx * sinR + sy * hy * cosR
                var delta = atan2(y, x) - baseAngle
                delta -= 2 * .pi * (delta / (2 * .pi)).rounded()
                reach = max(reach, abs(delta))
            }
            // A box of the ring covers the pixel only if |k − t| ≤ reach / step, t the pixel's
            // angle in steps; k is sought around round(t), so within reach/step + 0.5 of it.
            neighbours = min(steps, Int((reach / stepAngle + 0.5 + 1e-3).rounded(.down)))
        }
        // The candidates: round(t) − K … round(t) + K, or every step once when that would wrap
        // round the turn (no box may be tried twice). A few are written out; more are a loop.
        let candidates = min(2 * neighbours + 1, steps)
        let firstCandidate = candidates == steps ? -(steps / 2) : -neighbours
        let unrolled = neighbours <= LayerPlan.maximumRingReach && candidates == 2 * neighbours + 1
        let coloured = batch.instances.contains { $0.color != batch.instances[0].color }
        // Boxes of one colour blend to the same result in any order; boxes of several colours
        // only when no two can cover one pixel (one candidate).
        guard !coloured || (candidates == 1 && count <= LayerPlan.maximumColouredRing) else { return false }
        let b = batch.bounds
        var values: [Float] = [Float(b.x0), Float(b.y0), Float(b.x1), Float(b.y1),
                               ring.centerX, ring.centerY, Float(baseAngle), Float(stepAngle),
                               Float(offsetX), Float(offsetY), base.halfX, base.halfY,
                               cos(base.rotation), sin(base.rotation), base.cornerRadius, Float(steps),
                               Float(first), Float(span), Float(firstCandidate), Float(candidates)]
        let call = { (at: Int, j: String) in
            "ringBoxCoverage(p, V(\(at + 1)).xy, V(\(at + 1)).z, V(\(at + 1)).w, V(\(at + 2)).xy, V(\(at + 2)).zw, "
                + "V(\(at + 3)).xy, V(\(at + 3)).z, V(\(at + 3)).w, V(\(at + 4)).x, V(\(at + 4)).y, \(j), place)"
        }
        let statement: (Int) -> String
        if coloured {
            // The colour of each place, in order from `first`.
            var byPlace = [PaintColor](repeating: batch.instances[0].color, count: count)
            for (slot, q) in zip(ring.slots, batch.instances) {
                let place = ((((slot % steps) + steps) % steps) - first + steps) % steps
                byPlace[place] = q.color
            }
            for c in byPlace { values += [c.r, c.g, c.b, c.a] }
            statement = { at in
                "{ float c = inside(p, V(\(at))) * \(call(at, "0.0")); dst = paint(dst, V(\(at + 5) + int(min(place, \(span).0))), c); } "
            }
        } else {
            let colour = batch.instances[0].color
            values += [colour.r, colour.g, colour.b, colour.a]
            statement = { at in
                guard unrolled else {
                    return "for (int j = 0; j < int(V(\(at + 4)).w); ++j) { dst = paint(dst, V(\(at + 5)), inside(p, V(\(at))) * "
                        + "\(call(at, "V(\(at + 4)).z + float(j)"))); } "
                }
                return (-neighbours...neighbours).map { "dst = paint(dst, V(\(at + 5)), inside(p, V(\(at))) * \(call(at, "\($0).0"))); " }
                    .joined()
            }
        }
        bounds = PixelRect.union([bounds, b])
        // Every box lies within its reach of the circle through the base box's centre.
        let radius = (offsetX * offsetX + offsetY * offsetY).squareRoot()
        let boxReach = (hx * hx + hy * hy).squareRoot() + 1
        let annulus = Annulus(centerX: ring.centerX, centerY: ring.centerY, inner: Float(max(0, radius - boxReach)),
                              outer: Float(radius + boxReach))
        layers.append(Layer(values: values, shape: coloured ? 2000 + span : unrolled ? 1000 + neighbours : 3000, statement: statement, bounds: b,
                            annulus: annulus))
        return true
    }
}
