import Throbber

/// A scene file read and compiled: every name resolved to a slot, every expression compiled,
/// every node checked (docs/scene-files.md). Immutable; `FileScene` holds one with the values
/// of its parameters.
public struct SceneDefinition: Sendable {
    /// The value types of parameters.
    public enum ParameterType: String, Sendable, CaseIterable {
        case number, integer, color, choice
        /// Text to paint (a caption, a status): printable, up to 1,000 characters, newlines start lines.
        case string
        /// Two lengths, `W×H` (`--set screen=390x844`), read as `name.width` and `name.height`.
        case size
        /// Two numbers, `X,Y` (`--set offset=0,-40`), read as `name.x` and `name.y`.
        case vector

        /// A pair's style and field names; nil for a single value.
        var pair: (style: NumberPair.Style, fields: [String])? {
            switch self {
            case .size: return (.size, ["width", "height"])
            case .vector: return (.offset, ["x", "y"])
            default: return nil
            }
        }
    }

    /// One declared parameter (docs/scene-files.md §3).
    public struct Parameter: Sendable {
        public var name: String
        public var type: ParameterType
        public var unit: String
        public var summary: String
        /// The default; nil for an optional parameter, which `derive` gives a value.
        public var defaultValue: ExpressionValue?
        /// The words `scenes` prints for an unset optional parameter (`style`, `progress`).
        public var unsetMeaning: String?
        /// What an unset optional parameter's value is: a static source.
        public var derive: SceneSource?
        public var range: NumberRange
        public var integerRange: ClosedRange<Int>
        public var choices: [String]
        public var sample: SamplingRange?
        /// Bounds other parameters put on this one.
        public var withinMin: SceneExpression?
        public var withinMax: SceneExpression?
        /// The slot expressions read it from (a pair's first number).
        public var slot: Int
        /// A pair's second number's slot.
        public var secondSlot: Int?
    }

    /// A rule between parameters.
    public struct Relation: Sendable {
        public var require: SceneExpression
        public var field: String
        public var text: String
    }

    /// A declared clock; its duration, begin and enabled are static (docs/scene-files.md §4.1).
    public struct Clock: Sendable {
        public var name: String
        public var duration: SceneExpression
        public var repeats: SceneClock.Repeat
        public var autoreverses: Bool
        public var begin: SceneExpression?
        public var enabled: SceneExpression?
        public var slots: ExpressionClockSlots
    }

    /// A named value evaluated once per frame, in order.
    public struct Value: Sendable {
        public var name: String
        public var source: SceneSource
        public var slot: Int
    }

    /// What every node carries.
    public struct NodeInfo: Sendable {
        /// The node's id, or its place (`content[1].content[0]`): DrawList ids and messages.
        public var id: String
        /// Where it stands in the file, `FILE:LINE:COLUMN`.
        public var place: String
        public var visible: SceneSource?
    }

    /// A point: two scalar sources.
    public struct Point: Sendable {
        public var x: SceneSource
        public var y: SceneSource
    }

    /// Which angles an arc gives (docs/scene-files.md §8).
    public enum ArcAngles: Sendable {
        case startEnd(SceneSource, SceneSource)
        case startSweep(SceneSource, SceneSource)
        case trim(pathStart: SceneSource, turns: SceneSource, start: SceneSource, end: SceneSource, offset: SceneSource?)
    }

    /// A group's or a copy's transform, in sources.
    public struct Transform: Sendable {
        public var translate: Point?
        public var rotate: SceneSource?
        public var scale: SceneSource?
        public var anchor: Point?
        /// A replicator's `slot`: the k each copy's transform is raised to.
        public var slot: SceneSource?
    }

    /// A node of the content tree, in paint order.
    public indirect enum Node: Sendable {
        case disc(NodeInfo, center: Point, radius: SceneSource, color: SceneSource)
        case box(NodeInfo, center: Point, size: Point, cornerRadius: SceneSource?, rotation: SceneSource?, scale: Point?, color: SceneSource)
        case arc(NodeInfo, center: Point, radius: SceneSource, width: SceneSource, angles: ArcAngles, mask: SceneSource?, color: SceneSource)
        case wave(NodeInfo, cosine: Bool, originX: SceneSource?, wavelength: SceneSource, amplitude: SceneSource, phase: SceneSource?,
                  baseline: SceneSource, bottom: SceneSource?, clipCenter: Point?, clipRadius: SceneSource?, color: SceneSource)
        case polyline(NodeInfo, points: [Point], width: SceneSource, color: SceneSource)
        /// Text: its content and size are static (parameters only), so a frame's glyphs are the
        /// ones laid out before the first frame; its place and colour may move.
        case text(NodeInfo, text: SceneSource, role: FontRole, size: SceneSource, at: Point, color: SceneSource)
        case group(NodeInfo, transform: Transform?, opacity: SceneSource?, content: [Node])
        case replicator(NodeInfo, count: SceneSource, instance: Transform?, delayFrom: SceneSource?, delay: SceneSource?,
                        tintBase: SceneSource?, tintStep: SceneSource?, firstAbove: Bool, depth: Int, content: [Node])
    }

    public var id: String
    public var summary: String
    /// The file's name as messages show it.
    public var path: String
    /// The file's bytes, for provenance.
    public var text: String
    public var parameters: [Parameter]
    public var relations: [Relation]
    public var clocks: [Clock]
    public var values: [Value]
    public var canvasWidth: SceneExpression
    public var canvasHeight: SceneExpression
    public var background: RGBA
    public var loopSeconds: SceneExpression?
    public var loopFrom: SceneExpression?
    public var loopPreview: SceneExpression?
    public var content: [Node]
    /// The slot of `t`.
    public var tSlot: Int
    /// Slots below this one hold parameters: an expression that reads only them is static.
    public var parameterSlots: Int = 0
    /// Replicator slots by depth: the copy's index and the copy count.
    public var indexSlots: [Int]
    public var countSlots: [Int]
    /// How many slots an environment holds.
    public var slotCount: Int
    /// Where the first expression that reads `t` stands, when one does: such a scene loops
    /// only from `loop.from`.
    public var firstReadOfT: String?
    /// The slots each primitive node reads, by its place: a node inside a replicator that reads
    /// none of a copy's own slots is evaluated once for every copy.
    public var primitiveReads: [String: Set<Int>] = [:]
    /// Whether a text node is in the content (text nodes sit only in groups, never in replicators).
    public var paintsText = false
}

extension SceneDefinition.Point {
    var slotsRead: Set<Int> { x.slotsRead.union(y.slotsRead) }
}

extension SceneDefinition.Node {
    /// What the node carries: id, place, visibility.
    var info: SceneDefinition.NodeInfo {
        switch self {
        case let .disc(info, _, _, _), let .box(info, _, _, _, _, _, _), let .arc(info, _, _, _, _, _, _),
             let .wave(info, _, _, _, _, _, _, _, _, _, _), let .polyline(info, _, _, _), let .text(info, _, _, _, _, _), let .group(info, _, _, _),
             let .replicator(info, _, _, _, _, _, _, _, _, _):
            return info
        }
    }

    /// Whether it is a disc, box, arc or wave.
    var isPrimitive: Bool {
        switch self {
        case .group, .replicator: return false
        default: return true
        }
    }
    /// The slots a primitive node reads (nil for a group or a replicator), with its place.
    var primitiveReads: (place: String, slots: Set<Int>)? {
        func union(_ sources: [SceneSource?]) -> Set<Int> { sources.reduce(into: []) { $0.formUnion($1?.slotsRead ?? []) } }
        switch self {
        case let .disc(info, center, radius, color):
            return (info.place, center.slotsRead.union(union([info.visible, radius, color])))
        case let .box(info, center, size, corner, rotation, scale, color):
            return (info.place, center.slotsRead.union(size.slotsRead).union(scale?.slotsRead ?? []).union(union([info.visible, corner, rotation, color])))
        case let .arc(info, center, radius, width, angles, mask, color):
            var slots = center.slotsRead.union(union([info.visible, radius, width, mask, color]))
            switch angles {
            case let .startEnd(a, b), let .startSweep(a, b): slots.formUnion(union([a, b]))
            case let .trim(p, n, a, b, o): slots.formUnion(union([p, n, a, b, o]))
            }
            return (info.place, slots)
        case let .wave(info, _, originX, wavelength, amplitude, phase, baseline, bottom, clipCenter, clipRadius, color):
            return (info.place, (clipCenter?.slotsRead ?? []).union(union([info.visible, originX, wavelength, amplitude, phase, baseline, bottom, clipRadius, color])))
        case let .polyline(info, points, width, color):
            return (info.place, points.reduce(into: union([info.visible, width, color])) { $0.formUnion($1.slotsRead) })
        case let .text(info, text, _, size, at, color):
            return (info.place, at.slotsRead.union(union([info.visible, text, size, color])))
        case .group, .replicator:
            return nil
        }
    }

    /// The least evaluation work `nodes` cost a frame, in the units of the per-frame budget
    /// (`FileScene.budget`, which the evaluator charges the same way): 1 for each primitive,
    /// group or replicator visited, a replicator's copies times its content's. A count that is
    /// an expression of anything but constants counts as no copies, and a node whose `visible` is
    /// not the constant true as nothing: what they are is known only as a frame is evaluated,
    /// which checks each replicator's copies against the budget before it makes them. Stops
    /// growing past `limit`, so no product overflows.
    static func leastWork(_ nodes: [SceneDefinition.Node], limit: Int = FileScene.budget) -> Int {
        var total = 0
        for node in nodes {
            total = min(total + node.leastWork(limit: limit), limit + 1)
        }
        return total
    }

    /// One node's least work (`leastWork(_:limit:)`).
    func leastWork(limit: Int = FileScene.budget) -> Int {
        if let visible = info.visible, SceneDefinition.Node.constant(visible) != .boolean(true) { return 0 }
        switch self {
        case let .group(_, _, _, content):
            return min(1 + SceneDefinition.Node.leastWork(content, limit: limit), limit + 1)
        case let .replicator(_, count, _, _, _, _, _, _, _, content):
            guard case .number(let copies)? = SceneDefinition.Node.constant(count), copies >= 1 else { return 1 }
            let each = Double(SceneDefinition.Node.leastWork(content, limit: limit))
            return Int(min(1 + min(copies, 1e9) * each, Double(limit + 1)))
        default:
            return 1
        }
    }

    /// The fewest shapes `nodes` draw a frame: 1 for each disc, box, wave or polyline whose
    /// `visible` is absent or the constant true, a replicator's constant copies times its
    /// content's; an arc (a sweep ≤ 0 draws nothing), text and computed counts as none. What a
    /// file is held to against `Limits.shapesPerFrame` as it is read. Stops growing past `limit`.
    static func leastShapes(_ nodes: [SceneDefinition.Node], limit: Int = Limits.shapesPerFrame) -> Int {
        var total = 0
        for node in nodes {
            if let visible = node.info.visible, constant(visible) != .boolean(true) { continue }
            let shapes: Int
            switch node {
            case .disc, .box, .wave, .polyline: shapes = 1
            case .arc, .text: shapes = 0
            case let .group(_, _, _, content): shapes = leastShapes(content, limit: limit)
            case let .replicator(_, count, _, _, _, _, _, _, _, content):
                guard case .number(let copies)? = constant(count), copies >= 1 else { continue }
                shapes = Int(min(min(copies, 1e9) * Double(leastShapes(content, limit: limit)), Double(limit + 1)))
            }
            total = min(total + shapes, limit + 1)
        }
        return total
    }

    /// The value of a source that reads nothing (a constant), else nil.
    static func constant(_ source: SceneSource) -> ExpressionValue? {
        guard source.slotsRead.isEmpty else { return nil }
        var budget = SceneExpression.maximumNodes
        return try? source.evaluate(ExpressionEnvironment(), budget: &budget)
    }

    /// Whether a text node is among `nodes` or in their groups.
    static func hasText(_ nodes: [SceneDefinition.Node]) -> Bool {
        nodes.contains { node in
            switch node {
            case .text: return true
            case let .group(_, _, _, content): return hasText(content)
            default: return false
            }
        }
    }

    /// Every primitive node's reads in `nodes` and below.
    static func primitiveReads(_ nodes: [SceneDefinition.Node], into reads: inout [String: Set<Int>]) {
        for node in nodes {
            switch node {
            case let .group(_, _, _, content), let .replicator(_, _, _, _, _, _, _, _, _, content):
                primitiveReads(content, into: &reads)
            default:
                if let (place, slots) = node.primitiveReads { reads[place] = slots }
            }
        }
    }
}
