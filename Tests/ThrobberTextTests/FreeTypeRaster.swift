import Throbber

/// FreeType's smooth renderer (ftgrays.c and ftsmooth.c, FreeType 2.12) redone over an outline,
/// to see that the atlas's outlines are the ones FreeType rasterised, to the last 1/64 px.
///
/// Its chords: coordinates in 1/256 px, a quadratic bisected 2^k times until each piece is within
/// 1/16 px of its chord, a cubic bisected until its control points are within 1/6 px of its
/// chord's trisection points along each axis. Its bytes: the chords' exact area (SPEC §9's, the
/// same integral) × 256, floored, clamped to 255. The outline's own curves, which SPEC §9 flattens
/// to 1/256 px, differ from the bitmap by this coarser flattening. (FreeType samples a TrueType
/// glyph flagged as having overlapping contours 4 × 4 times a pixel instead; none of the tests'
/// glyphs is, or it would fail the comparison.)
enum FreeTypeRaster {
    /// A point in 1/256 px, y up as FreeType's (any whole-pixel origin: the arithmetic below is
    /// the same under a shift by whole pixels).
    typealias Fixed = (x: Int, y: Int)

    /// The bytes FreeType paints of `path` (px, y down, from a whole pixel) on a `width` × `height` grid.
    static func bitmap(_ path: PathGeometry, width: Int, height: Int) -> [Int] {
        // FT_FILL_RULE, nonzero: the area in FreeType's y-up orientation (ours negated), 256 a
        // pixel, floored; a negative value v becomes ~v = −v − 1; 256 and more clamp to 255.
        PathCoverage.signedArea(polygons(path), width: width, height: height).map { area in
            let floored = Int((-256 * area + 1e-7).rounded(.down))
            return min(255, floored < 0 ? -floored - 1 : floored)
        }
    }

    /// The polygons FreeType draws for `path` (px, y down, relative to a whole pixel), in px.
    ///
    /// A cubic whose points satisfy p0 − 3c1 + 3c2 − p3 = 0 is a raised quadratic (a TrueType
    /// conic, `PathGeometry.cubic(quadraticFrom:)`), and FreeType drew it as one.
    static func polygons(_ path: PathGeometry) -> [[PathPoint]] {
        path.subpaths.map { subpath in
            var current = fixed(subpath.start)
            var points = [current]
            for segment in subpath.segments {
                switch segment {
                case .line(let p):
                    points.append(fixed(p))
                case let .cubic(c1, c2, p):
                    let p0 = PathPoint(Double(current.x) / 256, -Double(current.y) / 256)
                    let third = p0 - 3 * c1 + 3 * c2 - p
                    if third.length < 1e-9 {
                        points += conic(current, fixed((0.5 * (3 * c1 - p0))), fixed(p))
                    } else {
                        points += cubic(current, fixed(c1), fixed(c2), fixed(p))
                    }
                }
                current = points[points.count - 1]
            }
            return points.map { PathPoint(Double($0.x) / 256, -Double($0.y) / 256) }
        }
    }

    /// A point of the outline in 1/256 px, y up; outline points are 26.6 px, so this is exact.
    static func fixed(_ p: PathPoint) -> Fixed { (Int((256 * p.x).rounded()), Int((-256 * p.y).rounded())) }

    /// gray_render_conic: deviation d = max |p0 + p2 − 2p1| per axis; 2^k chords, k the quarterings
    /// that take d to ≤ ONE_PIXEL / 4, by repeated bisection with FreeType's arithmetic shifts
    /// (gray_split_conic).
    static func conic(_ p0: Fixed, _ p1: Fixed, _ p2: Fixed) -> [Fixed] {
        var d = max(abs(p0.x + p2.x - 2 * p1.x), abs(p0.y + p2.y - 2 * p1.y)), draw = 1
        while d > 64 {
            d >>= 2
            draw <<= 1
        }
        var arc = [Fixed](repeating: (0, 0), count: 16 * 2 + 1)
        arc[0] = p2
        arc[1] = p1
        arc[2] = p0
        var top = 0, points: [Fixed] = []
        repeat {
            var split = draw & -draw
            while true {
                split >>= 1
                if split == 0 { break }
                let (a, b, c) = (arc[top], arc[top + 1], arc[top + 2])
                arc[top + 4] = c
                arc[top + 3] = ((b.x + c.x) >> 1, (b.y + c.y) >> 1)
                arc[top + 2] = ((a.x + 2 * b.x + c.x) >> 2, (a.y + 2 * b.y + c.y) >> 2)
                arc[top + 1] = ((a.x + b.x) >> 1, (a.y + b.y) >> 1)
                top += 2
            }
            points.append(arc[top])
            top -= 2
            draw -= 1
        } while draw > 0
        return points
    }

    /// gray_render_cubic and gray_split_cubic: bisect while a control point is more than
    /// ONE_PIXEL / 2 from its chord trisection point along either axis.
    static func cubic(_ p0: Fixed, _ c1: Fixed, _ c2: Fixed, _ p3: Fixed) -> [Fixed] {
        var arc = [Fixed](repeating: (0, 0), count: 16 * 3 + 1)
        arc[0] = p3
        arc[1] = c2
        arc[2] = c1
        arc[3] = p0
        var top = 0, points: [Fixed] = []
        while true {
            let a = arc[top], b = arc[top + 1], c = arc[top + 2], d = arc[top + 3]
            let flat = abs(2 * a.x - 3 * b.x + d.x) <= 128 && abs(2 * a.y - 3 * b.y + d.y) <= 128
                && abs(a.x - 3 * c.x + 2 * d.x) <= 128 && abs(a.y - 3 * c.y + 2 * d.y) <= 128
            if flat || top + 6 >= arc.count {
                points.append(a)
                if top == 0 { return points }
                top -= 3
            } else {
                split(&arc, at: top)
                top += 3
            }
        }
    }

    /// gray_split_cubic: de Casteljau at t = 1/2 with FreeType's arithmetic shifts.
    static func split(_ arc: inout [Fixed], at base: Int) {
        func axis(_ get: (Fixed) -> Int) -> [Int] {
            let p = (0...3).map { get(arc[base + $0]) }
            var a = p[0] + p[1], c = p[2] + p[3]
            let b = p[1] + p[2]
            let five = c >> 1
            c += b
            let four = c >> 2, one = a >> 1
            a += b
            return [p[0], one, a >> 2, (a + c) >> 3, four, five, p[3]]
        }
        let xs = axis { $0.x }, ys = axis { $0.y }
        for i in 0...6 { arc[base + i] = (xs[i], ys[i]) }
    }
}
