import Foundation

/// The finite interval a random parity case draws a numeric parameter from, and how draws spread
/// over it (`ParameterSampler`).
///
/// A parameter whose declared range is finite (a fraction in [0, 1], an integer range) samples
/// that range; one whose declared range is open-ended (`> 0`, `≥ 0`, any) declares a sampling
/// range: wide enough to reach the edge cases (zero where allowed, tiny and large values), narrow
/// enough that a random case renders in reasonable time.
public struct SamplingRange: Sendable, Equatable {
    /// The smallest value drawn; also drawn on its own, as an edge case.
    public var low: Double
    /// The largest value drawn; also drawn on its own, as an edge case.
    public var high: Double
    /// When set, draws between the end points spread evenly over orders of magnitude from this
    /// magnitude up (log-uniform), so a range such as [0, 2000] yields 0.01 as readily as 500;
    /// `nil` spreads them evenly over [low, high].
    public var logarithmicFrom: Double?

    /// Draws spread evenly over [low, high].
    public static func linear(_ low: Double, _ high: Double) -> SamplingRange {
        SamplingRange(low: low, high: high, logarithmicFrom: nil)
    }

    /// Draws spread evenly over the orders of magnitude from `smallest` to the end points; a
    /// negative `low` draws both signs.
    public static func logarithmic(_ low: Double, _ high: Double, from smallest: Double) -> SamplingRange {
        SamplingRange(low: low, high: high, logarithmicFrom: smallest)
    }

    /// Whether both ends are finite and in order.
    public var isFinite: Bool { low.isFinite && high.isFinite && low <= high }

    /// The sampling range a closed declared range implies: the range itself, spread evenly;
    /// `nil` for any other range, which must declare one (a length bounded only by `Limits`
    /// would otherwise be sampled up to 100,000 pt).
    public static func implied(by range: NumberRange) -> SamplingRange? {
        switch range {
        case .closed(let low, let high): return .linear(low, high)
        case .any, .atLeast, .above, .atLeastAtMost, .aboveAtMost, .positiveWithin: return nil
        }
    }

    /// The sampling range of an integer range: the range itself, log-uniform when it spans more
    /// than two orders of magnitude above 1, so that tickCount in 1…10000 is small (where the
    /// geometry of a few ticks is most varied) as often as large.
    public static func implied(by range: ClosedRange<Int>) -> SamplingRange {
        let low = Double(range.lowerBound), high = Double(range.upperBound)
        return high / max(low, 1) > 100 ? .logarithmic(low, high, from: max(low, 1)) : .linear(low, high)
    }
}
