import Throbber

// The fast path's scanline accumulation (FreeType's "gray" module, font-rs): each chord's part in
// a row adds, to the cells of the columns it crosses, the differences f(i) − f(i − 1) of its
// contribution f(i) = sign · ∫ clamp(i + 1 − x(y), 0, 1) dy (SPEC §9); a running sum along the
// row then gives every pixel's A(i, j), the number `pathSegmentArea` sums pixel by pixel. Cells
// are marked by blocks of eight columns: between marked blocks the sum is constant, painted as a
// span without visiting its pixels' cells.

extension PathBands {
    /// Paints canvas rows `rows` (within the bounds and `band`) with `shader`, by `evenOdd` or nonzero.
    func paint(_ band: Band, rows: Range<Int>, evenOdd: Bool, shader: PathShader) {
        let cells = band.zeroedCells(), stride = band.cellStride
        // Blocks of eight cells a row's chords can write: columns 0…width + 1.
        let blocks = (width + 2 + 7) / 8
        let words = (blocks + 63) / 64
        let top = rows.lowerBound - originY, bottom = rows.upperBound - originY
        let solid: SIMD4<Float>? = band.shortcuts && shader.kind == .solid && shader.color.a == 1
            ? SIMD4(shader.color.r, shader.color.g, shader.color.b, 1) : nil
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: rows.count * words) { buffer in
            let marks = buffer.baseAddress!
            marks.initialize(repeating: 0, count: rows.count * words)
            chords.withUnsafeBufferPointer { all in
                let chords = all.baseAddress!
                let rowsPerBucket = PathBands.rowsPerBucket
                for bucket in (rows.lowerBound / rowsPerBucket)...((rows.upperBound - 1) / rowsPerBucket) {
                    let lo = max(top, bucket * rowsPerBucket - originY), hi = min(bottom, (bucket + 1) * rowsPerBucket - originY)
                    let k = bucket - firstBucket
                    for index in starts[k]..<starts[k + 1] {
                        PathBands.accumulate(chords[index], rows: lo, hi, first: top, cells: cells, stride: stride,
                                             marks: marks, words: words)
                    }
                }
            }
            for j in top..<bottom {
                scan(band, row: j, cells: cells + (j - top) * stride, marks: marks + (j - top) * words, blocks: blocks,
                     evenOdd: evenOdd, shader: shader, solid: solid)
            }
        }
    }

    /// Adds the chord `c` (x0, y0, x1, y1) to the cells of its rows within [lo, hi) (relative to
    /// the bounds; row `first` is the cells' first), marking the blocks it writes. Each row's part
    /// has the end points `pathSegmentArea` computes for it, x = top.x + (y − top.y) · slope; a
    /// chord within one row keeps its own (the same but for that product's rounding).
    @inline(__always)
    static func accumulate(_ c: SIMD4<Float>, rows lo: Int, _ hi: Int, first: Int, cells: UnsafeMutablePointer<Float>,
                           stride: Int, marks: UnsafeMutablePointer<UInt64>, words: Int) {
        let down = c.w > c.y
        let topX = down ? c.x : c.z, topY = down ? c.y : c.w, bottomX = down ? c.z : c.x, bottomY = down ? c.w : c.y
        let sign: Float = down ? 1 : -1
        // Both ends ≥ 0 (clipped): truncation is floor.
        let topRow = Int(topY), bottomRow = Int(bottomY)
        if bottomRow == topRow || (bottomRow == topRow + 1 && Float(bottomRow) == bottomY) {
            // Within one row, as most chords of a finely flattened curve are: no slope needed.
            guard topRow >= lo && topRow < hi else { return }
            add(topX, bottomX, sign * (bottomY - topY), cells: cells + (topRow - first) * stride, marks: marks + (topRow - first) * words)
            return
        }
        var j = max(lo, topRow)
        let end = min(hi, Float(bottomRow) < bottomY ? bottomRow + 1 : bottomRow)
        guard j < end else { return }
        let slope = (bottomX - topX) / (bottomY - topY)
        var yA = max(topY, Float(j))
        var xA = topX + (yA - topY) * slope
        while j < end {
            let yB = min(bottomY, Float(j + 1))
            let xB = topX + (yB - topY) * slope
            add(xA, xB, sign * (yB - yA), cells: cells + (j - first) * stride, marks: marks + (j - first) * words)
            yA = yB
            xA = xB
            j += 1
        }
    }

    /// Adds a part of a chord within one row, from x = `xa` to `xb` (0…width), of signed height
    /// `d`: in each column c it crosses, a part of height h whose mean x is m adds h·(c + 1 − m)
    /// to f(c) and h to every f right of it.
    @inline(__always)
    static func add(_ xa: Float, _ xb: Float, _ d: Float, cells: UnsafeMutablePointer<Float>, marks: UnsafeMutablePointer<UInt64>) {
        let xl = min(xa, xb), xr = max(xa, xb)
        let il = Int(xl), ir = Int(xr)
        if il == ir {
            let area = d * (Float(il) + 1 - (xl + xr) * 0.5)
            cells[il] += area
            cells[il + 1] += d - area
            marks[il >> 9] |= 1 &<< UInt64((il >> 3) & 63)
            marks[(il + 1) >> 9] |= 1 &<< UInt64(((il + 1) >> 3) & 63)
            return
        }
        let k = d / (xr - xl)
        let first = Float(il + 1) - xl
        let h0 = k * first, a0 = h0 * first * 0.5
        cells[il] += a0
        cells[il + 1] += h0 - a0
        if ir > il + 1 {
            // Whole columns between: half of k to f(c), all of it right of c.
            let half = k * 0.5
            cells[il + 1] += half
            var c = il + 2
            while c < ir {
                cells[c] += k
                c += 1
            }
            cells[ir] += half
        }
        let last = xr - Float(ir)
        let h1 = k * last, a1 = h1 * (1 - last * 0.5)
        cells[ir] += a1
        cells[ir + 1] += h1 - a1
        mark(marks, il >> 3, (ir + 1) >> 3)
    }

    /// Marks blocks lo…hi of a row.
    @inline(__always)
    static func mark(_ marks: UnsafeMutablePointer<UInt64>, _ lo: Int, _ hi: Int) {
        var b = lo
        repeat {
            marks[b >> 6] |= 1 &<< UInt64(b & 63)
            b += 1
        } while b <= hi
    }

    /// 1.5·2²³: x + it − it is x rounded to a whole number (to nearest, ties to even) for
    /// |x| < 2²², in two additions, where `rounded()` would call the C library on x86-64's baseline.
    static let rounder: Float = 12_582_912

    /// `area` taken as the whole number it lies within `wholeTolerance` of, if it does. (Past
    /// 2²² the "whole number" found is not one, but it is taken only within the tolerance.)
    @inline(__always)
    static func snapped(_ area: Float) -> Float {
        let whole = (area + rounder) - rounder
        return abs(area - whole) < wholeTolerance ? whole : area
    }

    /// Turns band row `j`'s cells (relative to the bounds) into coverage and paints it, leaving
    /// the cells 0: marked blocks a column at a time, runs of unmarked ones as one constant span
    /// (skipped at 0, a solid run at full coverage by an opaque colour).
    @inline(__always)
    func scan(_ band: Band, row j: Int, cells: UnsafeMutablePointer<Float>, marks: UnsafeMutablePointer<UInt64>, blocks: Int,
              evenOdd: Bool, shader: PathShader, solid: SIMD4<Float>?) {
        let r = originY + j - band.y0, py = Float(originY + j) + 0.5
        let coverage = band.coverageRow + originX
        var sum: Float = 0
        // Columns from `pending` on hold coverage not painted yet.
        var pending = -1
        func flush(_ end: Int) {
            if pending >= 0 && end > pending { band.paintCovered(r, originX + pending..<originX + end, shader, py: py) }
            pending = -1
        }
        var block = 0
        while block < blocks {
            let word = marks[block >> 6] &>> UInt64(block & 63)
            if word & 1 != 0 {
                let s = block * 8
                if s + 8 <= width {
                    for lane in 0..<8 {
                        sum += cells[s + lane]
                        coverage[s + lane] = pathFillCoverage(PathBands.snapped(sum), evenOdd)
                    }
                    if pending < 0 { pending = s }
                } else {
                    for lane in 0..<8 {
                        sum += cells[s + lane]
                        if s + lane < width { coverage[s + lane] = pathFillCoverage(PathBands.snapped(sum), evenOdd) }
                    }
                    if s < width && pending < 0 { pending = s }
                }
                UnsafeMutableRawPointer(cells + s).storeBytes(of: SIMD8<Float>(), as: SIMD8<Float>.self)
                block += 1
                continue
            }
            // Unmarked blocks up to the next marked one: the sum holds.
            var next = block + (word == 0 ? 64 - (block & 63) : word.trailingZeroBitCount)
            while next < blocks && next & 63 == 0 && marks[next >> 6] == 0 { next += 64 }
            if next < blocks && next & 63 == 0 { next += marks[next >> 6].trailingZeroBitCount }
            next = min(next, blocks)
            let s = block * 8, e = min(next * 8, width)
            block = next
            guard s < e else { continue }
            let value = pathFillCoverage(PathBands.snapped(sum), evenOdd)
            if !(value > 0) {
                flush(s)
            } else if value == 1, let solid, e - s >= Band.shortestSolidRun {
                flush(s)
                band.setSolid(r, originX + s, originX + e, solid)
            } else {
                var x = s
                let eight = SIMD8<Float>(repeating: value)
                while x + 8 <= e {
                    UnsafeMutableRawPointer(coverage + x).storeBytes(of: eight, as: SIMD8<Float>.self)
                    x += 8
                }
                while x < e {
                    coverage[x] = value
                    x += 1
                }
                if pending < 0 { pending = s }
            }
        }
        flush(width)
    }
}
