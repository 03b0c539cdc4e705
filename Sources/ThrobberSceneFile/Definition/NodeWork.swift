import Throbber

/// What a content tree costs a frame at least, as the file states it: what a file is held to as
/// it is read (`Limits.shapesPerFrame`, `FileScene.budget`), before any frame is evaluated.
enum NodeWork {
    /// The least evaluation work `nodes` cost a frame, in the units of the per-frame budget
    /// (`FileScene.budget`, which the evaluator charges the same way): 1 for each primitive,
    /// group or replicator visited, a replicator's copies times its content's. A count that is
    /// an expression of anything but constants counts as no copies, and a node whose `visible` is
    /// not the constant true as nothing: what they are is known only as a frame is evaluated,
    /// which checks each replicator's copies against the budget before it makes them. Stops
    /// growing past `limit`, so no product overflows.
    static func leastWork(_ nodes: [any SceneNode], limit: Int = FileScene.budget) -> Int {
        var total = 0
        for node in nodes where isSurelyVisible(node) {
            total = min(total + node.leastWork(limit: limit), limit + 1)
        }
        return total
    }

    /// The fewest shapes `nodes` draw a frame: 1 for each disc, box, wave or polyline whose
    /// `visible` is absent or the constant true, a path's fill and stroke 1 each, a replicator's
    /// constant copies times its content's; an arc (a sweep ≤ 0 draws nothing), text and
    /// computed counts as none. Stops
    /// growing past `limit`.
    static func leastShapes(_ nodes: [any SceneNode], limit: Int = Limits.shapesPerFrame) -> Int {
        var total = 0
        for node in nodes where isSurelyVisible(node) {
            total = min(total + node.leastShapes(limit: limit), limit + 1)
        }
        return total
    }

    /// Whether the node's `visible` is absent or the constant true.
    static func isSurelyVisible(_ node: any SceneNode) -> Bool {
        guard let visible = node.info.visible else { return true }
        return constant(visible) == .boolean(true)
    }

    /// The value of a source that reads nothing (a constant), else nil.
    static func constant(_ source: SceneSource) -> ExpressionValue? {
        guard source.slotsRead.isEmpty else { return nil }
        var budget = SceneExpression.maximumNodes
        return try? source.evaluate(ExpressionEnvironment(), budget: &budget)
    }

    /// Every primitive node's reads in `nodes` and below, by its place.
    static func primitiveReads(_ nodes: [any SceneNode], into reads: inout [String: Set<Int>]) {
        for node in nodes {
            if let primitive = node as? any PrimitiveNode { reads[primitive.info.place] = primitive.slotsRead }
            primitiveReads(node.content, into: &reads)
        }
    }

    /// Whether a text node is among `nodes` or below them.
    static func hasText(_ nodes: [any SceneNode]) -> Bool {
        nodes.contains { $0 is TextNode || hasText($0.content) }
    }
}
