import Foundation
import Throbber

/// The common period of a scene's forever clocks: the length of its seamless loop
/// (docs/scene-files.md §4.4).
///
/// The loop is the shortest multiple k·L of the longest period L, up to `longest` (60 s), that is
/// a whole multiple of every period within 1e-9 relative: |k·L − m·p| ≤ 1e-9 · k·L for a whole
/// m ≥ 1. So 1.2, 0.6 and 2.4 s loop in 2.4 s, 1.4 s alone in 1.4 s, 1.2 and 0.5 s in 6 s, and
/// π²/10, 2π²/15 and 2 s in none (their ratios are irrational). A scene without a common period
/// is retimed by `LoopPlan` instead. One-shot clocks are no part of the loop: the scene becomes
/// periodic at the latest of their ends (`periodicStart(of:)`).
public enum ClockLoop {
    /// The longest loop the search accepts, in seconds.
    public static let longest = 60.0

    /// The relative tolerance within which a multiple counts as whole.
    public static let tolerance = 1e-9

    /// The shortest multiple of the longest period, at most `limit` seconds, that every period
    /// divides (within `tolerance`); nil when there is none, when `periods` is empty, or when a
    /// period is not finite or shorter than `Limits.shortestPeriod`.
    public static func commonPeriod(of periods: [Double], limit: Double = longest) -> Double? {
        guard let longestPeriod = periods.max(),
              periods.allSatisfy({ $0.isFinite && $0 >= Limits.shortestPeriod }),
              limit.isFinite
        else { return nil }
        // k·L up to the limit, with rounding's room so that a limit of exactly k·L counts.
        let most = Int(min(floor(limit * (1 + tolerance) / longestPeriod), 1e9))
        guard most >= 1 else { return nil }
        for multiple in 1...most {
            let candidate = Double(multiple) * longestPeriod
            let fits = periods.allSatisfy { period in
                let whole = (candidate / period).rounded()
                return whole >= 1 && abs(candidate - whole * period) <= tolerance * candidate
            }
            if fits { return candidate }
        }
        return nil
    }

    /// The common period of the enabled forever clocks (`commonPeriod(of:limit:)` of their
    /// periods); nil when there are none or they have no common period up to `limit`.
    public static func commonPeriod(ofClocks clocks: [SceneClock], limit: Double = longest) -> Double? {
        commonPeriod(of: clocks.compactMap { $0.periodicPart?.period }, limit: limit)
    }

    /// When the scene becomes periodic: the latest end of its enabled one-shot clocks
    /// (`SceneClock.end(delay:)` with no delay), or 0 when it has none or all end earlier.
    public static func periodicStart(of clocks: [SceneClock]) -> Double {
        clocks.compactMap { $0.end() }.reduce(0, max)
    }
}
