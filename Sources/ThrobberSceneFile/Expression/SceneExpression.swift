import Throbber

/// A compiled scene-file expression: a small, statically typed formula over the names of an
/// `ExpressionScope`, such as `withBrightness(leafColor, clamp(1 - 0.1 * mod(i + tick, 12), 0, 1))`
/// (docs/scene-files.md §6).
///
/// Compiling parses the text, resolves every name to its slot, checks types and arity, and
/// folds every part that reads no names, so all that can be known about an expression is known
/// before the first frame: syntax, names, types, and any failure of a constant part. What is
/// left to evaluation is arithmetic over slot values; it can still fail (division by zero, an
/// overflow, a function's argument out of its domain), and then throws rather than giving NaN.
///
/// An expression is an immutable value: keep it in a `Sendable` struct and evaluate it from as
/// many threads as you like, each with its own environment and budget.
///
/// ```swift
/// var scope = ExpressionScope()
/// try scope.declare("size", .number, slot: 0)
/// let half = try SceneExpression("size / 2", in: scope, expecting: .number)
/// var budget = 10_000_000
/// let value = try half.number(in: ExpressionEnvironment([.number(37)]), budget: &budget)  // 18.5
/// ```
public struct SceneExpression: Sendable, Hashable, CustomStringConvertible {
    /// The most Unicode scalars an expression's text may have.
    public static let maximumLength = 1000
    /// The most nodes an expression may parse to: each number, string, name, field, operator
    /// and call is one. This bounds every evaluation to as many node evaluations.
    public static let maximumNodes = 256
    /// The deepest nesting an expression may have: parentheses, a call's arguments, a `?:`
    /// branch and the operand of `-` or `!` each nest one level.
    public static let maximumDepth = 32

    /// The text the expression was compiled from.
    public let source: String
    /// The type of the expression's value.
    public let type: ExpressionType
    /// The slots the expression reads; empty for a constant. A caller tells a static expression
    /// (reads only parameters) from a per-frame one, or one that reads `t`, by testing this set.
    public let slotsRead: Set<Int>
    /// The names the expression reads, in the order first written; a clock's field as `spin.u`.
    public let namesRead: [String]
    /// The compiled tree.
    let root: ExpressionNode

    /// Compiles `source` in `scope`.
    ///
    /// - Parameter expected: the type the caller needs, or nil to take whatever type the
    ///   expression has (see `type`).
    /// - Throws: `ExpressionError` whose offset is where in `source` the problem starts: a
    ///   syntax, limit, name, function, arity, field, choice or type error, or an evaluation
    ///   error of a part that reads no names (`1/0`).
    public init(_ source: String, in scope: ExpressionScope, expecting expected: ExpressionType? = nil) throws(ExpressionError) {
        let syntax = try ExpressionParser.parse(source)
        let root = try ExpressionCompiler(scope: scope, source: source).compile(syntax)
        if let expected, root.type != expected {
            throw ExpressionError(.type, "\(ExpressionError.quoted(source)) is \(root.type) where \(expected) is expected",
                                  offset: syntax.start, source: source)
        }
        self.init(source: source, root: root)
    }

    /// A constant expression holding `value`, written as an expression would write it: for a
    /// field given as a plain JSON number or colour, so that a caller handles one kind of field.
    /// The value is taken as given: a number should be finite and a colour valid, as every
    /// value an expression computes is.
    public init(constant value: ExpressionValue) {
        let end = value.description.unicodeScalars.count
        self.init(source: value.description, root: ExpressionNode(operation: .literal(value), type: value.type, start: 0, end: end))
    }

    private init(source: String, root: ExpressionNode) {
        self.source = source
        self.root = root
        self.type = root.type
        var slots = Set<Int>()
        var names: [String] = []
        root.collectReads(slots: &slots, names: &names)
        self.slotsRead = slots
        self.namesRead = names
    }

    /// Whether the expression reads no names, so its value is known (`constantValue`).
    public var isConstant: Bool { root.literal != nil }

    /// The value of a constant expression, or nil when the expression reads names.
    public var constantValue: ExpressionValue? { root.literal }

    /// Whether the expression reads any of `slots`: e.g. the per-frame slots, or `t`'s.
    public func reads(anyOf slots: some Sequence<Int>) -> Bool {
        slots.contains { slotsRead.contains($0) }
    }

    /// The number of nodes left after folding: at most what one evaluation spends of its budget.
    public var nodeCount: Int { root.count }

    /// The source text.
    public var description: String { source }

    /// Evaluates the expression with the slot values of `environment`.
    ///
    /// - Parameter budget: node evaluations left, shared by whatever the caller counts together
    ///   (e.g. 10⁷ per frame); each node evaluated spends one. When none is left the evaluation
    ///   throws, at the same node on every run.
    /// - Throws: `ExpressionError` of kind `evaluation` (naming the part that failed and why),
    ///   `budget`, or `environment` (a slot missing, of another type, or holding a non-finite
    ///   number or an invalid colour).
    public func evaluate(in environment: ExpressionEnvironment, budget: inout Int) throws(ExpressionError) -> ExpressionValue {
        var evaluator = ExpressionEvaluator(values: environment.values, source: source, budget: budget)
        defer { budget = evaluator.budget }
        return try evaluator.value(root)
    }

    /// Evaluates a number expression.
    ///
    /// - Throws: as `evaluate`, and `type` when the expression is not a number.
    public func number(in environment: ExpressionEnvironment, budget: inout Int) throws(ExpressionError) -> Double {
        try check(.number)
        var evaluator = ExpressionEvaluator(values: environment.values, source: source, budget: budget)
        defer { budget = evaluator.budget }
        return try evaluator.number(root)
    }

    /// Evaluates a boolean expression.
    ///
    /// - Throws: as `evaluate`, and `type` when the expression is not a boolean.
    public func boolean(in environment: ExpressionEnvironment, budget: inout Int) throws(ExpressionError) -> Bool {
        try check(.boolean)
        var evaluator = ExpressionEvaluator(values: environment.values, source: source, budget: budget)
        defer { budget = evaluator.budget }
        return try evaluator.boolean(root)
    }

    /// Evaluates a colour expression.
    ///
    /// - Throws: as `evaluate`, and `type` when the expression is not a colour.
    public func color(in environment: ExpressionEnvironment, budget: inout Int) throws(ExpressionError) -> RGBA {
        try check(.color)
        var evaluator = ExpressionEvaluator(values: environment.values, source: source, budget: budget)
        defer { budget = evaluator.budget }
        return try evaluator.color(root)
    }

    /// Evaluates a string expression.
    ///
    /// - Throws: as `evaluate`, and `type` when the expression is not a string.
    public func string(in environment: ExpressionEnvironment, budget: inout Int) throws(ExpressionError) -> String {
        try check(.string)
        var evaluator = ExpressionEvaluator(values: environment.values, source: source, budget: budget)
        defer { budget = evaluator.budget }
        return try evaluator.string(root)
    }

    private func check(_ expected: ExpressionType) throws(ExpressionError) {
        guard type == expected else {
            throw ExpressionError(.type, "\(ExpressionError.quoted(source)) is \(type) where \(expected) is expected",
                                  offset: 0, source: source)
        }
    }
}
