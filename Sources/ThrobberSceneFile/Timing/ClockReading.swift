import Foundation
import Throbber

/// What a scene clock shows at one instant: the fields a scene file's expressions read
/// (docs/scene-files.md §4.1).
///
/// `SceneClock.reading(at:speed:delay:)` makes one; a disabled clock reads all zeros.
public struct ClockReading: Sendable, Hashable {
    /// The pass fraction in [0, 1]: φ/d going forward, 2 − φ/d on an autoreversed way back.
    public var u: Double
    /// The clock's local time τ = f·t − b − δ in seconds (negative before it begins).
    public var t: Double
    /// The passes completed, floor(τ/P): clamped to [0, ⌊n⌋] for a clock of n passes.
    public var n: Double
    /// The clock's period P = d · (autoreverses ? 2 : 1) in seconds; 0 when disabled.
    public var period: Double

    /// A reading with the given fields.
    public init(u: Double, t: Double, n: Double, period: Double) {
        self.u = u
        self.t = t
        self.n = n
        self.period = period
    }

    /// A disabled clock's reading: every field 0.
    public static let disabled = ClockReading(u: 0, t: 0, n: 0, period: 0)
}
