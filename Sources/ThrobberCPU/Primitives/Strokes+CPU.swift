import Throbber

// The strokes' row (Throbber/DrawList/Primitives/Strokes.swift): their formulas and coverage,
// twins of Shaders/Primitives/strokes.glsl in the same order (a vec4 segment there is a
// `Strokes.Segment` here: (x0, y0) its xy, (x1, y1) its zw), and how the CPU renderer paints them.

/// The distance from (px, py) to the segment (ax, ay)–(bx, by), clamped to its end points (round
/// caps): h = clamp(dot(p − a, b − a) / dot(b − a, b − a), 0, 1), |p − a − h·(b − a)|; a segment
/// of no length (dot = 0) is its point a, |p − a|.
@inline(__always) func segmentDistance(_ px: Float, _ py: Float, _ ax: Float, _ ay: Float, _ bx: Float, _ by: Float) -> Float {
    let pax = px - ax, pay = py - ay
    let bax = bx - ax, bay = by - ay
    let along = bax * bax + bay * bay
    let h = along == 0 ? 0 : clamp01((pax * bax + pay * bay) / along)
    let dx = pax - bax * h, dy = pay - bay * h
    return (dx * dx + dy * dy).squareRoot()
}

/// SPEC §7 "Glyphs" (`Strokes`): one or two segments as one shape, δ the nearer segment's
/// distance (round caps and joins), coverage stroke(δ, lineWidth).
@inline(__always) func strokesCoverage(_ px: Float, _ py: Float, _ first: Strokes.Segment, _ second: Strokes.Segment,
                                       _ segments: Float, _ lineWidth: Float) -> Float {
    var delta = segmentDistance(px, py, first.x0, first.y0, first.x1, first.y1)
    if segments > 1.5 { delta = min(delta, segmentDistance(px, py, second.x0, second.y0, second.x1, second.y1)) }
    return strokeCoverage(delta, lineWidth)
}

extension Strokes: CPUPrimitive {
    func prepare(shortcuts: Bool, resources: DrawResources) -> any CPUItem { PreparedStrokes(self) }
}

/// Strokes as the CPU renderer paints them: on each row, only the columns near a segment.
final class PreparedStrokes: AreaItem {
    let strokes: Strokes
    /// How far from a segment (px) a pixel centre may be and still be covered: half the line
    /// width and the anti-aliasing reach, with a pixel and a part in 10⁴ of the coordinates'
    /// size to spare for single precision's rounding of the distance.
    let radius: Double
    var bounds: PixelRect { strokes.bounds }

    init(_ strokes: Strokes) {
        self.strokes = strokes
        let size = strokes.segments.reduce(Double(max(strokes.bounds.x1, strokes.bounds.y1))) {
            max($0, abs(Double($1.x0)), abs(Double($1.y0)), abs(Double($1.x1)), abs(Double($1.y1)))
        }
        radius = Double(max(0, strokes.lineWidth)) / 2 + Double(Antialiasing.reach) + 1 + 1e-4 * size
    }

    /// The columns of the row at `py` whose centres lie within `radius` of `segment`: its points
    /// whose y lies within `radius` of the row, their x range grown by `radius`. nil when none is
    /// near; the whole of `columns` when the geometry is not finite.
    func columns(_ segment: Strokes.Segment, _ py: Double, within columns: Range<Int>) -> Range<Int>? {
        let (ax, ay, bx, by) = (Double(segment.x0), Double(segment.y0), Double(segment.x1), Double(segment.y1))
        guard ax.isFinite, ay.isFinite, bx.isFinite, by.isFinite, radius.isFinite else { return columns }
        var t0 = 0.0, t1 = 1.0
        if by == ay {
            guard abs(ay - py) <= radius else { return nil }
        } else {
            let u0 = (py - radius - ay) / (by - ay), u1 = (py + radius - ay) / (by - ay)
            t0 = max(0, min(u0, u1))
            t1 = min(1, max(u0, u1))
            guard t0 <= t1 else { return nil }
        }
        let xa = ax + (bx - ax) * t0, xb = ax + (bx - ax) * t1
        let lo = min(xa, xb) - radius, hi = max(xa, xb) + radius
        // Columns x whose centres x + ½ lie in [lo, hi].
        let lower = Double(columns.lowerBound), upper = Double(columns.upperBound)
        let a = Int(min(max((lo - 0.5).rounded(.up), lower), upper))
        let b = Int(min(max((hi - 0.5).rounded(.down) + 1, lower), upper))
        return a < b ? a..<b : nil
    }

    func paint(_ band: Band) {
        let s = strokes, rect = s.bounds
        let top = max(rect.y0, band.y0), bottom = min(rect.y1, band.y1)
        guard top < bottom, rect.x0 < rect.x1 else { return }
        let coverage = StrokesCoverage(strokes: s, segments: Float(s.segmentCount))
        let all = rect.x0..<rect.x1
        for y in top..<bottom {
            let py = Float(y) + 0.5
            let one = columns(s.first, Double(py), within: all)
            let two = s.segmentCount == 2 ? columns(s.second, Double(py), within: all) : nil
            switch (one, two) {
            case let (a?, b?):
                // Each pixel once: overlapping or touching runs are one.
                let (left, right) = a.lowerBound <= b.lowerBound ? (a, b) : (b, a)
                if right.lowerBound <= left.upperBound {
                    band.run(y, py, left.lowerBound..<max(left.upperBound, right.upperBound), .empty, nil, s.color, coverage)
                } else {
                    band.run(y, py, left, .empty, nil, s.color, coverage)
                    band.run(y, py, right, .empty, nil, s.color, coverage)
                }
            case let (a?, nil), let (nil, a?):
                band.run(y, py, a, .empty, nil, s.color, coverage)
            case (nil, nil):
                continue
            }
        }
    }

    /// `strokesCoverage` at every pixel centre of the bounds.
    func paintReference(_ band: Band) {
        let s = strokes, segments = Float(s.segmentCount)
        band.shade(s.bounds, nil, s.color) { _, px, py, _ in
            inside(s.bounds, px, py) ? strokesCoverage(px, py, s.first, s.second, segments, s.lineWidth) : 0
        }
    }
}

/// `strokesCoverage` of one `Strokes`.
struct StrokesCoverage: PixelCoverage {
    let strokes: Strokes
    let segments: Float

    @inline(__always) func at(_ x: Int, _ px: Float, _ py: Float, solid: Bool) -> Float {
        strokesCoverage(px, py, strokes.first, strokes.second, segments, strokes.lineWidth)
    }
}
