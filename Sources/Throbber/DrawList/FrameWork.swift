/// The cost of drawing one frame, from its draw list before anything is drawn: every item's
/// shapes and the pixels their bounds cover on the canvas (`Primitive.pixelWork`), by kind.
///
/// A renderer's time on a frame grows with the pixels it shades: GL a quad over each shape's
/// bounds, the CPU renderer each bounds' rows, and sets each shape up. So the sum over every
/// shape, overlaps counted again, with `Limits.pixelsPerShape` for each shape's setup, is what
/// `Limits.pixelsPerFrame` bounds, whatever the kinds (10,000 arcs as large as the canvas cost as
/// 10,000 boxes would).
public struct FrameWork: Sendable, Equatable {
    /// One kind's share: how many of its shapes, and their pixels.
    public struct Share: Sendable, Equatable {
        public var one: String
        public var many: String
        public var work: PixelWork
    }

    /// Each kind drawn, in the order of its first item.
    public private(set) var shares: [Share] = []

    /// The work of every item of `list`.
    public init(_ list: DrawList) {
        for item in list.items { add(item.primitive) }
    }

    /// The work of `items`.
    public init(items: [DrawItem]) {
        for item in items { add(item.primitive) }
    }

    private mutating func add(_ primitive: any Primitive) {
        let work = primitive.pixelWork, noun = type(of: primitive).noun
        if let k = shares.firstIndex(where: { $0.one == noun.one }) {
            shares[k].work.shapes += work.shapes
            shares[k].work.pixels += work.pixels
        } else {
            shares.append(Share(one: noun.one, many: noun.many, work: work))
        }
    }

    /// The pixels of every shape.
    public var pixels: Double { shares.reduce(0) { $0 + $1.work.pixels } }

    /// How many shapes.
    public var shapes: Int { shares.reduce(0) { $0 + $1.work.shapes } }

    /// The frame's cost in pixels: its shapes' pixels and `Limits.pixelsPerShape` for each
    /// shape's setup.
    public var cost: Double { pixels + Double(shapes) * Double(Limits.pixelsPerShape) }

    /// Whether the frame costs at most `limit` pixels.
    public func isWithin(_ limit: Int = Limits.pixelsPerFrame) -> Bool { cost <= Double(limit) }

    /// What the frame draws and its cost against `limit`, for a refusal: `the 10000 arcs of a
    /// frame cover 9721960000 px, 9.08 times what a frame may cost: at most 1073741824 px`; the
    /// kinds that cost most first (at most three), those under a hundredth of the total counted
    /// together as other shapes.
    public func text(limit: Int = Limits.pixelsPerFrame) -> String {
        let total = pixels
        let named = shares.sorted { $0.work.pixels > $1.work.pixels }.filter { $0.work.pixels >= total / 100 }.prefix(3)
        var parts = named.map { "\($0.work.shapes) \($0.work.shapes == 1 ? $0.one : $0.many)" }
        let rest = shares.reduce(0) { $0 + $1.work.shapes } - named.reduce(0) { $0 + $1.work.shapes }
        if rest > 0 { parts.append("\(rest) other shape\(rest == 1 ? "" : "s")") }
        let list = parts.count <= 1 ? parts.joined() : parts.dropLast().joined(separator: ", ") + " and " + parts.last!
        let cost = self.cost, setup = cost - total
        let times = (cost / Double(limit) * 100).rounded(.up) / 100
        // The shapes' setup is named when it matters (a million tiny shapes), not for a few huge ones.
        let setupText = setup >= cost / 100 ? " and cost \(formatNumber(cost)) px with \(Limits.pixelsPerShape) px a shape for its setup" : ""
        return "the \(list) of a frame cover \(formatNumber(total)) px\(setupText), \(formatNumber(times)) times what a frame may "
            + "cost: at most \(limit) px"
    }

    /// What a refusal of a frame's cost tells the user to change.
    public static let advice = "(fewer or smaller shapes, or a smaller scale)"
}
