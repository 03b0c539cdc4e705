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

    /// A point: two scalar sources.
    public struct Point: Sendable {
        public var x: SceneSource
        public var y: SceneSource
    }

    /// A group's or a copy's transform, in sources.
    public struct Transform: Sendable {
        /// The keys a transform object takes (a replicator's `instance` takes `slot` too).
        static let keys = ["translate", "rotate", "scale", "anchor"]

        public var translate: Point?
        public var rotate: SceneSource?
        public var scale: SceneSource?
        public var anchor: Point?
        /// A replicator's `slot`: the k each copy's transform is raised to.
        public var slot: SceneSource?
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
    /// The content tree, in paint order (each node's kind in Nodes/).
    var content: [any SceneNode]
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
