import Foundation
import Throbber

/// A named clock of a scene file: Core Animation's `CAMediaTiming` in small (docs/scene-files.md §4.1).
///
/// A clock runs passes of `duration` d seconds, each followed by its way back when it
/// `autoreverses`, so its period is P = d · (autoreverses ? 2 : 1); it starts at `begin` b and
/// runs `repeats` forever or for a number of passes. A reading at scene time t, for a copy
/// delayed by δ on a clock sped up by f (1 unless a loop retimes it), uses the local time
/// τ = f·t − b − δ:
///
/// - forever: φ = mod(τ, P), floored, so a negative τ is fine and the clock has no start
///   transient (it has always been running);
/// - n passes: φ = 0 while τ ≤ 0 (fill backwards); from τ ≥ n·P the clock holds its end state
///   (fill forwards: u = 1 after whole passes without autoreverse, 0 after whole autoreversed
///   ones, the fraction reached for a fractional n); in between φ = mod(τ, P).
///
/// Then u = φ/d, or 2 − φ/d on the way back (autoreverses and φ > d). The mod is
/// τ − floor(τ/P)·P in double, and a result that rounding makes negative or equal to P is moved
/// into [0, P) (P becomes 0), with the pass count moved to match.
public struct SceneClock: Sendable, Hashable {
    /// How many passes a clock runs.
    public enum Repeat: Sendable, Hashable {
        /// Always running, before its begin too: the clock is a periodic part of the scene.
        case forever
        /// A positive, finite number of passes (a fraction stops mid-pass); the clock is one-shot.
        case count(Double)
    }

    /// The clock's name, which expressions and the loop report use.
    public var name: String
    /// One pass in seconds (the forward half of the period when the clock autoreverses).
    public var duration: Double
    /// Forever, or a number of passes.
    public var repeats: Repeat
    /// Whether each pass runs back after it runs forward.
    public var autoreverses: Bool
    /// The scene time in seconds at which pass 0 starts.
    public var begin: Double
    /// Whether the clock runs at all: a disabled clock reads all zeros and is no periodic part.
    public var enabled: Bool

    /// A clock; `problem` says whether its numbers are valid.
    public init(name: String, duration: Double, repeats: Repeat = .forever, autoreverses: Bool = false,
                begin: Double = 0, enabled: Bool = true) {
        self.name = name
        self.duration = duration
        self.repeats = repeats
        self.autoreverses = autoreverses
        self.begin = begin
        self.enabled = enabled
    }

    /// The period P = d · (autoreverses ? 2 : 1) in seconds, enabled or not.
    public var period: Double {
        autoreverses ? 2 * duration : duration
    }

    /// Why the clock's numbers are not valid, or nil when they are.
    ///
    /// `duration` must lie in [`Limits.shortestPeriod`, `Limits.time`], `begin` be finite with
    /// |begin| ≤ `Limits.time`, and a `count` be positive, finite and end within `Limits.time`
    /// (count × period).
    public var problem: String? {
        guard duration.isFinite, duration >= Limits.shortestPeriod, duration <= Limits.time else {
            return "duration \(formatNumber(duration)): give seconds from \(formatNumber(Limits.shortestPeriod)) "
                + "to \(formatNumber(Limits.time))"
        }
        guard begin.isFinite, abs(begin) <= Limits.time else {
            return "begin \(formatNumber(begin)): give seconds from \(formatNumber(-Limits.time)) to \(formatNumber(Limits.time))"
        }
        if case .count(let count) = repeats {
            guard count.isFinite, count > 0 else {
                return "repeat \(formatNumber(count)): give forever or a positive number of passes"
            }
            guard count * period <= Limits.time else {
                return "repeat \(formatNumber(count)): \(formatNumber(count)) passes of \(formatNumber(period)) s "
                    + "last more than \(formatNumber(Limits.time)) s"
            }
        }
        return nil
    }

    /// The clock's fields at scene time t, for a copy delayed by `delay` (δ) on a clock sped up by
    /// `speed` (f).
    ///
    /// One-shot clocks are not retimed: their caller passes speed 1. A disabled clock reads
    /// `ClockReading.disabled`.
    public func reading(at t: Double, speed: Double = 1, delay: Double = 0) -> ClockReading {
        guard enabled else { return .disabled }
        let period = period
        let tau = speed * t - begin - delay
        switch repeats {
        case .forever:
            let (passes, phase) = Self.reduce(tau, period: period)
            return ClockReading(u: passFraction(phase), t: tau, n: passes, period: period)
        case .count(let count):
            guard tau > 0 else { return ClockReading(u: 0, t: tau, n: 0, period: period) }
            let whole = floor(count)
            guard tau < count * period else {
                // The end state: where the last (maybe partial) pass stopped.
                let rest = count - whole
                let phase = rest > 0 ? rest * period : period
                return ClockReading(u: passFraction(phase), t: tau, n: whole, period: period)
            }
            let (passes, phase) = Self.reduce(tau, period: period)
            return ClockReading(u: passFraction(phase), t: tau, n: min(max(passes, 0), whole), period: period)
        }
    }

    /// The clock as a periodic part of the scene (its name and period P) when it runs forever and
    /// is enabled, else nil.
    public var periodicPart: PeriodicPart? {
        guard enabled, repeats == .forever else { return nil }
        return PeriodicPart(name, period: period)
    }

    /// When a one-shot clock's copy delayed by `delay` reaches its end state: b + δ + n·P;
    /// nil for a forever or disabled clock.
    ///
    /// The latest end over a scene's one-shot clocks is when the scene becomes periodic.
    public func end(delay: Double = 0) -> Double? {
        guard enabled, case .count(let count) = repeats else { return nil }
        return begin + delay + count * period
    }

    /// u for a phase φ ∈ [0, P]: φ/d, or 2 − φ/d on the way back.
    func passFraction(_ phase: Double) -> Double {
        autoreverses && phase > duration ? 2 - phase / duration : phase / duration
    }

    /// The floored division of τ by P: the passes completed and the phase φ ∈ [0, P).
    static func reduce(_ tau: Double, period: Double) -> (passes: Double, phase: Double) {
        var passes = floor(tau / period)
        var phase = tau - passes * period
        if phase < 0 {
            phase += period
            passes -= 1
        }
        if phase >= period {
            phase = 0
            passes += 1
        }
        return (passes, phase)
    }
}
