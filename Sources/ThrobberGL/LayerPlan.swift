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
///
/// Layers of a run that read an equal vec4 read it from one place (`layout(_:)`), so the
/// statements that compute the same thing from it are the same expressions, which the shader
/// compiler computes once per pixel: the wave ball's disc and both waves' clip share one circle
/// (one square root, not three), the thin circle its centre's distance, and its two tick rings
/// the pixel's angle (one arctangent, not two).
struct LayerPlan {
    /// The most boxes of a batch that is not a usable ring drawn as single layers; a larger one
    /// goes to the boxes pass.
    static let maximumSingleBoxes = 4
    /// The most neighbours on each side a ring's statements try per pixel written out; a ring
    /// whose boxes reach further (boxes wide against their spacing) tries them in a loop.
    static let maximumRingReach = 4
    /// The most places of a ring with per-box colours (their colours are uniforms).
    static let maximumColouredRing = 32

    /// One layer: its numbers (whole vec4s), the GLSL statement painting it — made from the
    /// places of its vec4s in `v_v` — and where it can paint.
    struct Layer {
        /// Whole vec4s: its bounds, what its coverage reads, its colour.
        var values: [Float]
        /// Whole vec4s read by index (a ring's colour per place), kept together after `values`.
        var table: [Float] = []
        /// Which vec4s of `values` another layer may read too (a centre, a radius): only these
        /// are compared with what the layers before placed.
        var shared: [Int] = []
        /// What the statement looks like apart from the places of its numbers: layers of equal
        /// shapes in equal order, whose shared vec4s have equal places, make the same program.
        var shape: Int
        /// The statement, from the place of each vec4 of `values` and of the first of `table`.
        var statement: (_ places: [Int], _ table: Int) -> String
        /// For a layer that paints one colour once per pixel and may be drawn from a coverage
        /// texture (a ring of boxes that tries one box per pixel): its coverage, as an
        /// expression of the places of `values`.
        var coverage: ((_ places: [Int]) -> String)?
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
                // The centre and the radius apart, as a wave's clip has them, so that both read
                // one place when they are equal.
                add(item.bounds, item.annulus, [d.centerX, d.centerY, 0, 0, d.radius, 0, 0, 0], shared: [0, 1], color: d.color, shape: 1) { v in
                    "discCoverage(p, vec3(V(\(v[0])).xy, V(\(v[1])).x))"
                }
            case .wave(let w):
                let curve = [w.originX, w.amplitude, w.k, w.phase, w.baseline, w.bottom, 0, 0]
                let clipped = w.clipRadius >= 0
                add(item.bounds, item.annulus, curve + (clipped ? [w.clipCenterX, w.clipCenterY, 0, 0, w.clipRadius, 0, 0, 0] : []),
                    shared: clipped ? [2, 3] : [], color: w.color, shape: clipped ? 2 : 3) { v in
                    let band = "waveBandCoverage(p, V(\(v[0])).x, V(\(v[0])).y, V(\(v[0])).z, V(\(v[0])).w, V(\(v[1])).x, V(\(v[1])).y)"
                    return clipped ? "\(band) * fillCoverage(circleDistance(p, V(\(v[2])).xy, V(\(v[3])).x))" : band
                }
            case .arc(let a):
                let centre: [Float] = [a.centerX, a.centerY, 0, 0]
                let stroke: [Float] = [a.radius, a.lineWidth, a.start, a.sweep]
                let masked = !a.isFullCircle && a.maskRotation >= 0
                add(item.bounds, item.annulus, centre + stroke + (masked ? [a.maskDirectionX, a.maskDirectionY, 0, 0] : []),
                    shared: [0], color: a.color, shape: a.isFullCircle ? 4 : masked ? 5 : 6) { v in
                    if a.isFullCircle { return "circleStrokeCoverage(p, V(\(v[0])).xy, V(\(v[1])).x, V(\(v[1])).y)" }
                    let stroke = "strokeCoverage(arcDistance(p, V(\(v[0])).xy, V(\(v[1])).x, V(\(v[1])).z, V(\(v[1])).w), V(\(v[1])).y)"
                    return masked ? "\(stroke) * ringMask(p - V(\(v[0])).xy, V(\(v[2])).xy)" : stroke
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
                        shared: [], color: q.color, shape: 7) { v in
                        "boxCoverage(p, V(\(v[0])).xy, V(\(v[1])).xy, V(\(v[1])).zw, V(\(v[0])).z)"
                    }
                }
            }
        }
    }

    /// Appends a layer: its bounds, `values` (whole vec4s; those numbered in `shared` may be
    /// shared), its colour, and the statement painting it, made by `coverage` from the places of
    /// the vec4s of `values`.
    private mutating func add(_ rect: PixelRect, _ annulus: Annulus?, _ values: [Float], shared: [Int], color: PaintColor, shape: Int,
                              _ coverage: @escaping ([Int]) -> String) {
        layers.append(Layer(values: [Float(rect.x0), Float(rect.y0), Float(rect.x1), Float(rect.y1)] + values + [color.r, color.g, color.b, color.a],
                            shared: shared.map { $0 + 1 }, shape: shape, statement: { v, _ in
                                "dst = paint(dst, V(\(v[v.count - 1])), inside(p, V(\(v[0]))) * \(coverage(Array(v[1..<(v.count - 1)])))); "
                            },
                            bounds: rect, annulus: annulus))
        bounds = PixelRect.union([bounds, rect])
    }

    /// Where the layers `indices` find their numbers in `v_v`: the background at 0, then each
    /// vec4 of each layer in paint order, except a shared vec4 equal to one placed before, which
    /// is read from that one's place; each layer's table whole, after its values.
    ///
    /// - Returns: the place of every vec4 of every layer's values, the place of its table, the
    ///   numbers, and the places of the shared vec4s in order (which, with the layers' shapes,
    ///   fix the program's code).
    func layout(_ indices: [Int]) -> (places: [[Int]], tables: [Int], vectors: [Float], sharedPlaces: [Int]) {
        var vectors = [background.r, background.g, background.b, background.a]
        var sharedPlaces: [Int] = []
        var places: [[Int]] = []
        var tables: [Int] = []
        places.reserveCapacity(indices.count)
        tables.reserveCapacity(indices.count)
        for i in indices {
            let layer = layers[i]
            let values = layer.values
            var own: [Int] = []
            own.reserveCapacity(values.count / 4)
            for n in 0..<(values.count / 4) {
                let v = 4 * n
                if layer.shared.contains(n) {
                    // Bit patterns: only numbers of the same bits share a place. A frame has a
                    // few shared vec4s, so a scan is cheaper than hashing.
                    let at = sharedPlaces.first { place in
                        (0..<4).allSatisfy { vectors[4 * place + $0].bitPattern == values[v + $0].bitPattern }
                    } ?? vectors.count / 4
                    sharedPlaces.append(at)
                    own.append(at)
                    if at < vectors.count / 4 { continue }
                } else {
                    own.append(vectors.count / 4)
                }
                vectors += values[v..<(v + 4)]
            }
            places.append(own)
            tables.append(vectors.count / 4)
            vectors += layer.table
        }
        return (places, tables, vectors, sharedPlaces)
    }

    /// The shape and the numbers of the program painting the layers `indices` in paint order:
    /// their shapes and where their shared vec4s are (`layout(_:)`), and `v_v`.
    func program(_ indices: [Int]) -> (shape: [Int], vectors: [Float]) {
        let (_, _, vectors, sharedPlaces) = layout(indices)
        return (shape(indices, sharedPlaces: sharedPlaces), vectors)
    }

    /// The layers' shapes, then where their shared vec4s are (`layout(_:)`'s `sharedPlaces`).
    private func shape(_ indices: [Int], sharedPlaces: [Int]) -> [Int] {
        indices.map { layers[$0].shape } + (sharedPlaces.isEmpty ? [] : [-2] + sharedPlaces)
    }

    /// The statements painting the layers `indices` in paint order (LAYERS), their numbers
    /// placed as `layout(_:)` places them.
    func code(_ indices: [Int]) -> String {
        let (places, tables, _, _) = layout(indices)
        var code = ""
        for (n, i) in indices.enumerated() { code += layers[i].statement(places[n], tables[n]) }
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
        // The centre with the candidates first: two rings about one centre, with boxes of one
        // size, read it from one place and share the pixel's angle.
        var values: [Float] = [Float(b.x0), Float(b.y0), Float(b.x1), Float(b.y1),
                               ring.centerX, ring.centerY, Float(firstCandidate), Float(candidates),
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
            var byPlace = [PaintColor](repeating: batch.instances[0].color, count: count)
            for (slot, q) in zip(ring.slots, batch.instances) {
                let place = ((((slot % steps) + steps) % steps) - first + steps) % steps
                byPlace[place] = q.color
            }
            for c in byPlace { table += [c.r, c.g, c.b, c.a] }
            statement = { v, t in
                "{ float c = inside(p, V(\(v[0]))) * \(call(v, "0.0")); dst = paint(dst, V(\(t) + int(min(place, \(span).0))), c); } "
            }
        } else {
            let colour = batch.instances[0].color
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
        bounds = PixelRect.union([bounds, b])
        // Every box lies within its reach of the circle through the base box's centre.
        let radius = (offsetX * offsetX + offsetY * offsetY).squareRoot()
        let boxReach = (hx * hx + hy * hy).squareRoot() + 1
        let annulus = Annulus(centerX: ring.centerX, centerY: ring.centerY, inner: Float(max(0, radius - boxReach)),
                              outer: Float(radius + boxReach))
        // One colour and one box per pixel: one coverage, which a texture can hold.
        let coverage: (([Int]) -> String)? = !coloured && unrolled && neighbours == 0
            ? { v in "inside(p, V(\(v[0]))) * \(call(v, "0.0"))" } : nil
        layers.append(Layer(values: values, table: table, shared: [1], shape: coloured ? 2000 + span : unrolled ? 1000 + neighbours : 3000,
                            statement: statement, coverage: coverage, bounds: b, annulus: annulus))
        return true
    }
}

/// Rings of boxes drawn from coverage textures (`GLRenderer`'s ring coverage cache): a tick ring
/// that does not change from frame to frame has its coverage computed once, by the same
/// expression, into a single-channel float texture, which every later frame's layers read with
/// one `texelFetch` instead of an arctangent, a sine, a cosine and a box's distance per pixel.
extension LayerPlan {
    /// The layers whose coverage a texture can hold.
    var cachableLayers: [Int] { layers.indices.filter { layers[$0].coverage != nil } }

    /// What identifies layer `index`'s coverage on a `width` × `height` canvas: every number it
    /// reads but its colour, as bits, and the canvas.
    func coverageKey(_ index: Int, width: Int, height: Int) -> [UInt32] {
        layers[index].values.dropLast(4).map(\.bitPattern) + [UInt32(width), UInt32(height)]
    }

    /// The statement that computes layer `index`'s coverage into `dst` (LAYERS of a program
    /// compiled with RAW_OUTPUT), its key and its numbers.
    func coverageProgram(_ index: Int) -> (key: [Int], code: String, vectors: [Float]) {
        let (places, _, vectors, sharedPlaces) = layout([index])
        return ([-3] + shape([index], sharedPlaces: sharedPlaces), "dst = vec4(\(layers[index].coverage!(places[0]))); ", vectors)
    }

    /// Layer `index` drawn from the coverage texture in sampler `u_coverage<unit>`: its colour is
    /// all it reads.
    mutating func drawFromCoverage(_ index: Int, unit: Int) {
        let layer = layers[index]
        layers[index] = Layer(values: Array(layer.values.suffix(4)), shape: 4000 + unit, statement: { v, _ in
            "dst = paint(dst, V(\(v[0])), texelFetch(u_coverage\(unit), ivec2(p), 0).r); "
        }, bounds: layer.bounds, annulus: layer.annulus)
    }
}
