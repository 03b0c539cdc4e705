import Throbber

/// One node of a scene file's content tree (docs/scene-files.md §8), of one kind: every kind is
/// one type in Nodes/ that says everything about it — its `type`, its keys, how it is read, which
/// slots it reads, how it is evaluated and placed, and (through its `ScenePrimitive`) how it is
/// lowered to DrawList rows — listed once in `NodeKinds.all`.
///
/// The reader checks a node's keys against `NodeInfo.commonKeys + keys` and `requiredKeys`
/// before `read` sees it, reads what every node carries (`NodeInfo`), and the kind reads the rest.
protocol SceneNode: Sendable {
    /// The node's `type` in a file, e.g. `disc`.
    static var type: String { get }
    /// The keys this kind takes besides `NodeInfo.commonKeys`.
    static var keys: [String] { get }
    /// The keys a node of this kind must have.
    static var requiredKeys: [String] { get }
    /// The keys of the kind's fields that are objects (an arc's `trim`, a group's `transform`),
    /// by the field's key: what its `read` holds them to, and what the schema is tested against.
    static var objectKeys: [String: ObjectKeys] { get }
    /// Reads one node of this kind.
    ///
    /// - Throws: a data error `FILE:LINE:COLUMN: …` naming the field.
    static func read(_ fields: NodeFields, in reader: inout SceneFileReader) throws -> Self

    /// Its id, place and visibility.
    var info: NodeInfo { get }
    /// The nodes inside it in paint order; none for a primitive.
    var content: [any SceneNode] { get }
    /// The least evaluation work one visible node of this kind costs a frame, its content's
    /// included, in the units of the frame's budget (`NodeWork.leastWork`); at most `limit + 1`.
    func leastWork(limit: Int) -> Int
    /// The fewest shapes one visible node of this kind draws a frame (`NodeWork.leastShapes`);
    /// at most `limit + 1`.
    func leastShapes(limit: Int) -> Int
    /// Paints the node at `placement` (docs/scene-files.md §9).
    ///
    /// - Throws: a data error naming the node, the value and the frame's time.
    func draw(in evaluator: inout FileSceneEvaluator, at placement: Placement) throws
}

extension SceneNode {
    static var objectKeys: [String: ObjectKeys] { [:] }
}

/// The keys an object field of a node takes, and those it must have.
struct ObjectKeys: Sendable {
    var keys: [String]
    var required: [String] = []
}

/// A node that paints one primitive: evaluated in its own coordinates, then placed.
protocol PrimitiveNode: SceneNode {
    /// The slots its fields read: one in a replicator that reads no slot of a copy's is
    /// evaluated once for every copy.
    var slotsRead: Set<Int> { get }
    /// The primitive in the node's own coordinates (no transform, opacity or tint), nil when it
    /// draws nothing this frame (invisible, an arc of no sweep).
    func evaluate(in evaluator: inout FileSceneEvaluator) throws -> (any ScenePrimitive)?
}

extension PrimitiveNode {
    var content: [any SceneNode] { [] }
    func leastWork(limit: Int) -> Int { 1 }
    func leastShapes(limit: Int) -> Int { 1 }

    func draw(in evaluator: inout FileSceneEvaluator, at placement: Placement) throws {
        guard let primitive = try evaluate(in: &evaluator) else { return }
        try evaluator.emit(info, at: placement, primitive)
    }
}

/// What every node carries.
struct NodeInfo: Sendable {
    /// The keys every kind takes.
    static let commonKeys = ["type", "id", "visible", "note"]

    /// The node's id, or its place (`content[1].content[0]`): DrawList ids and messages.
    var id: String
    /// Where it stands in the file, `FILE:LINE:COLUMN`.
    var place: String
    var visible: SceneSource?
}

/// What the reader hands a kind's `read`: the node's members (checked against its keys), its
/// field path, what every node carries, and the scope and nesting it sits in.
struct NodeFields {
    /// The node itself, for messages about it as a whole.
    var node: JSONNode
    var members: [String: JSONNode.Member]
    /// `content[1].content[0]`.
    var field: String
    var info: NodeInfo
    /// The node's `color`, read before its kind's own fields (as every kind with one has it).
    var color: SceneSource?
    /// Parameters, clocks, t, values, and inside replicators the copy's `i`, `count` and aliases.
    var scope: ExpressionScope
    var groupDepth: Int
    var replicatorDepth: Int
    var aliases: [(name: String, slot: Int)]
    /// Whether every enclosing group's scale is static (text may sit only under such groups).
    var staticScale: Bool

    subscript(key: String) -> JSONNode.Member? { members[key] }
}

extension SceneFileReader {
    /// A number field of a node, nil when absent.
    mutating func scalar(_ key: String, _ fields: NodeFields) throws -> SceneSource? {
        try fields[key].map { try source($0.value, field: "\(fields.field).\(key)", type: .number, in: fields.scope) }
    }

    /// A point field of a node, nil when absent.
    mutating func point(_ key: String, _ fields: NodeFields) throws -> SceneDefinition.Point? {
        try fields[key].map { try point($0.value, field: "\(fields.field).\(key)", in: fields.scope) }
    }

    /// The members of a node's object field `key`, held to the keys its kind declares for it
    /// (`SceneNode.objectKeys`).
    func members<Kind: SceneNode>(_ key: String, of kind: Kind.Type, _ fields: NodeFields) throws -> [String: JSONNode.Member] {
        let declared = Kind.objectKeys[key]!
        return try members(fields[key]!.value, "\(fields.field).\(key)", known: declared.keys, required: declared.required)
    }

    /// A node's `color` (required by every kind that takes one).
    func color(_ fields: NodeFields) throws -> SceneSource { fields.color! }
}

extension SceneDefinition.Point {
    var slotsRead: Set<Int> { x.slotsRead.union(y.slotsRead) }
}

/// The union of the slots `sources` read.
func slotsRead(_ sources: [SceneSource?]) -> Set<Int> {
    sources.reduce(into: []) { $0.formUnion($1?.slotsRead ?? []) }
}
