import Throbber

/// The premultiplied floating-point accumulators of a band of rows.
///
/// Each row starts as one solid run of the background. Painting a pixel first moves the run's
/// value into the accumulators under it (`cut`); an opaque colour certainly covering a run of
/// columns replaces whatever was there with a new solid run (`setSolid`). Resolving writes solid
/// runs as repeated bytes and quantises only the accumulators, so flat areas cost a fill, not a
/// per-pixel conversion. The values are the ones per-pixel painting would hold, so are the bytes.
final class Band {
    let width: Int
    let y0: Int
    let y1: Int
    let background: SIMD4<Float>
    let accum: UnsafeMutablePointer<Float>
    /// See `CPURenderer.shortcuts`; off, every pixel lives in the accumulators and no run is kept.
    let shortcuts: Bool
    /// `runCapacity` slots per row, the first `runCounts[row]` in use, sorted and disjoint.
    let runSlots: UnsafeMutablePointer<SolidRun>
    let runCounts: UnsafeMutablePointer<Int32>

    /// Solid runs a row can hold; a run that finds no slot goes into the accumulators instead.
    let runCapacity: Int

    /// One coverage value per column, for the run being painted.
    let coverageRow: UnsafeMutablePointer<Float>
    /// `cellStride` floats per row where a path accumulates the column differences of its signed
    /// area (`PreparedPath`): all 0 between uses once `zeroedCells` has cleared them.
    private let cells: UnsafeMutablePointer<Float>
    private var cellsCleared = false
    /// Floats per row of `cells`: the width, 2 more, rounded up to 8 (a path clears them eight at a time).
    let cellStride: Int

    /// The scratch bytes a band of `rows` rows needs: accumulators, runs, run counts, coverage.
    static func byteCount(width: Int, rows: Int, runCapacity: Int) -> Int {
        width * rows * MemoryLayout<SIMD4<Float>>.stride + rows * runCapacity * MemoryLayout<SolidRun>.stride
            + rows * MemoryLayout<Int32>.stride + width * MemoryLayout<Float>.stride
            + rows * cellStride(width: width) * MemoryLayout<Float>.stride
    }

    static func cellStride(width: Int) -> Int { (width + 2 + 7) / 8 * 8 }

    /// The fewest columns of full coverage by an opaque colour kept as a solid run when painted
    /// (shorter ones are blended: each run costs a slot and splits its neighbours).
    static let shortestSolidRun = 8

    init(width: Int, y0: Int, y1: Int, background: PaintColor, shortcuts: Bool, runCapacity: Int, storage: ScratchPool.Buffer) {
        self.shortcuts = shortcuts
        self.runCapacity = runCapacity
        self.width = width
        self.y0 = y0
        self.y1 = y1
        let a = background.a
        self.background = SIMD4(background.r * a, background.g * a, background.b * a, a)
        let rows = y1 - y0
        let accumBytes = width * rows * MemoryLayout<SIMD4<Float>>.stride
        let runBytes = rows * runCapacity * MemoryLayout<SolidRun>.stride
        accum = storage.pointer.bindMemory(to: Float.self, capacity: width * rows * 4)
        runSlots = (storage.pointer + accumBytes).bindMemory(to: SolidRun.self, capacity: rows * runCapacity)
        runCounts = (storage.pointer + accumBytes + runBytes).bindMemory(to: Int32.self, capacity: rows)
        coverageRow = (storage.pointer + accumBytes + runBytes + rows * MemoryLayout<Int32>.stride)
            .bindMemory(to: Float.self, capacity: width)
        cellStride = Band.cellStride(width: width)
        cells = (storage.pointer + accumBytes + runBytes + rows * MemoryLayout<Int32>.stride + width * MemoryLayout<Float>.stride)
            .bindMemory(to: Float.self, capacity: rows * cellStride)
        for r in 0..<rows {
            if shortcuts {
                runSlots[r * runCapacity] = SolidRun(lo: 0, hi: Int32(width), value: self.background)
                runCounts[r] = 1
            } else {
                store(self.background, r, 0, width)
                runCounts[r] = 0
            }
        }
    }

    /// The path cells (`cellStride` per row), all 0: cleared on the first call of the band (most
    /// bands paint no path); each user leaves them 0 again.
    func zeroedCells() -> UnsafeMutablePointer<Float> {
        if !cellsCleared {
            cells.initialize(repeating: 0, count: (y1 - y0) * cellStride)
            cellsCleared = true
        }
        return cells
    }

    /// Writes `value` to the accumulators of columns [a, b) of band row `r`.
    @inline(__always)
    func store(_ value: SIMD4<Float>, _ r: Int, _ a: Int, _ b: Int) {
        guard a < b else { return }
        let raw = UnsafeMutableRawPointer(accum + (r * width + a) * 4)
        for i in 0..<(b - a) { raw.storeBytes(of: value, toByteOffset: i * 16, as: SIMD4<Float>.self) }
    }

    /// Takes columns [a, b) of band row `r` out of its solid runs; with `materialize`, their
    /// values are written to the accumulators first (the columns are about to be blended over).
    @inline(__always)
    func cut(_ r: Int, _ a: Int, _ b: Int, materialize: Bool) {
        var n = Int(runCounts[r])
        guard a < b, n > 0 else { return }
        let slots = runSlots + r * runCapacity
        let a32 = Int32(a), b32 = Int32(b)
        var i = 0
        while i < n {
            let run = slots[i]
            if run.hi <= a32 { i += 1; continue }
            if run.lo >= b32 { break }
            let o0 = max(run.lo, a32), o1 = min(run.hi, b32)
            if materialize { store(run.value, r, Int(o0), Int(o1)) }
            if run.lo < o0 && run.hi > o1 {
                // [a, b) splits the run in two.
                if n < runCapacity {
                    var j = n
                    while j > i + 1 { slots[j] = slots[j - 1]; j -= 1 }
                    slots[i + 1] = SolidRun(lo: o1, hi: run.hi, value: run.value)
                    n += 1
                } else {
                    store(run.value, r, Int(o1), Int(run.hi))
                }
                slots[i].hi = o0
                break
            } else if run.lo < o0 {
                slots[i].hi = o0
                i += 1
            } else if run.hi > o1 {
                slots[i].lo = o1
                break
            } else {
                var j = i
                while j < n - 1 { slots[j] = slots[j + 1]; j += 1 }
                n -= 1
            }
        }
        runCounts[r] = Int32(n)
    }

    /// Columns [a, b) of band row `r` now hold `value`, whatever they held before.
    @inline(__always)
    func setSolid(_ r: Int, _ a: Int, _ b: Int, _ value: SIMD4<Float>) {
        guard a < b else { return }
        cut(r, a, b, materialize: false)
        let n = Int(runCounts[r])
        guard shortcuts, n < runCapacity else { return store(value, r, a, b) }
        let slots = runSlots + r * runCapacity
        var i = n
        while i > 0 && slots[i - 1].lo >= Int32(b) { slots[i] = slots[i - 1]; i -= 1 }
        slots[i] = SolidRun(lo: Int32(a), hi: Int32(b), value: value)
        runCounts[r] = Int32(n + 1)
    }

    /// SPEC §0: s = (r·a·c, g·a·c, b·a·c, a·c); dst = s + dst·(1 − s.a).
    @inline(__always)
    func blend(_ p: UnsafeMutablePointer<Float>, _ color: PaintColor, _ c: Float) {
        if c == 1 && color.a == 1 {
            // Opaque and fully covered: dst·(1 − 1) vanishes, the result is the colour itself.
            p[0] = color.r; p[1] = color.g; p[2] = color.b; p[3] = 1
            return
        }
        let sa = color.a * c
        let keep = 1 - sa
        p[0] = color.r * color.a * c + p[0] * keep
        p[1] = color.g * color.a * c + p[1] * keep
        p[2] = color.b * color.a * c + p[2] * keep
        p[3] = sa + p[3] * keep
    }
}
