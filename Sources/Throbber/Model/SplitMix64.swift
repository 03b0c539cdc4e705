/// A small, seedable pseudo-random generator: SplitMix64 (Steele, Lea and Flood, 2014, as in
/// Vigna's reference `splitmix64.c`).
///
/// Random parity cases must be the same for a seed on every machine and every toolchain, so
/// Throbber never uses the system generator, and this type deliberately does not conform to
/// `RandomNumberGenerator`: the standard library's `random(in:using:)` algorithms are not
/// promised to stay the same across Swift versions. The few ways to draw below are ours.
public struct SplitMix64: Sendable, Equatable {
    /// The generator's whole state.
    public private(set) var state: UInt64

    /// Creates a generator; every seed, 0 included, is fine.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return SplitMix64.mix(state)
    }

    /// SplitMix64's output function: a bijection of 64-bit words that spreads every input bit
    /// over the output. Also used to derive independent seeds from (seed, scene, case).
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in [0, 1): the top 53 bits scaled by 2⁻⁵³.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// A uniform integer in `0..<count` (the high word of a 64 × 64-bit product; the bias is
    /// below count / 2⁶⁴).
    ///
    /// - Precondition: `count > 0`.
    public mutating func next(below count: Int) -> Int {
        precondition(count > 0, "count must be positive")
        return Int(next().multipliedFullWidth(by: UInt64(count)).high)
    }

    /// Whether an event of probability `p` happens.
    public mutating func chance(_ p: Double) -> Bool {
        nextUnit() < p
    }
}
