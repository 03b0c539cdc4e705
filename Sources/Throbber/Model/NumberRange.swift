/// The values a numeric parameter accepts (SPEC §0 "Ranges"). Every range also excludes NaN
/// and the infinities.
public enum NumberRange: Sendable, Equatable {
    /// Any finite number.
    case any
    /// Finite numbers ≥ the bound.
    case atLeast(Double)
    /// Finite numbers > the bound.
    case above(Double)
    /// Finite numbers in the closed interval.
    case closed(Double, Double)
    /// Numbers ≥ the first bound and ≤ the second: a length or time that may be 0, bounded so
    /// that nothing derived from it can overflow (`Limits`).
    case atLeastAtMost(Double, Double)
    /// Numbers > the first bound and ≤ the second: a size, rate or span that must be positive.
    case aboveAtMost(Double, Double)
    /// Positive numbers in the closed interval [low, high] with low > 0: a rate or period whose
    /// reciprocal sizes work (frames per second, seconds per loop), so it may not come near 0.
    case positiveWithin(Double, Double)

    /// Whether every allowed value lies between two finite bounds (every scene parameter's does).
    public var isBounded: Bool {
        switch self {
        case .any, .atLeast, .above: return false
        case .closed(let low, let high), .atLeastAtMost(let low, let high), .aboveAtMost(let low, let high),
             .positiveWithin(let low, let high):
            return low.isFinite && high.isFinite
        }
    }

    /// Whether `value` is allowed.
    public func contains(_ value: Double) -> Bool {
        guard value.isFinite else { return false }
        switch self {
        case .any: return true
        case .atLeast(let low): return value >= low
        case .above(let low): return value > low
        case .closed(let low, let high), .atLeastAtMost(let low, let high): return value >= low && value <= high
        case .aboveAtMost(let low, let high): return value > low && value <= high
        case .positiveWithin(let low, let high): return value > 0 && value >= low && value <= high
        }
    }

    /// What is allowed, in words, for error messages and `throbber scenes`.
    public var text: String {
        switch self {
        case .any: return "a finite number"
        case .atLeast(let low): return "a finite number ≥ \(formatNumber(low))"
        case .above(let low): return "a finite number > \(formatNumber(low))"
        case .closed(let low, let high): return "a number in [\(formatNumber(low)), \(formatNumber(high))]"
        case .atLeastAtMost(let low, let high): return "a finite number ≥ \(formatNumber(low)) and ≤ \(formatNumber(high))"
        case .aboveAtMost(let low, let high): return "a finite number > \(formatNumber(low)) and ≤ \(formatNumber(high))"
        case .positiveWithin(let low, let high): return "a number > 0 in [\(formatNumber(low)), \(formatNumber(high))]"
        }
    }
}
