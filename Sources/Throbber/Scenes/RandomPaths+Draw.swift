import Foundation

/// How the `paths` scene draws one random path: a shape of one of seven kinds, a placement, a
/// fill, a stroke, a trim and an opacity, every choice from the scene's generator.
extension PathSpec {
    /// The kinds of random shape, each drawn as often as the others.
    public enum ShapeKind: CaseIterable, Sendable {
        /// One to three subpaths of random lines and cubics: self-intersections everywhere.
        case soup
        /// An outer ring or rectangle with one to three holes, each wound either way.
        case holes
        /// An open zigzag of lines and cubics with sharp and shallow turns: joins and caps.
        case zigzag
        /// A star polygon {n/k}, crossing itself.
        case star
        /// Zero-length subpaths (dots), a lone move, U-turns, coincident and cusped control points.
        case degenerate
        /// SVG arcs of random radii, rotations and flags.
        case arcs
        /// Circles, from far below a pixel to far beyond the canvas.
        case circles
    }

    /// A random path: the draws of `random` alone decide it.
    ///
    /// - Parameters:
    ///   - segments: the most segments of one subpath.
    ///   - strokeWidth: the widest stroke, pt.
    static func random(_ random: inout SplitMix64, segments: Int, strokeWidth: Double) -> PathSpec {
        let kind = ShapeKind.allCases[random.next(below: ShapeKind.allCases.count)]
        let geometry = shape(kind, &random, segments: max(1, segments))
        // Mostly on the canvas, sometimes half off it; tiny to larger than the canvas.
        let center = PathPoint(-0.2 + 1.4 * random.nextUnit(), -0.2 + 1.4 * random.nextUnit())
        let radius = random.chance(0.1) ? 0.002 + 0.01 * random.nextUnit() : 0.05 * pow(24, random.nextUnit())
        let rotation = random.chance(0.3) ? 0 : 2 * Double.pi * random.nextUnit()
        let skew = random.chance(0.6) ? 0 : -1.5 + 3 * random.nextUnit()
        let uneven = random.chance(0.5) ? 1 : 0.25 * pow(16, random.nextUnit())
        var scaleX = 1.0, scaleY = uneven
        if random.chance(0.15) { scaleX = -scaleX }  // mirrored: the transform's determinant < 0
        if random.chance(0.02) { scaleY = 0 }  // singular: no inverse for the gradient, a fill of no area
        let spin = random.chance(0.25) ? (random.chance(0.5) ? 1.0 : -1.0) : 0

        let filled = random.chance(0.65)
        let stroked = !filled || random.chance(0.5)
        let fill = filled ? (rule: random.chance(0.5) ? PathCoverage.FillRule.nonzero : .evenodd, paint: paint(&random)) : nil
        var hairline = false
        var stroke: (style: StrokeStyle, paint: PathPaint)?
        if stroked {
            hairline = random.chance(0.12)
            let width = random.chance(0.05) ? 0 : 0.1 * pow(max(strokeWidth, 0.1) / 0.1, random.nextUnit())
            let join = StrokeJoin.allCases[random.next(below: 3)]
            let cap = StrokeCap.allCases[random.next(below: 3)]
            let limits = [1, 1.01, 1.5, 2, 4, 4, 10, 100]
            let miterLimit = limits[random.next(below: limits.count)]
            var dash: [Double] = []
            var dashOffset = 0.0
            if random.chance(0.35) {
                let n = 1 + random.next(below: 4)
                dash = (0..<n).map { _ in random.chance(0.15) ? 0 : 0.2 * pow(100, random.nextUnit()) }
                if dash.reduce(0, +) <= 0 { dash[0] = 1 }  // SPEC §9: a pattern's sum is > 0
                dashOffset = random.chance(0.3) ? 0 : -40 + 80 * random.nextUnit()
            }
            stroke = (StrokeStyle(width: width, join: join, miterLimit: miterLimit, cap: cap, dash: dash, dashOffset: dashOffset),
                      paint(&random))
        }
        var trim: PathTrim?
        if random.chance(0.3) {
            // Kept parts that wrap through the end (start + offset past 1), empty ones, whole ones.
            let start = random.chance(0.2) ? 0 : random.nextUnit()
            let end = random.chance(0.2) ? 1 : random.nextUnit()
            let offset = random.chance(0.4) ? 0 : -2 + 4 * random.nextUnit()
            trim = PathTrim(start: start, end: end, offset: offset)
        }
        let trimRuns = trim != nil && random.chance(0.5)
        let dashRuns = random.chance(0.5)
        let u = random.nextUnit()
        let opacity = u < 0.5 ? 1 : u < 0.55 ? 0 : (random.nextUnit() * 1000).rounded() / 1000
        return PathSpec(geometry: geometry, center: center, radius: radius, rotation: rotation, skew: skew, scaleX: scaleX,
                        scaleY: scaleY, spin: spin, fill: fill, stroke: stroke, hairline: hairline, dashRuns: dashRuns, trim: trim,
                        trimRuns: trimRuns, opacity: opacity)
    }

    /// A colour with components at 0, at 1 or between, and alpha 0, 1 or translucent.
    static func color(_ random: inout SplitMix64) -> RGBA {
        func component() -> Double {
            let u = random.nextUnit()
            return u < 0.15 ? 0 : u < 0.3 ? 1 : (random.nextUnit() * 1000).rounded() / 1000
        }
        let (r, g, b) = (component(), component(), component())
        let u = random.nextUnit()
        return RGBA(r, g, b, u < 0.1 ? 0 : u < 0.5 ? 1 : Double(1 + random.next(below: 999)) / 1000)
    }

    /// Solid (40 %), linear (25 %), radial (20 %) or focal radial (15 %), in own space; now and
    /// then degenerate (from = to, radius 0), with one to five stops, some sharing an offset.
    static func paint(_ random: inout SplitMix64) -> PathPaint {
        let u = random.nextUnit()
        if u < 0.4 { return .solid(PaintColor(color(&random))) }
        let count = 1 + random.next(below: 5)
        let stops = (0..<count).map { _ in
            GradientStop(offset: random.chance(0.2) ? [0, 0.5, 1][random.next(below: 3)] : random.nextUnit(), color: color(&random))
        }
        func point() -> PathPoint { PathPoint(-1.5 + 3 * random.nextUnit(), -1.5 + 3 * random.nextUnit()) }
        if u < 0.65 {
            let from = point()
            return .linear(from: from, to: random.chance(0.05) ? from : point(), stops: stops)
        }
        let radius = random.chance(0.05) ? 0 : 0.05 * pow(40, random.nextUnit())
        // A highlight beyond ±0.99 is clamped there (SPEC §9).
        let highlight = u < 0.85 ? 0 : random.chance(0.1) ? [-1.5, 0.99, 1.5][random.next(below: 3)] : -0.99 + 1.98 * random.nextUnit()
        return .radial(center: point(), radius: radius, highlight: highlight, angle: -360 + 720 * random.nextUnit(), stops: stops)
    }

    /// A random point in [−1, 1]².
    static func point(_ random: inout SplitMix64) -> PathPoint {
        PathPoint(-1 + 2 * random.nextUnit(), -1 + 2 * random.nextUnit())
    }

    /// A shape of `kind` in own space.
    static func shape(_ kind: ShapeKind, _ random: inout SplitMix64, segments: Int) -> PathGeometry {
        switch kind {
        case .soup:
            return PathGeometry(subpaths: (0...random.next(below: 3)).map { _ in
                var subpath = Subpath(start: point(&random), closed: random.chance(0.6))
                for _ in 0...random.next(below: segments) {
                    subpath.segments.append(random.chance(0.5) ? .line(to: point(&random))
                                            : .cubic(point(&random), point(&random), to: point(&random)))
                }
                return subpath
            })
        case .holes:
            let outer = random.chance(0.5) ? circle(PathPoint(0, 0), 1, clockwise: true)
                : rectangle(PathPoint(-1, -1), PathPoint(1, 1), clockwise: true)
            let holes = (0...random.next(below: 3)).map { _ -> Subpath in
                let c = PathPoint(-0.5 + random.nextUnit(), -0.5 + random.nextUnit())
                let r = 0.1 + 0.35 * random.nextUnit()
                let clockwise = random.chance(0.5)
                return random.chance(0.5) ? circle(c, r, clockwise: clockwise)
                    : rectangle(c - PathPoint(r, r), c + PathPoint(r, r), clockwise: clockwise)
            }
            return PathGeometry(subpaths: [outer] + holes)
        case .zigzag:
            var subpath = Subpath(start: point(&random))
            for _ in 0...random.next(below: segments) {
                let p = point(&random)
                subpath.segments.append(random.chance(0.7) ? .line(to: p) : .cubic(point(&random), point(&random), to: p))
            }
            subpath.closed = random.chance(0.2)
            return PathGeometry(subpaths: [subpath])
        case .star:
            let n = 5 + random.next(below: 8)
            let k = 2 + random.next(below: max(1, (n - 1) / 2 - 1))
            let phase = 2 * Double.pi * random.nextUnit()
            let corners = (0..<n).map { i -> PathPoint in
                let angle = phase + 2 * Double.pi * Double(i * k % n) / Double(n)
                return PathPoint(cos(angle), sin(angle))
            }
            return PathGeometry(subpaths: [Subpath(start: corners[0], segments: corners.dropFirst().map { .line(to: $0) }, closed: true)])
        case .degenerate:
            let p = point(&random), q = point(&random)
            return PathGeometry(subpaths: [
                Subpath(start: p, closed: true),  // M x y Z: a dot under round and square caps
                Subpath(start: q, segments: [.line(to: q)]),  // M x y L x y: the same
                Subpath(start: point(&random)),  // a lone M: nothing
                // A U-turn, a repeated point and a cubic whose controls sit on its ends (a cusp).
                Subpath(start: p, segments: [.line(to: q), .line(to: p), .line(to: p), .cubic(p, q, to: q),
                                             .cubic(q, q, to: point(&random))], closed: random.chance(0.3)),
            ])
        case .arcs:
            var subpath = Subpath(start: point(&random))
            var current = subpath.start
            for _ in 0...random.next(below: min(segments, 6)) {
                let next = point(&random)
                let rx = random.chance(0.1) ? 0 : 0.05 + 1.5 * random.nextUnit()
                subpath.segments += PathGeometry.arc(from: current, radiusX: rx, radiusY: 0.05 + 1.5 * random.nextUnit(),
                                                     rotation: 360 * random.nextUnit(), largeArc: random.chance(0.5),
                                                     sweep: random.chance(0.5), to: next)
                    ?? [.line(to: next)]  // never: radii of 0.05 to 1.55 are far inside double precision
                current = next
            }
            subpath.closed = random.chance(0.5)
            return PathGeometry(subpaths: [subpath])
        case .circles:
            return PathGeometry(subpaths: (0...random.next(below: 3)).map { _ in
                circle(point(&random), 0.01 * pow(200, random.nextUnit()), clockwise: random.chance(0.5))
            })
        }
    }

    /// A closed circle of four cubics (handle 0.5523 of the radius) from its rightmost point,
    /// clockwise on the screen (y down) or not.
    static func circle(_ c: PathPoint, _ r: Double, clockwise: Bool) -> Subpath {
        let k = 0.552_284_749_8 * r
        let s = clockwise ? 1.0 : -1.0
        let points = [PathPoint(r, 0), PathPoint(0, s * r), PathPoint(-r, 0), PathPoint(0, -s * r)]
        var segments: [PathSegment] = []
        for i in 0..<4 {
            let a = points[i], b = points[(i + 1) % 4]
            // The tangent at a is a turned 90° in the direction of travel.
            let ta = PathPoint(-a.y * s, a.x * s), tb = PathPoint(-b.y * s, b.x * s)
            segments.append(.cubic(c + a + (k / r) * ta, c + b - (k / r) * tb, to: c + b))
        }
        return Subpath(start: c + points[0], segments: segments, closed: true)
    }

    /// A closed rectangle between two corners, clockwise on the screen (y down) or not.
    static func rectangle(_ p: PathPoint, _ q: PathPoint, clockwise: Bool) -> Subpath {
        let corners = clockwise ? [PathPoint(q.x, p.y), q, PathPoint(p.x, q.y)] : [PathPoint(p.x, q.y), q, PathPoint(q.x, p.y)]
        return Subpath(start: p, segments: corners.map { .line(to: $0) }, closed: true)
    }
}
