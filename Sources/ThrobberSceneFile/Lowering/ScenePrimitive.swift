import Foundation
import Throbber

/// One primitive of a file scene's frame as its node evaluated it (docs/scene-files.md §8): in
/// points, in its node's coordinates until `placed(at:by:place:)` folds in every transform,
/// opacity and tint, then lowered to DrawList rows. Each node kind has its own (`DiscNode.Shape`,
/// `BoxNode.Shape` …), beside its node in Nodes/.
///
/// Angles are radians: a box's rotation clockwise from +x, an arc's start and mask rotation as
/// clock angles (0 at 12 o'clock, clockwise).
protocol ScenePrimitive: Sendable {
    /// This primitive at `placement`: its transform applied, its alpha times the opacity, its
    /// colour times the tint (docs/scene-files.md §9).
    ///
    /// - Throws: a data error at `place` for a placement the primitive cannot take (text or a
    ///   wave turned by a rotation).
    func placed(at placement: Placement, by evaluator: FileSceneEvaluator, place: String) throws -> Self

    /// Appends its rows to `lowering`, scaled to pixels (`placed` says its id and whether it
    /// is a replicator's copy).
    func lower(_ placed: PlacedPrimitive, into lowering: inout Lowering)

    /// Whether `other` is the same primitive.
    func isEqual(to other: any ScenePrimitive) -> Bool

    /// At most how many points its outlines hold at any scale (a path's: `PathNode.Shape`), what
    /// a frame is held to before anything is flattened; 0 for the analytic shapes.
    var outlinePoints: Double { get }
}

extension ScenePrimitive {
    var outlinePoints: Double { 0 }
}

extension ScenePrimitive where Self: Equatable {
    func isEqual(to other: any ScenePrimitive) -> Bool { (other as? Self) == self }
}

/// Where a node paints: the transform of its groups and copies, their opacity and tint, and the
/// copy of each enclosing replicator it is.
struct Placement: Sendable {
    var transform: SceneTransform
    var opacity: Double
    /// Multipliers of r, g, b, a.
    var tint: [Double]
    /// Whether it is inside a replicator.
    var replicated: Bool
    var copies: CopyPath

    /// The content's placement: no transform, opacity 1, no tint.
    static let root = Placement(transform: .identity, opacity: 1, tint: [1, 1, 1, 1], replicated: false, copies: CopyPath())

    /// `c` with its alpha times the opacity and its components times the tint.
    func painted(_ c: RGBA) -> RGBA { Placement.painted(c, opacity: opacity, tint: tint) }

    /// `c` with its alpha times `opacity` and its components times `tint`.
    static func painted(_ c: RGBA, opacity: Double, tint: [Double]) -> RGBA {
        RGBA(c.r * tint[0], c.g * tint[1], c.b * tint[2], c.a * tint[3] * opacity)
    }
}

/// Which copy of each enclosing replicator a primitive belongs to, outermost first (replicators
/// nest at most 2 deep): kept as numbers, made text only for the items a DrawList names.
public struct CopyPath: Sendable, Equatable {
    public var outer: Int32 = -1
    public var inner: Int32 = -1

    public init() {}

    /// This path inside one more replicator, as its copy `copy`.
    public func appending(_ copy: Int) -> CopyPath {
        var path = self
        if outer < 0 { path.outer = Int32(copy) } else { path.inner = Int32(copy) }
        return path
    }

    /// `#2`, `#2#0`, or nothing outside replicators.
    public var text: String {
        (outer < 0 ? "" : "#\(outer)") + (inner < 0 ? "" : "#\(inner)")
    }
}

/// A primitive with the node that made it and the copy it is: its id (`hud`, `dots#2`) names
/// the DrawList item.
struct PlacedPrimitive: Sendable, Equatable {
    /// The node's id.
    var node: String
    /// The copy of each enclosing replicator.
    var copies: CopyPath
    var primitive: any ScenePrimitive
    /// Whether it came from a replicator (lowering draws a replicated disc as a box, so copies
    /// share one instanced batch: docs/scene-files.md §9.3).
    var replicated: Bool

    init(node: String, copies: CopyPath = CopyPath(), primitive: any ScenePrimitive, replicated: Bool) {
        self.node = node
        self.copies = copies
        self.primitive = primitive
        self.replicated = replicated
    }

    /// The DrawList item's id: the node's, with the copy (`dots#2`).
    var id: String { copies.outer < 0 ? node : node + copies.text }

    static func == (a: PlacedPrimitive, b: PlacedPrimitive) -> Bool {
        a.node == b.node && a.copies == b.copies && a.replicated == b.replicated && a.primitive.isEqual(to: b.primitive)
    }

    /// The DrawList items of a frame's primitives at `scale` (pixels per point), in paint order.
    static func drawItems(_ placed: [PlacedPrimitive], scale: Double, width: Int, height: Int,
                          text: LaidOutText? = nil, pathOutlines: PathOutlineCache? = nil) -> [DrawItem] {
        var lowering = Lowering(scale: scale, width: width, height: height, text: text, pathOutlines: pathOutlines)
        for item in placed { item.primitive.lower(item, into: &lowering) }
        return lowering.finished()
    }

    /// The text request of a frame's text primitives, nil when it paints none.
    static func textRequest(_ placed: [PlacedPrimitive], scale: Double) -> TextRequest? {
        let blocks = placed.compactMap { item -> TextBlock? in
            guard let text = item.primitive as? TextNode.Shape else { return nil }
            let lines = text.content.split(separator: "\n", omittingEmptySubsequences: false).map {
                [TextPiece(String($0), role: text.role, size: text.size, textField: item.node, sizeField: item.node)]
            }
            return TextBlock(ItemID(item.id), lines: lines, centreX: text.centerX, centreY: text.centerY)
        }
        return blocks.isEmpty ? nil : TextRequest(blocks: blocks, scale: scale)
    }
}

/// A frame's DrawList items as its primitives are lowered, in paint order, and the batching
/// decisions lowering makes (docs/scene-files.md §9.3): consecutive boxes — and discs a
/// replicator made, drawn as boxes whose corner radius is their half side — become one
/// instanced quad batch named after its first; copies of one box turned by whole steps of a turn
/// (`BoxCopiesRing`) become the ring row.
struct Lowering {
    /// Pixels per point.
    let scale: Double
    let width: Int
    let height: Int
    /// The frame's text laid out, for its glyph rows.
    let text: LaidOutText?
    /// Where paths keep their outlines from frame to frame (`FileScene.pathOutlines`).
    let pathOutlines: PathOutlineCache?
    private var items: [DrawItem] = []
    private var batch: [QuadInstance] = []
    private var batchID = ""

    init(scale: Double, width: Int, height: Int, text: LaidOutText?, pathOutlines: PathOutlineCache? = nil) {
        self.scale = scale
        self.width = width
        self.height = height
        self.text = text
        self.pathOutlines = pathOutlines
    }

    /// Appends one item after the batch in progress.
    mutating func append(_ item: DrawItem) {
        flush()
        items.append(item)
    }

    /// Adds a quad (in pixels) to the batch in progress, or starts one named `id`.
    mutating func appendQuad(_ quad: QuadInstance, id: String) {
        if batch.isEmpty { batchID = id }
        batch.append(quad)
    }

    /// A box or a replicated disc as a quad, in points scaled to pixels.
    mutating func appendQuad(id: String, centerX x: Double, centerY y: Double, halfX hx: Double, halfY hy: Double, rotation: Double,
                             cornerRadius corner: Double, color: RGBA) {
        let s = scale
        appendQuad(QuadInstance(centerX: x * s, centerY: y * s, halfX: hx * s, halfY: hy * s, rotation: rotation,
                                cornerRadius: corner * s, color: color), id: id)
    }

    /// Ends the batch in progress: what follows starts a new one.
    mutating func flush() {
        if !batch.isEmpty { items.append(DrawItem(ItemID(batchID), Boxes(batch, width: width, height: height))) }
        batch = []
    }

    /// Every item, the last batch flushed.
    mutating func finished() -> [DrawItem] {
        flush()
        return items
    }
}
