import Foundation
import Throbber

extension QuadInstance {
    /// The columns of the row whose pixel centres lie at `py` where the box can have coverage:
    /// a superset of the pixels with |qx| < halfX + ½ and |qy| < halfY + ½ in the box's frame
    /// (roundedBoxDistance ≥ max(|qx| − halfX, |qy| − halfY), so coverage is 0 outside).
    @inline(__always)
    func rowColumns(_ py: Float, cos c: Float, sin s: Float) -> Range<Int> {
        // The anti-aliased edge's reach and ¼ px more for the rounding of qx, qy and the interval.
        let reach = Antialiasing.reach + 0.25
        // Parallel to the row, |dx·slope| < 0.01 on any canvas: an edge then counts as crossing.
        guard let (lo, hi) = offsets(py, reachX: halfX + reach, reachY: halfY + reach, cos: c, sin: s, parallelSlack: 0.01) else {
            return 0..<0
        }
        // Pixel x has its centre at x + ½; one more column each side absorbs rounding.
        let first = Int(max((centerX + lo - 0.5).rounded(.down) - 1, -1))
        let last = Int(min((centerX + hi - 0.5).rounded(.up) + 1, Float(Int32.max)))
        // A row of the box can lie wholly left of the canvas (a long tilted tick near the edge):
        // then it is empty, not an inverted range.
        return first ..< max(first, last + 1)
    }

    /// Pixel-centre x values of the row at `py` where the box certainly covers (coverage exactly
    /// 1): inside the box shrunk by max(cornerRadius, `Antialiasing.reach`) and 0.05 px more. There
    /// |qx| ≤ halfX − cornerRadius and |qy| ≤ halfY − cornerRadius, so roundedBoxDistance is
    /// max(|qx| − halfX, |qy| − halfY) ≤ −½ − 0.05; the margin dwarfs the rounding of qx, qy and
    /// of this interval.
    @inline(__always)
    func certainlyCovered(_ py: Float, cos c: Float, sin s: Float) -> SolidSpan {
        let inset = max(cornerRadius, Antialiasing.reach) + 0.05
        // Parallel to the row, |dx·slope| < 0.02 on any canvas: the row must clear the edge by that.
        guard halfX > inset, halfY > inset,
              let (lo, hi) = offsets(py, reachX: halfX - inset, reachY: halfY - inset, cos: c, sin: s, parallelSlack: -0.02) else {
            return .empty
        }
        return SolidSpan(lo: centerX + lo, hi: centerX + hi)
    }

    /// The offsets dx from the centre, along the row at `py`, with |dx·c + dy·s| < reachX and
    /// |−dx·s + dy·c| < reachY (dy = py − centerY): an interval, nil when empty. A constraint
    /// parallel to the row holds for all dx or none, judged with `parallelSlack` added to its reach.
    @inline(__always)
    private func offsets(_ py: Float, reachX: Float, reachY: Float, cos c: Float, sin s: Float,
                         parallelSlack: Float) -> (Float, Float)? {
        let dy = py - centerY
        var lo = -Float.infinity, hi = Float.infinity
        /// Narrows [lo, hi] to the dx with |dx·slope + offset| < reach; false when none is left.
        @inline(__always) func narrow(_ slope: Float, _ offset: Float, _ reach: Float) -> Bool {
            if abs(slope) < 1e-6 { return abs(offset) < reach + parallelSlack }
            let a = (-reach - offset) / slope, b = (reach - offset) / slope
            lo = max(lo, min(a, b))
            hi = min(hi, max(a, b))
            return lo < hi
        }
        guard narrow(c, dy * s, reachX), narrow(-s, dy * c, reachY), lo < hi else { return nil }
        return (lo, hi)
    }
}
