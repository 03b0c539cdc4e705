import Throbber

/// The environment slots that hold one clock's fields, `clock.t`, `clock.u`, `clock.n` and
/// `clock.period` (docs/scene-files.md §6).
///
/// A clock is one name with four number fields; giving each field a slot of its own keeps
/// evaluation to array indexing, and lets the read set say which fields an expression uses
/// (an expression reading only `clock.period` is static if that slot is).
public struct ExpressionClockSlots: Sendable, Hashable {
    /// The field names, in the order messages list them.
    public static let fieldNames = ["t", "u", "n", "period"]

    /// The slot of `clock.t`.
    public var t: Int
    /// The slot of `clock.u`.
    public var u: Int
    /// The slot of `clock.n`.
    public var n: Int
    /// The slot of `clock.period`.
    public var period: Int

    /// Creates the slots of a clock, each chosen by the caller.
    public init(t: Int, u: Int, n: Int, period: Int) {
        precondition(t >= 0 && u >= 0 && n >= 0 && period >= 0, "slots are array indices")
        self.t = t
        self.u = u
        self.n = n
        self.period = period
    }

    /// Four consecutive slots from `first`: t, u, n, period.
    public init(first: Int) {
        self.init(t: first, u: first + 1, n: first + 2, period: first + 3)
    }

    /// The slot of the field named `field`, or nil when a clock has no such field.
    public func slot(forField field: String) -> Int? {
        switch field {
        case "t": t
        case "u": u
        case "n": n
        case "period": period
        default: nil
        }
    }
}
