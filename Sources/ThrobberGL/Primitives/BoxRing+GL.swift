import Foundation
import Throbber

// The box ring's row (Throbber/DrawList/Primitives/BoxRing.swift): a ring whose steps are
// consecutive is one layer that finds the few boxes near a pixel from the pixel's angle
// (Shaders/Primitives/box-ring.glsl's ringBoxCoverage, turning the box of slot 0 in single
// precision); any other ring is drawn as its boxes (Boxes+GL.swift). Its records are its boxes'.

extension BoxRing: GLPrimitive {
    static let shaderFile = "box-ring.glsl"
    static let recordCoverage: String? = nil
    static let unrolledShape = LayerShape.named("BoxRing unrolled")
    static let colouredShape = LayerShape.named("BoxRing coloured")
    static let loopShape = LayerShape.named("BoxRing loop")
    /// The most neighbours on each side a ring's statements try per pixel written out; a ring
    /// whose boxes reach further (boxes wide against their spacing) tries them in a loop.
    static let maximumRingReach = 4
    /// The most places of a ring with per-box colours (their colours are uniforms).
    static let maximumColouredRing = 32

    /// The boxes as the CPU renderer places them, with their bounds.
    func prepareGL() -> any GLItem {
        let boxes = boxes()
        return BoxBatch(boxes: boxes, boxBounds: boxes.map { $0.bounds(width: width, height: height) }, ring: self)
    }
}

extension BoxBatch {
    /// Appends a ring of boxes as one layer when its boxes are consecutive steps of one turn and,
    /// if they differ in colour, no two can cover one pixel; returns false (and appends nothing)
    /// otherwise.
    func addRing(_ ring: BoxRing, to plan: inout LayerPlan) -> Bool {
        let steps = ring.steps
        guard steps >= 1, ring.slots.count == boxes.count, !bounds.isEmpty else { return false }
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
        // The box of slot 0 (its colour is not used), as the CPU renderer places it.
        let base = ring.box(slot: 0, color: ring.colors[0])
        let ringCenterX = Float(ring.centerX), ringCenterY = Float(ring.centerY)
        let stepAngle = 2 * Double.pi / Double(steps)
        let offsetX = Double(base.centerX) - Double(ringCenterX), offsetY = Double(base.centerY) - Double(ringCenterY)
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
        let unrolled = neighbours <= BoxRing.maximumRingReach && candidates == 2 * neighbours + 1
        let coloured = boxes.contains { $0.color != boxes[0].color }
        // Boxes of one colour blend to the same result in any order; boxes of several colours
        // only when no two can cover one pixel (one candidate).
        guard !coloured || (candidates == 1 && count <= BoxRing.maximumColouredRing) else { return false }
        let b = bounds
        // The centre with the candidates first: two rings about one centre, with boxes of one
        // size, read it from one place and share the pixel's angle.
        var values: [Float] = [Float(b.x0), Float(b.y0), Float(b.x1), Float(b.y1),
                               ringCenterX, ringCenterY, Float(firstCandidate), Float(candidates),
                               Float(baseAngle), Float(stepAngle), Float(offsetX), Float(offsetY),
                               base.halfX, base.halfY, cos(base.rotation), sin(base.rotation),
                               base.cornerRadius, Float(steps), Float(first), Float(span)]
        // v: bounds, centre, angles, box, run, and the colour unless each place has its own.
        let call = { (v: [Int], j: String) in
            "ringBoxCoverage(p, V(\(v[1])).xy, V(\(v[2])).x, V(\(v[2])).y, V(\(v[2])).zw, V(\(v[3])).xy, "
                + "V(\(v[3])).zw, V(\(v[4])).x, V(\(v[4])).y, V(\(v[4])).z, V(\(v[4])).w, \(j), place)"
        }
        let statement: ([Int], Int) -> String
        var table: [Float] = []
        if coloured {
            // The colour of each place, in order from `first`, read by index.
            var byPlace = [PaintColor](repeating: boxes[0].color, count: count)
            for (slot, q) in zip(ring.slots, boxes) {
                let place = ((((slot % steps) + steps) % steps) - first + steps) % steps
                byPlace[place] = q.color
            }
            for c in byPlace { table += [c.r, c.g, c.b, c.a] }
            statement = { v, t in
                "{ float c = inside(p, V(\(v[0]))) * \(call(v, "0.0")); dst = paint(dst, V(\(t) + int(min(place, \(span).0))), c); } "
            }
        } else {
            let colour = boxes[0].color
            values += [colour.r, colour.g, colour.b, colour.a]
            statement = { v, _ in
                guard unrolled else {
                    return "for (int j = 0; j < int(V(\(v[1])).w); ++j) { dst = paint(dst, V(\(v[5])), inside(p, V(\(v[0]))) * "
                        + "\(call(v, "V(\(v[1])).z + float(j)"))); } "
                }
                return (-neighbours...neighbours).map { "dst = paint(dst, V(\(v[5])), inside(p, V(\(v[0]))) * \(call(v, "\($0).0"))); " }
                    .joined()
            }
        }
        plan.bounds = PixelRect.union([plan.bounds, b])
        // Every box lies within its reach of the circle through the base box's centre.
        let radius = (offsetX * offsetX + offsetY * offsetY).squareRoot()
        let boxReach = (hx * hx + hy * hy).squareRoot() + 1
        let annulus = Annulus(centerX: ringCenterX, centerY: ringCenterY, inner: Float(max(0, radius - boxReach)),
                              outer: Float(radius + boxReach))
        // One colour and one box per pixel: one coverage, which a texture can hold.
        let coverage: (([Int]) -> String)? = !coloured && unrolled && neighbours == 0
            ? { v in "inside(p, V(\(v[0]))) * \(call(v, "0.0"))" } : nil
        plan.layers.append(LayerPlan.Layer(values: values, table: table, shared: [1],
                                           shape: coloured ? BoxRing.colouredShape + span : unrolled ? BoxRing.unrolledShape + neighbours : BoxRing.loopShape,
                                           statement: statement, coverage: coverage, bounds: b, annulus: annulus))
        return true
    }
}
