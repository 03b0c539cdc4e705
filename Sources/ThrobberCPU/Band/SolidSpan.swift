/// Pixel-centre x values [lo, hi] of a row where a circle's coverage is certainly 1.
struct SolidSpan {
    var lo: Float
    var hi: Float

    static let empty = SolidSpan(lo: 1, hi: 0)
    static let everything = SolidSpan(lo: -.infinity, hi: .infinity)

    @inline(__always) func contains(_ x: Float) -> Bool { x >= lo && x <= hi }

    /// `contains` on eight lanes.
    @inline(__always) func contains(_ x: SIMD8<Float>) -> SIMDMask<SIMD8<Int32>> {
        (x .>= SIMD8(repeating: lo)) .& (x .<= SIMD8(repeating: hi))
    }

    /// The columns of `range` whose pixel centres x + ½ it contains (one run: it is an interval).
    func columns(within range: Range<Int>) -> Range<Int> {
        guard lo <= hi, !range.isEmpty else { return range.lowerBound..<range.lowerBound }
        // A first guess from the bounds, then settled with `contains` itself, so the columns are
        // exactly those the per-pixel test would accept.
        let lower = Float(range.lowerBound), upper = Float(range.upperBound)
        var a = Int(min(max((lo - 0.5).rounded(.up), lower), upper))
        var b = Int(min(max((hi - 0.5).rounded(.down) + 1, lower), upper))
        while a > range.lowerBound && contains(Float(a - 1) + 0.5) { a -= 1 }
        while a < range.upperBound && !contains(Float(a) + 0.5) { a += 1 }
        b = max(a, b)
        while b < range.upperBound && contains(Float(b) + 0.5) { b += 1 }
        while b > a && !contains(Float(b - 1) + 0.5) { b -= 1 }
        return a..<b
    }
}
