import Foundation
import Throbber

/// f(x) and sqrt(1 + f′(x)²) of a wave at every pixel column of its bounds (SPEC §0
/// "below a curve"): `waveColumn`, the column part of `waveDistance`, computed once per frame
/// and read by every band.
struct WaveColumns: Sendable {
    let x0: Int
    let height: [Float]
    let norm: [Float]
    /// The largest f(x) + (antialiasReach + certaintyMargin)·sqrt(1 + f′²) over the columns: a
    /// pixel centre at or below it is certainly under the curve in every column (the row test of
    /// `paint`, taken at its maximum).
    let lowestFullRow: Float

    init(_ w: Wave) {
        x0 = w.bounds.x0
        var height: [Float] = []
        var norm: [Float] = []
        let count = max(0, w.bounds.x1 - w.bounds.x0)
        height.reserveCapacity(count)
        norm.reserveCapacity(count)
        for x in w.bounds.x0..<max(w.bounds.x0, w.bounds.x1) {
            // waveDistance's column part, so the row loop needs no sin or cos; `Band.paint` adds
            // its pixel part, `curveDistance`.
            let column = waveColumn(Float(x) + 0.5, w.originX, w.amplitude, w.k, w.phase, w.baseline)
            height.append(column.height)
            norm.append(column.norm)
        }
        self.height = height
        self.norm = norm
        lowestFullRow = zip(height, norm).map { $0 + (antialiasReach + certaintyMargin) * $1 }.max() ?? .infinity
    }
}
