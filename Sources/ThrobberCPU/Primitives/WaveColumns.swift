import Foundation
import Throbber

/// f(x) and sqrt(1 + f′(x)²) of a wave at every pixel column of its bounds (SPEC §0
/// "below a curve"): `waveColumn`, the column part of `waveDistance`, computed once per frame
/// and read by every band.
struct WaveColumns: Sendable {
    let x0: Int
    let height: [Float]
    let norm: [Float]
    /// The largest f(x) + (Antialiasing.reach + certaintyMargin)·sqrt(1 + f′²) over the columns: a
    /// pixel centre at or below it is certainly under the curve in every column (the row test of
    /// `paint`, taken at its maximum).
    let lowestFullRow: Float

    init(_ w: Wave) {
        x0 = w.bounds.x0
        let count = max(0, w.bounds.x1 - w.bounds.x0)
        var lowest = -Float.infinity
        var norm = [Float](repeating: 0, count: count)
        // Filled in one pass, with no intermediate arrays: at 64×64 px this runs for two waves
        // every frame and was a tenth of the frame's time.
        height = [Float](unsafeUninitializedCapacity: count) { height, initialized in
            norm.withUnsafeMutableBufferPointer { norm in
                for i in 0..<count {
                    // waveDistance's column part, so the row loop needs no sin or cos; `Band.paint`
                    // adds its pixel part, `curveDistance`.
                    let column = waveColumn(Float(w.bounds.x0 + i) + 0.5, w.originX, w.amplitude, w.k, w.phase, w.baseline)
                    height[i] = column.height
                    norm[i] = column.norm
                    lowest = max(lowest, column.height + (Antialiasing.reach + certaintyMargin) * column.norm)
                }
            }
            initialized = count
        }
        self.norm = norm
        lowestFullRow = count == 0 ? .infinity : lowest
    }
}
