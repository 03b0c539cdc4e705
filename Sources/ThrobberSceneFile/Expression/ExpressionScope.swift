import Throbber

/// The names an expression may read: each with its type and the environment slot that holds
/// its value, plus clocks, whose fields `t`, `u`, `n` and `period` each have a slot
/// (docs/scene-files.md §6).
///
/// Slots are chosen by the caller, so that evaluation is array indexing and the caller can
/// tell from `SceneExpression.slotsRead` which kind of value an expression depends on. A scope
/// is a value: nested scopes are copies with more names, e.g.
///
/// ```swift
/// var statics = ExpressionScope()                       // parameters only
/// try statics.declare("size", .number, slot: 0)
/// var frame = statics                                   // + clocks, t and values
/// try frame.declare("t", .number, slot: 1)
/// try frame.declareClock("spin", slots: ExpressionClockSlots(first: 2))
/// let leaf = try frame.declaring("i", .number, slot: 6) // + a replicator's index
/// ```
///
/// A name declared again hides the earlier declaration (an inner replicator's `i` hides the
/// outer one's); `binding(for:)` tells a caller that wants to forbid that whether a name is taken.
public struct ExpressionScope: Sendable, Hashable {
    /// What a name stands for.
    public enum Binding: Sendable, Hashable {
        /// A value of `type` in `slot`. A string name may list the `choices` it can take, so
        /// that comparing it with any other literal is a compile error.
        case value(ExpressionType, slot: Int, choices: [String]?)
        /// A clock, read only through its fields.
        case clock(ExpressionClockSlots)
        /// Two numbers read by field: a size parameter's `width` and `height`, a vector's `x` and
        /// `y` (`name.width`); `kind` names it in messages.
        case pair(kind: String, fields: [String], slots: [Int])
    }

    /// The constants every expression knows, with their values.
    static let constants: [String: ExpressionValue] = ["pi": .number(Double.pi), "true": .boolean(true), "false": .boolean(false)]

    /// The names no scope may declare: the constants and the functions.
    public static let reservedNames: [String] = ["pi", "true", "false"] + ExpressionFunctions.Function.allCases.map(\.rawValue)

    private var bindings: [String: Binding] = [:]
    /// The declared names in the order they were first declared, each once.
    public private(set) var names: [String] = []

    /// An empty scope: only the constants `pi`, `true` and `false`.
    public init() {}

    /// What `name` stands for here, or nil when it is not declared (constants and functions
    /// are not declarations).
    public func binding(for name: String) -> Binding? { bindings[name] }

    /// Declares `name` as a value of `type` held in `slot`.
    ///
    /// - Parameter choices: for a string, the values it can take (a choice parameter), or nil.
    /// - Throws: `ExpressionError` of kind `invalidName` when `name` is not spelled as a name
    ///   (`[A-Za-z_][A-Za-z0-9_]*`) or is a constant's or a function's.
    public mutating func declare(_ name: String, _ type: ExpressionType, slot: Int, choices: [String]? = nil) throws(ExpressionError) {
        precondition(slot >= 0, "slots are array indices")
        try add(name, .value(type, slot: slot, choices: type == .string ? choices : nil))
    }

    /// Declares `name` as a clock whose fields are held in `slots`.
    ///
    /// - Throws: `ExpressionError` of kind `invalidName`, as `declare` does.
    public mutating func declareClock(_ name: String, slots: ExpressionClockSlots) throws(ExpressionError) {
        try add(name, .clock(slots))
    }

    /// Declares `name` as two numbers read by field (`fields[k]` from `slots[k]`): a size's
    /// `width` and `height`, a vector's `x` and `y`.
    public mutating func declarePair(_ name: String, kind: String, fields: [String], slots: [Int]) throws(ExpressionError) {
        precondition(fields.count == slots.count && slots.allSatisfy { $0 >= 0 }, "one slot per field")
        try add(name, .pair(kind: kind, fields: fields, slots: slots))
    }

    /// This scope with `name` declared as a value of `type` in `slot`.
    public func declaring(_ name: String, _ type: ExpressionType, slot: Int, choices: [String]? = nil) throws(ExpressionError) -> ExpressionScope {
        var scope = self
        try scope.declare(name, type, slot: slot, choices: choices)
        return scope
    }

    /// This scope with `name` declared as a clock in `slots`.
    public func declaringClock(_ name: String, slots: ExpressionClockSlots) throws(ExpressionError) -> ExpressionScope {
        var scope = self
        try scope.declareClock(name, slots: slots)
        return scope
    }

    /// Whether `name` could be declared: spelled as a name and not reserved.
    public static func isDeclarable(_ name: String) -> Bool {
        ExpressionParser.isName(name) && !reservedNames.contains(name)
    }

    private mutating func add(_ name: String, _ binding: Binding) throws(ExpressionError) {
        guard ExpressionParser.isName(name) else {
            throw ExpressionError(.invalidName, "\(ExpressionError.quoted(name)) cannot name a value in an expression: a name is "
                + "letters, digits and '_', not starting with a digit", offset: 0, source: name)
        }
        guard !Self.reservedNames.contains(name) else {
            let what = Self.constants[name] != nil ? "a constant" : "a function"
            throw ExpressionError(.invalidName, "\(ExpressionError.quoted(name)) cannot name a value in an expression: it is \(what)",
                                  offset: 0, source: name)
        }
        if bindings.updateValue(binding, forKey: name) == nil {
            names.append(name)
        }
    }
}
