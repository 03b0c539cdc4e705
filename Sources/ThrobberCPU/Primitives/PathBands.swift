import Throbber

/// A path's chords as the CPU row reads them, the same numbers the GL row hands its shader
/// (PathGLItem): every chord of the outline clipped to the path's bounds — rows outside dropped,
/// a part left of them made vertical on their left edge (it covers every pixel of the bounds to
/// its right whole), a part right of them dropped (it covers none) — relative to the bounds' top
/// left, in single precision, in outline order. Bucketed by bands of `rowsPerBucket` canvas rows,
/// so that a band of rows visits only the chords that reach it; a chord reaching several buckets
/// is in each, and a pixel's sum over its bucket is its sum over every chord (the others add 0).
struct PathBands {
    /// Canvas rows per bucket: the renderer's bands are at most 16 rows, aligned to 16
    /// (`CPURenderer.bandHeight`), so a band reads one bucket.
    static let rowsPerBucket = 16
    /// What the accumulated area of a pixel may differ from a whole number by and be taken as it
    /// (`snapped`): single precision's sums leave the inside of a fill at 0.9999999 or 1.0000001,
    /// which would paint the same bytes but not as a solid run. 2⁻¹⁶ is above the rounding of a
    /// row's sum and small enough that a real area left out (a hairline's corner) cannot move a
    /// faint pixel's colour mix by 1/255; 2⁻¹³ did (PathParityTests).
    static let wholeTolerance: Float = 1.0 / 65536

    /// The bounds' top left and size (px).
    let originX: Int
    let originY: Int
    let width: Int
    let height: Int
    /// The bucket of the bounds' first row (canvas row / `rowsPerBucket`).
    let firstBucket: Int
    /// Bucket `firstBucket + k` holds `chords[starts[k]..<starts[k + 1]]`.
    let starts: [Int]
    /// (x0, y0, x1, y1), relative to the bounds' top left, from the chord's start to its end.
    let chords: [SIMD4<Float>]

    init(_ outline: PathOutline, bounds: PixelRect) {
        let rows = PathBands.rowsPerBucket
        originX = bounds.x0
        originY = bounds.y0
        width = max(0, bounds.x1 - bounds.x0)
        height = max(0, bounds.y1 - bounds.y0)
        firstBucket = originY / rows
        guard width > 0, height > 0 else {
            starts = [0, 0]
            chords = []
            return
        }
        let lastBucket = (originY + height - 1) / rows
        let w = Double(width), h = Double(height), ox = Double(originX), oy = Double(originY)
        var pieces: [SIMD4<Float>] = []
        var reach: [(first: Int, last: Int)] = []
        pieces.reserveCapacity(outline.chordCount)
        reach.reserveCapacity(outline.chordCount)
        let first = firstBucket
        let dropped = PathBands.cancellingChords(outline.polygons)
        var index = 0
        for polygon in outline.polygons {
            for k in polygon.indices {
                defer { index += 1 }
                if !dropped.isEmpty && dropped[index] { continue }
                let a = polygon[k], b = polygon[k + 1 == polygon.count ? 0 : k + 1]
                PathOutline.clipChord(PathPoint(a.x - ox, a.y - oy), PathPoint(b.x - ox, b.y - oy), width: w, height: h) { p, q in
                    let top = min(p.y, q.y) + oy, bottom = max(p.y, q.y) + oy
                    let from = max(first, Int((top / Double(rows)).rounded(.down)))
                    let to = min(lastBucket, Int((bottom / Double(rows)).rounded(.up)) - 1)
                    let chord = SIMD4(Float(p.x), Float(p.y), Float(q.x), Float(q.y))
                    // Horizontal in single precision: it adds nothing (`pathSegmentArea`).
                    guard from <= to, chord.y != chord.w else { return }
                    pieces.append(chord)
                    reach.append((from - first, to - first))
                }
            }
        }
        var counts = [Int](repeating: 0, count: lastBucket - first + 2)
        for (from, to) in reach {
            for bucket in from...to { counts[bucket + 1] += 1 }
        }
        for k in 1..<counts.count { counts[k] += counts[k - 1] }
        var next = counts
        var banded = [SIMD4<Float>](repeating: SIMD4(), count: counts[counts.count - 1])
        for (piece, span) in zip(pieces, reach) {
            for bucket in span.first...span.last {
                banded[next[bucket]] = piece
                next[bucket] += 1
            }
        }
        starts = counts
        chords = banded
    }

    /// The chords (numbered through the polygons in order) that the next or previous small
    /// polygon has reversed, a → b there and b → a here, paired one to one: their contributions
    /// cancel exactly in every pixel, so both are left out. A stroke's ribbon is a quadrilateral
    /// per sample step (`PathStroker`), each sharing its normal segments with its neighbours:
    /// without them a ribbon is its two offset curves and the ends, and a band visits no chord
    /// across the stroke's inside. Empty when no polygon is small (a fill's own subpaths).
    static func cancellingChords(_ polygons: [[PathPoint]]) -> [Bool] {
        let small = 8
        guard polygons.count > 1, polygons.contains(where: { $0.count <= small }) else { return [] }
        var dropped = [Bool](repeating: false, count: polygons.reduce(0) { $0 + $1.count })
        var start = 0
        for k in 0..<(polygons.count - 1) {
            let p = polygons[k], q = polygons[k + 1], next = start + p.count
            defer { start = next }
            guard p.count <= small, q.count <= small else { continue }
            for i in p.indices where !dropped[start + i] {
                let a = p[i], b = p[i + 1 == p.count ? 0 : i + 1]
                for m in q.indices where !dropped[next + m] && q[m] == b && q[m + 1 == q.count ? 0 : m + 1] == a {
                    dropped[start + i] = true
                    dropped[next + m] = true
                    break
                }
            }
        }
        return dropped
    }

    /// The indices of `chords` in the bucket of canvas row `y` (a row of the bounds).
    func bucket(row y: Int) -> Range<Int> {
        let k = y / PathBands.rowsPerBucket - firstBucket
        return starts[k]..<starts[k + 1]
    }
}
