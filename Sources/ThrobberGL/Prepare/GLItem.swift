import Throbber

/// What the GL renderer derives from one item of a frame (its prepare step): for most kinds the
/// primitive itself; for boxes and rings their boxes, bounds and ring geometry (`BoxBatch`).
protocol GLItem {
    /// The pixels it can paint; an item with none adds no layer.
    var bounds: PixelRect { get }
    /// Adds the layers that paint the item (Shaders/layers.frag) to `plan`, or hands it to the
    /// boxes pass (`LayerPlan.leaveToBoxesPass`).
    func addLayers(to plan: inout LayerPlan, index: Int)
    /// Appends the item's records (Shaders/boxes.frag reads them); `asInstances`: the plan left it
    /// to the boxes pass, so each of its boxes is drawn as an instance.
    func addRecords(to stack: inout FrameStack, asInstances: Bool)
}

/// A primitive the GL renderer draws: its row in ThrobberGL/Primitives, its GLSL in
/// Shaders/Primitives.
protocol GLPrimitive: Primitive {
    /// What drawing it needs, worked out once (kept while the item is unchanged: `GLPreparedItems`).
    func prepareGL() -> any GLItem
    /// The file of Shaders/Primitives holding its coverage functions, included in every program.
    static var shaderFile: String { get }
    /// Its record's coverage in boxes.frag's `itemCoverage`, an expression of `p` and the
    /// record's vec4s `head` (its kind first), `a` and `b`; nil for a kind drawn as another's
    /// records (a ring's boxes are `Boxes` records).
    static var recordCoverage: String? { get }
    /// Its record's colour at `p` in boxes.frag's `itemColor`, an expression of `p`, `head`, `a`,
    /// `b` and the record's colour `color`; nil (the default) paints the record's colour.
    static var recordColor: String? { get }
    /// Whether each of its records is an instance whose quad is exactly its bounds (a path):
    /// the boxes pass then leaves a pixel in them to it (boxes.frag's `quadIsBounds`).
    static var quadIsBounds: Bool { get }
}

extension GLPrimitive {
    static var recordColor: String? { nil }
    static var quadIsBounds: Bool { false }
}

extension GLPrimitive where Self: GLItem {
    func prepareGL() -> any GLItem { self }
}

/// One frame as the GL renderer draws it: the list, and each of its items prepared.
struct GLFrame {
    let list: DrawList
    let items: [any GLItem]

    init(_ list: DrawList, items: [any GLItem]) {
        self.list = list
        self.items = items
    }

    /// `list` with every item prepared afresh.
    init(_ list: DrawList) {
        self.init(list, items: list.items.map(GLPreparedItems.prepare))
    }
}

/// What a GL renderer prepared for the items of the frames it drew last, by identity: an item
/// with the same identity and an equal value (a tick ring while the lit count holds) is not
/// prepared again. Per renderer; no global cache.
struct GLPreparedItems {
    private var latest: [ItemID: (item: DrawItem, prepared: any GLItem)] = [:]

    /// `list` with its items prepared, reusing what the frames before left.
    mutating func frame(_ list: DrawList) -> GLFrame {
        var items: [any GLItem] = []
        items.reserveCapacity(list.items.count)
        for item in list.items {
            if let kept = latest[item.id], kept.item == item {
                items.append(kept.prepared)
                continue
            }
            let prepared = GLPreparedItems.prepare(item)
            latest[item.id] = (item, prepared)
            items.append(prepared)
        }
        // A scene of many changing identities must not grow this without end.
        if latest.count > 4 * max(16, list.items.count) { latest.removeAll() }
        return GLFrame(list, items: items)
    }

    /// `item` prepared by its kind's row.
    static func prepare(_ item: DrawItem) -> any GLItem {
        guard let primitive = item.primitive as? any GLPrimitive else {
            preconditionFailure("\(type(of: item.primitive).kind) (item \(item.id)) has no row in ThrobberGL/Primitives")
        }
        return primitive.prepareGL()
    }
}

/// The record kinds of boxes.frag, numbered in `PrimitiveKinds.all` order among the kinds that
/// have records, and the GLSL every program includes (`ShaderLibrary`'s "primitives.glsl").
enum GLPrimitiveRows {
    /// The kinds with records, in number order.
    static let recordKinds: [any GLPrimitive.Type] = PrimitiveKinds.all.compactMap { $0 as? any GLPrimitive.Type }
        .filter { $0.recordCoverage != nil }

    /// The record kind of `type` (its number in the records' first float).
    static func recordKind(of type: any GLPrimitive.Type) -> Float {
        Float(recordKinds.firstIndex { ObjectIdentifier($0) == ObjectIdentifier(type) }!)
    }

    /// Every kind's GLSL file, in `PrimitiveKinds.all` order, then boxes.frag's `itemCoverage`,
    /// which picks a record's coverage by its kind, and `itemColor`, its colour (the record's
    /// colour but for the kinds that paint their own: `recordColor`).
    static func primitivesSource(_ file: (String) throws -> String) throws -> String {
        var parts: [String] = []
        var seen: Set<String> = []
        for kind in PrimitiveKinds.all {
            guard let row = kind as? any GLPrimitive.Type else { continue }
            if seen.insert(row.shaderFile).inserted { parts.append(try file(row.shaderFile)) }
        }
        var cases = "", colors = "", owners = ""
        for (number, row) in recordKinds.enumerated() {
            cases += "    if (kind == \(number)) return \(row.recordCoverage!);\n"
            if let color = row.recordColor { colors += "    if (kind == \(number)) return \(color);\n" }
            if row.quadIsBounds { owners += "    if (kind == \(number)) return true;\n" }
        }
        parts.append("""
            // One record of a draw list (FrameStack), in 5 vec4s: bounds = (x0, y0, x1, y1), the
            // item shading only pixel centres strictly inside; head = (kind, …), a, b: its
            // parameters (each row's `addRecords`); then its colour (straight alpha). Generated
            // from the rows (GLPrimitiveRows): one line per kind of record.
            float itemCoverage(vec2 p, vec4 bounds, vec4 head, vec4 a, vec4 b) {
                if (p.x < bounds.x || p.y < bounds.y || p.x > bounds.z || p.y > bounds.w) return 0.0;
                int kind = int(head.x);
            \(cases)    return 0.0;
            }

            // The colour (straight alpha) a record paints at p: its own colour, but for the kinds
            // that paint one of their own (a path's gradient). Generated like itemCoverage.
            vec4 itemColor(vec2 p, vec4 head, vec4 a, vec4 b, vec4 color) {
                int kind = int(head.x);
            \(colors)    return color;
            }

            // Whether a record of this kind is an instance whose quad is exactly its bounds.
            bool quadIsBounds(int kind) {
            \(owners)    return false;
            }
            """)
        return parts.joined(separator: "\n")
    }
}
