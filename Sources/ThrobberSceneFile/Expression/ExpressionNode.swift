import Throbber

/// One node of a compiled expression: names resolved to slots, types checked, constant
/// sub-trees folded to literals (docs/scene-files.md §6).
///
/// The node keeps the span of text it came from, so that an evaluation error can quote the
/// part that failed. The tree is a plain value (`Sendable`), evaluated by `ExpressionEvaluator`
/// from any number of threads at once.
struct ExpressionNode: Sendable, Hashable {
    /// What the node computes.
    indirect enum Operation: Sendable, Hashable {
        /// A value known when compiling: a literal, a constant or a folded sub-tree.
        case literal(ExpressionValue)
        /// The value in `slot`; `name` (`size`, `spin.u`) is for messages and the read set.
        case read(slot: Int, name: String)
        /// `-x`.
        case negate(ExpressionNode)
        /// `!x`.
        case not(ExpressionNode)
        /// An arithmetic operator or a comparison of two numbers.
        case numeric(ExpressionOperator, ExpressionNode, ExpressionNode)
        /// `==` (or `!=` when `negated`) of two values of one type: numbers, booleans, strings.
        case equal(ExpressionNode, ExpressionNode, negated: Bool)
        /// `&&`, evaluating the right side only when the left is true.
        case and(ExpressionNode, ExpressionNode)
        /// `||`, evaluating the right side only when the left is false.
        case or(ExpressionNode, ExpressionNode)
        /// `c ? a : b`, evaluating only the branch taken.
        case conditional(ExpressionNode, ExpressionNode, ExpressionNode)
        /// A call of one of the closed list's functions.
        case call(ExpressionFunctions.Function, [ExpressionNode])
    }

    /// What the node computes.
    var operation: Operation
    /// The type of its value.
    var type: ExpressionType
    /// Where its text starts, in Unicode scalars.
    var start: Int
    /// Where its text ends (exclusive).
    var end: Int

    /// The node's operands, in evaluation order.
    var children: [ExpressionNode] {
        switch operation {
        case .literal, .read: []
        case .negate(let x), .not(let x): [x]
        case .numeric(_, let a, let b), .equal(let a, let b, _), .and(let a, let b), .or(let a, let b): [a, b]
        case .conditional(let c, let a, let b): [c, a, b]
        case .call(_, let arguments): arguments
        }
    }

    /// The value, when the node is a literal.
    var literal: ExpressionValue? {
        if case .literal(let value) = operation { return value }
        return nil
    }

    /// Adds the slots and names this sub-tree reads, names in the order they are written.
    func collectReads(slots: inout Set<Int>, names: inout [String]) {
        if case .read(let slot, let name) = operation {
            slots.insert(slot)
            if !names.contains(name) { names.append(name) }
        }
        for child in children { child.collectReads(slots: &slots, names: &names) }
    }

    /// The number of nodes in this sub-tree.
    var count: Int { 1 + children.reduce(0) { $0 + $1.count } }
}
