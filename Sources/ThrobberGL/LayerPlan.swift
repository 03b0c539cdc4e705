import Foundation
import Throbber

/// One frame's draw list as the layers pass (Shaders/layers.frag) takes it: per layer, the
/// statement that paints it and the numbers it reads; `program(_:)` puts a run of them together
/// into a program's shape (LAYERS) and its numbers (`v_v`).
///
/// Each item adds its layers through its kind's row (ThrobberGL/Primitives, `GLItem.addLayers`):
/// discs, waves and arcs one statement each; boxes one statement per box when they are few; a
/// ring of boxes one statement for the whole ring when its steps are consecutive (and, with
/// boxes of several colours, never overlap); other boxes are left to the boxes pass (`boxItems`).
///
/// Layers of a run that read an equal vec4 read it from one place (`layout(_:)`), so the
/// statements that compute the same thing from it are the same expressions, which the shader
/// compiler computes once per pixel: the wave ball's disc and both waves' clip share one circle
/// (one square root, not three), the thin circle its centre's distance, and its two tick rings
/// the pixel's angle (one arctangent, not two).
struct LayerPlan {
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
        /// shapes in equal order, whose shared vec4s have equal places, make the same program
        /// (`LayerShape`, named by the row that writes the statement).
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
    var layers: [Layer] = []
    /// The frame's background (straight alpha).
    let background: PaintColor
    /// The union of the bounds of every item drawn here (empty when none is).
    var bounds = PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)
    /// The items (indices into the list's items) the boxes pass draws.
    private(set) var boxItems: [Int] = []

    /// The plan of a frame whose items GL has prepared (`GLFrame`).
    init(_ frame: GLFrame) {
        background = frame.list.background
        for (index, item) in frame.items.enumerated() where !item.bounds.isEmpty { item.addLayers(to: &self, index: index) }
    }

    /// The plan of `list`, prepared afresh (no ring kept from an earlier frame).
    init(_ list: DrawList) { self.init(GLFrame(list)) }

    /// Leaves item `index` to the boxes pass.
    mutating func leaveToBoxesPass(_ index: Int) { boxItems.append(index) }

    /// Appends a layer: its bounds, `values` (whole vec4s; those numbered in `shared` may be
    /// shared), its colour, and the statement painting it, made by `coverage` from the places of
    /// the vec4s of `values`.
    mutating func add(_ rect: PixelRect, _ annulus: Annulus?, _ values: [Float], shared: [Int], color: PaintColor, shape: Int,
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
        layers[index] = Layer(values: Array(layer.values.suffix(4)), shape: LayerShape.coverageTexture + unit, statement: { v, _ in
            "dst = paint(dst, V(\(v[0])), texelFetch(u_coverage\(unit), ivec2(p), 0).r); "
        }, bounds: layer.bounds, annulus: layer.annulus)
    }
}

/// The shapes of layers (`LayerPlan.Layer.shape`), named by the rows that write their statements:
/// a shape is a number made from its name, so a new kind's row names its own shapes and no list
/// of them is kept anywhere (`LayerShapeTests` checks the names in use do not collide).
enum LayerShape {
    /// A number for the shape called `name`, with room below the next name for `variants` (a
    /// ring's neighbour count, a texture unit): FNV-1a of the name, in [2¹⁶, 2³⁰).
    static func named(_ name: String) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in name.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int(hash % (1 << 14)) << 16
    }

    /// A layer read from a ring's coverage texture (`drawFromCoverage`), plus its unit.
    static let coverageTexture = named("coverage texture")
}
