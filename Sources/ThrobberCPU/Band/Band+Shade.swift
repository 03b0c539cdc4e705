import Throbber

extension Band {
    /// The columns of row `y` to visit for a primitive bounded by `rect` and `annulus`: one run,
    /// or two around the annulus's hole.
    @inline(__always)
    func runs(_ y: Int, _ rect: PixelRect, _ annulus: Annulus?) -> (Range<Int>, Range<Int>) {
        let columns = rect.x0..<rect.x1
        guard let annulus else { return (columns, columns.upperBound..<columns.upperBound) }
        let (outer, hole) = annulus.spans(row: y)
        let span = outer.clamped(to: columns)
        if hole.isEmpty { return (span, span.upperBound..<span.upperBound) }
        return (span.lowerBound..<max(span.lowerBound, min(span.upperBound, hole.lowerBound)),
                min(span.upperBound, max(span.lowerBound, hole.upperBound))..<span.upperBound)
    }

    /// Columns of row `y` whose centres are certainly more than `Antialiasing.reach` inside the
    /// circle, where fill(|p − c| − r) is exactly 1 without computing it (`certaintyMargin`).
    @inline(__always)
    func solidColumns(_ y: Int, _ cx: Float, _ cy: Float, _ r: Float) -> SolidSpan {
        let dy = Float(y) + 0.5 - cy
        let safe = r - (Antialiasing.reach + certaintyMargin)
        guard safe > abs(dy) else { return .empty }
        let half = (safe * safe - dy * dy).squareRoot()
        return SolidSpan(lo: cx - half, hi: cx + half)
    }

    /// Paints over the band's part of `rect` (and `annulus`), with `coverage(x, px, py, solid)` at
    /// each pixel centre, where `solid` says the pixel lies certainly inside `circle` (coverage 1).
    ///
    /// - Parameter fullRow: says of a row (by its pixel-centre y) that `coverage` is exactly 1
    ///   wherever `solid` holds (everywhere when there is no circle); an opaque colour is then
    ///   written over those pixels without evaluating `coverage`, with the same result.
    @inline(__always)
    func shade<Coverage: PixelCoverage>(_ rect: PixelRect, _ annulus: Annulus?, _ color: PaintColor,
                                        circle: (Float, Float, Float)? = nil, fullRow: ((Float) -> Bool)? = nil,
                                        _ coverage: Coverage) {
        let top = max(rect.y0, y0), bottom = min(rect.y1, y1)
        guard top < bottom, rect.x0 < rect.x1 else { return }
        for y in top..<bottom {
            let py = Float(y) + 0.5
            let solid = circle.map { solidColumns(y, $0.0, $0.1, $0.2) } ?? .empty
            var full: SolidSpan?
            if shortcuts, color.a == 1, let fullRow, fullRow(py) { full = circle == nil ? .everything : solid }
            let (first, second) = runs(y, rect, annulus)
            if !first.isEmpty { run(y, py, first, solid, full, color, coverage) }
            if !second.isEmpty { run(y, py, second, solid, full, color, coverage) }
        }
    }

    /// `shade` with the coverage as a closure.
    @inline(__always)
    func shade(_ rect: PixelRect, _ annulus: Annulus?, _ color: PaintColor, circle: (Float, Float, Float)? = nil,
               fullRow: ((Float) -> Bool)? = nil, _ coverage: (Int, Float, Float, Bool) -> Float) {
        withoutActuallyEscaping(coverage) { body in
            shade(rect, annulus, color, circle: circle, fullRow: fullRow, ClosureCoverage(body: body))
        }
    }

    @inline(__always)
    func run<Coverage: PixelCoverage>(_ y: Int, _ py: Float, _ columns: Range<Int>, _ solid: SolidSpan, _ full: SolidSpan?,
                                      _ color: PaintColor, _ coverage: Coverage) {
        let r = y - y0
        func evaluate(_ range: Range<Int>) {
            guard !range.isEmpty else { return }
            var column = range.lowerBound
            if Coverage.evaluatesEight && range.upperBound <= 1 << 24 {
                // Eight columns at a time, each lane the same operations as `at` (x < 2²⁴, so
                // Float(x) + k is exactly Float(x + k)).
                let lanes = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
                while column + 8 <= range.upperBound {
                    let px = SIMD8<Float>(repeating: Float(column)) + lanes + 0.5
                    let values = coverage.eight(column, px, py, solid: solid.contains(px))
                    UnsafeMutableRawPointer(coverageRow + column).storeBytes(of: values, as: SIMD8<Float>.self)
                    column += 8
                }
            }
            while column < range.upperBound {
                let px = Float(column) + 0.5
                coverageRow[column] = coverage.at(column, px, py, solid: solid.contains(px))
                column += 1
            }
            paintCovered(r, range, color)
        }
        guard let full else { return evaluate(columns) }
        // Opaque and certainly covered: blend's result is the colour itself, written as a run.
        let filled = full.columns(within: columns)
        evaluate(columns.lowerBound..<filled.lowerBound)
        setSolid(r, filled.lowerBound, filled.upperBound, SIMD4(color.r, color.g, color.b, 1))
        evaluate(filled.upperBound..<columns.upperBound)
    }
}

extension Band {
    /// Paints `color` over columns `range` of band row `r` with the coverage already in
    /// `coverageRow` (what `run` evaluated there, or a path's accumulated areas read by its rule).
    @inline(__always)
    func paintCovered(_ r: Int, _ range: Range<Int>, _ color: PaintColor) {
        let row = accum + r * width * 4
        /// Blends columns [a, b) with the coverage already in `coverageRow`.
        func blendColumns(_ a: Int, _ b: Int) {
            guard a < b else { return }
            cut(r, a, b, materialize: true)
            var p = row + a * 4
            for x in a..<b {
                let c = coverageRow[x]
                if c > 0 { blend(p, color, c) }
                p += 4
            }
        }
        guard shortcuts else { return blendColumns(range.lowerBound, range.upperBound) }
        // Columns of no coverage keep whatever run they are in; stretches of full coverage by
        // an opaque colour become solid runs (blend would write the colour itself there).
        let opaque = color.a == 1
        var x = range.lowerBound
        let end = range.upperBound
        while x < end {
            // `!(c > 0)`, not `c == 0`: a NaN coverage (from geometry no bound caught) must
            // count as none, or neither loop advances and this one never ends.
            x = firstCovered(x, end)
            var blendFrom = x
            while x < end && coverageRow[x] > 0 {
                guard opaque && coverageRow[x] == 1 else { x += 1; continue }
                let full = firstNotFull(x, end)
                if full - x >= Band.shortestSolidRun {
                    blendColumns(blendFrom, x)
                    setSolid(r, x, full, SIMD4(color.r, color.g, color.b, 1))
                    blendFrom = full
                }
                x = full
            }
            blendColumns(blendFrom, x)
        }
    }
}

extension Band {
    /// The first column of [x, end) whose coverage is > 0 (not NaN), or `end`; eight at a time
    /// while none is.
    @inline(__always)
    func firstCovered(_ from: Int, _ end: Int) -> Int {
        var x = from
        while x + 8 <= end, !any(UnsafeRawPointer(coverageRow + x).loadUnaligned(as: SIMD8<Float>.self) .> 0) { x += 8 }
        while x < end && !(coverageRow[x] > 0) { x += 1 }
        return x
    }

    /// The first column of [x, end) whose coverage is not exactly 1, or `end`; eight at a time
    /// while all are.
    @inline(__always)
    func firstNotFull(_ from: Int, _ end: Int) -> Int {
        var x = from
        while x + 8 <= end, all(UnsafeRawPointer(coverageRow + x).loadUnaligned(as: SIMD8<Float>.self) .== 1) { x += 8 }
        while x < end && coverageRow[x] == 1 { x += 1 }
        return x
    }
}

/// A primitive's coverage at a pixel centre, as `Band.shade` and `Band.run` take it: a type of
/// its own per primitive, so that the generic row loops are specialised for it and the formula
/// is inlined into them (a closure was called per pixel: measured at a tenth of a 512 px
/// wave-ball clip's CPU time).
protocol PixelCoverage {
    /// The coverage of column `x` (centre `px`) of the row at `py`; `solid`: the pixel lies
    /// certainly inside the shade's circle, where coverage is 1 as far as the circle goes.
    func at(_ x: Int, _ px: Float, _ py: Float, solid: Bool) -> Float
    /// Whether `eight` is its own and should be used: false unless a type says so.
    static var evaluatesEight: Bool { get }
    /// `at` for the eight columns from `x` on (centres `px`), lane by lane the same values.
    func eight(_ x: Int, _ px: SIMD8<Float>, _ py: Float, solid: SIMDMask<SIMD8<Int32>>) -> SIMD8<Float>
}

extension PixelCoverage {
    static var evaluatesEight: Bool { false }
    func eight(_ x: Int, _ px: SIMD8<Float>, _ py: Float, solid: SIMDMask<SIMD8<Int32>>) -> SIMD8<Float> {
        var values = SIMD8<Float>()
        for lane in 0..<8 { values[lane] = at(x + lane, px[lane], py, solid: solid[lane]) }
        return values
    }
}

/// A closure's coverage, for the primitives not worth a type of their own.
struct ClosureCoverage: PixelCoverage {
    let body: (Int, Float, Float, Bool) -> Float
    @inline(__always) func at(_ x: Int, _ px: Float, _ py: Float, solid: Bool) -> Float { body(x, px, py, solid) }
}
