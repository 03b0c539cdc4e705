import Throbber

/// The values of the slots an expression reads: what a caller fills in before evaluating
/// (docs/scene-files.md §6).
///
/// Slot numbers are the ones the caller gave the names in its `ExpressionScope`; evaluation is
/// array indexing. A caller typically keeps one environment per frame (or per replicated
/// instance), sets the per-frame slots, and evaluates every expression against it.
public struct ExpressionEnvironment: Sendable, Hashable {
    /// The value of each slot, by slot number.
    public var values: [ExpressionValue]

    /// An environment holding `values`, slot 0 first.
    public init(_ values: [ExpressionValue] = []) {
        self.values = values
    }

    /// An environment of `slotCount` slots, each holding the number 0 until set.
    public init(slotCount: Int) {
        values = Array(repeating: .number(0), count: slotCount)
    }

    /// The value in `slot`; setting a slot past the end grows the environment, the slots in
    /// between holding the number 0.
    public subscript(slot: Int) -> ExpressionValue {
        get { values[slot] }
        set {
            if slot >= values.count {
                values.append(contentsOf: Array(repeating: .number(0), count: slot + 1 - values.count))
            }
            values[slot] = newValue
        }
    }

    /// Sets the four fields of the clock whose slots are `slots`.
    public mutating func setClock(_ slots: ExpressionClockSlots, t: Double, u: Double, n: Double, period: Double) {
        self[slots.t] = .number(t)
        self[slots.u] = .number(u)
        self[slots.n] = .number(n)
        self[slots.period] = .number(period)
    }
}
