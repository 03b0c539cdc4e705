import Foundation
import Testing
@testable import Throbber

/// SPEC §9 "Strokes" and dashes: ribbons, joins, caps and dots as polygons turning one way,
/// against §9's check values and areas worked out by hand.
struct PathStrokerTests {
    static func line(_ points: [(Double, Double)], closed: Bool = false) -> PathGeometry {
        let p = points.map { PathPoint($0.0, $0.1) }
        return PathGeometry(subpaths: [Subpath(start: p[0], segments: p.dropFirst().map { .line(to: $0) }, closed: closed)])
    }

    /// Coverage (nonzero) of the stroke on a grid moved by (dx, dy) so negative pixels show.
    static func coverage(_ path: PathGeometry, _ style: StrokeStyle, width: Int, height: Int, dx: Double = 2, dy: Double = 2) -> [Double] {
        let polygons = PathStroker.polygons(path, style: style).map { $0.map { PathPoint($0.x + dx, $0.y + dy) } }
        return PathCoverage.signedArea(polygons, width: width, height: height).map { PathCoverage.coverage($0, rule: .nonzero) }
    }

    /// The shoelace areas of the polygons, each.
    static func areas(_ polygons: [[PathPoint]]) -> [Double] {
        polygons.map { polygon in
            polygon.indices.reduce(0) { $0 + PathPoint.cross(polygon[$1], polygon[($1 + 1) % polygon.count]) } / 2
        }
    }

    static func area(_ path: PathGeometry, _ style: StrokeStyle) -> Double {
        let areas = areas(PathStroker.polygons(path, style: style))
        #expect(areas.allSatisfy { $0 > 0 }, "every piece turns the positive way")
        return areas.reduce(0, +)
    }

    @Test func butt() {
        let c = Self.coverage(Self.line([(0, 0.5), (4, 0.5)]), StrokeStyle(width: 1), width: 8, height: 4)
        for j in 0..<4 {
            for i in 0..<8 {
                let expected = j == 2 && (2...5).contains(i) ? 1.0 : 0
                #expect(abs(c[j * 8 + i] - expected) < 1e-9, "pixel (\(i - 2), \(j - 2)): \(c[j * 8 + i])")
            }
        }
    }

    @Test func roundCapsAreTheFlattenedHalfDisc() {
        let c = Self.coverage(Self.line([(0, 0.5), (4, 0.5)]), StrokeStyle(width: 1, cap: .round), width: 8, height: 4)
        #expect(abs(c[2 * 8 + 1] - 0.3895) < 0.004)
        #expect(abs(c[2 * 8 + 6] - 0.3895) < 0.004)
        for i in 2...5 { #expect(abs(c[2 * 8 + i] - 1) < 1e-9) }
        let total: Double = c.reduce(0, +), cap: Double = c[2 * 8 + 1]
        #expect(abs(total - 4 - 2 * cap) < 1e-9)
    }

    @Test func squareCapsReachHalfTheWidthBeyond() {
        let c = Self.coverage(Self.line([(0, 0.5), (4, 0.5)]), StrokeStyle(width: 1, cap: .square), width: 8, height: 4)
        #expect(abs(c[2 * 8 + 1] - 0.5) < 1e-9)
        #expect(abs(c[2 * 8 + 6] - 0.5) < 1e-9)
        #expect(abs(c.reduce(0, +) - 5) < 1e-9)
    }

    /// (0, 0) → (10, 0) → (10, 10), width 2: the union is 39 with butt caps, plus the outer
    /// corner's piece: bevel ½, miter 1 (√2 ≤ limit), round π/4.
    @Test(arguments: [(StrokeJoin.bevel, 4.0, 39.5), (.miter, 4, 40), (.miter, 1.4, 39.5), (.round, 4, 39 + Double.pi / 4)])
    func rightAngleJoins(join: StrokeJoin, limit: Double, expected: Double) {
        let c = Self.coverage(Self.line([(0, 0), (10, 0), (10, 10)]), StrokeStyle(width: 2, join: join, miterLimit: limit), width: 14, height: 14)
        #expect(abs(c.reduce(0, +) - expected) < (join == .round ? 5e-3 : 1e-9), "\(c.reduce(0, +))")
    }

    /// A circle of radius r (four 90° cubics) stroked with width w covers 2πrw.
    @Test(arguments: [(10.0, 1.0), (20, 3), (5, 0.25)])
    func circleRing(radius: Double, width: Double) {
        let circle = PathGeometry.arc(from: PathPoint(radius, 0), radiusX: radius, radiusY: radius, rotation: 0, largeArc: true, sweep: true, to: PathPoint(-radius, 0))
            + PathGeometry.arc(from: PathPoint(-radius, 0), radiusX: radius, radiusY: radius, rotation: 0, largeArc: true, sweep: true, to: PathPoint(radius, 0))
        let path = PathGeometry(subpaths: [Subpath(start: PathPoint(radius, 0), segments: circle, closed: true)])
        let area = Self.area(path, StrokeStyle(width: width, join: .miter))
        #expect(abs(area - 2 * Double.pi * radius * width) < 2e-3 * area, "\(area)")
    }

    @Test func dots() {
        let closed = PathGeometry(subpaths: [Subpath(start: PathPoint(3, 3), closed: true)])
        let open = PathGeometry(subpaths: [Subpath(start: PathPoint(3, 3), segments: [.line(to: PathPoint(3, 3))])])
        let lone = PathGeometry(subpaths: [Subpath(start: PathPoint(3, 3))])
        for path in [closed, open] {
            #expect(abs(Self.area(path, StrokeStyle(width: 2, cap: .round)) - Double.pi) < 0.02)
            let c = Self.coverage(path, StrokeStyle(width: 2, cap: .square), width: 6, height: 6, dx: 0, dy: 0)
            #expect(abs(c.reduce(0, +) - 4) < 1e-9)
            for (i, j) in [(2, 2), (3, 2), (2, 3), (3, 3)] { #expect(abs(c[j * 6 + i] - 1) < 1e-9) }
            #expect(PathStroker.polygons(path, style: StrokeStyle(width: 2)).isEmpty)
        }
        #expect(PathStroker.polygons(lone, style: StrokeStyle(width: 2, cap: .round)).isEmpty)
        #expect(PathStroker.polygons(Self.line([(0, 0), (4, 0)]), style: StrokeStyle(width: 0)).isEmpty)
    }

    /// The "on" length of dashes along a straight line of 20 with [3, 2] is 12 whatever the offset.
    @Test(arguments: [0.0, 1, -1, 6, -13.5, 2.5])
    func dashLengths(offset: Double) {
        let style = StrokeStyle(width: 1, dash: [3, 2], dashOffset: offset)
        #expect(abs(Self.area(Self.line([(0, 0), (20, 0)]), style) - 12) < 1e-9)
    }

    @Test func dashOffsetIsTakenModuloThePattern() {
        func starts(_ offset: Double) -> [Double] {
            let curves = PathMeasure.curves(Self.line([(0, 0), (20, 0)]).subpaths[0])
            return PathDashing.dashes(curves, style: StrokeStyle(width: 1, dash: [3, 2], dashOffset: offset)).compactMap {
                if case .piece(let piece) = $0 { return (piece[0].p0.x * 1e9).rounded() / 1e9 } else { return nil }
            }
        }
        #expect(starts(0) == [0, 5, 10, 15])
        #expect(starts(1) == [0, 4, 9, 14, 19])
        #expect(starts(-1) == [1, 6, 11, 16])
        #expect(starts(-1) == starts(4))
        #expect(starts(11) == starts(1))
    }

    /// Zero-length dashes are dots; square ones turn along the tangent.
    @Test func dashDots() {
        let round = StrokeStyle(width: 2, cap: .round, dash: [0, 5])
        #expect(abs(Self.area(Self.line([(0, 0), (20, 0)]), round) - 5 * Double.pi) < 0.1)
        let square = StrokeStyle(width: 2, cap: .square, dash: [0, 5])
        let polygons = PathStroker.polygons(Self.line([(0, 0), (3, 4)]), style: square)
        // At 0 and at the end (5).
        #expect(polygons.count == 2)
        let p = polygons[0]
        // Its sides are along (0.6, 0.8) and across it.
        let side = p[1] - p[0]
        #expect(abs(abs(PathPoint.cross(side, PathPoint(0.6, 0.8))) * abs(PathPoint.dot(side, PathPoint(0.6, 0.8)))) < 1e-9)
        #expect(abs(Self.areas(polygons)[0] - 4) < 1e-9)
        // A zero-length subpath is a dot only where the pattern is on at 0.
        let dot = PathGeometry(subpaths: [Subpath(start: PathPoint(3, 3), closed: true)])
        #expect(PathStroker.polygons(dot, style: StrokeStyle(width: 2, cap: .square, dash: [2, 2])).count == 1)
        #expect(PathStroker.polygons(dot, style: StrokeStyle(width: 2, cap: .square, dash: [2, 2], dashOffset: 2)).isEmpty)
    }

    /// A dashed circle's on length is the pattern's on fraction of its length.
    @Test func dashedCircle() {
        let r = 20.0
        let arcs = PathGeometry.arc(from: PathPoint(r, 0), radiusX: r, radiusY: r, rotation: 0, largeArc: true, sweep: true, to: PathPoint(-r, 0))
            + PathGeometry.arc(from: PathPoint(-r, 0), radiusX: r, radiusY: r, rotation: 0, largeArc: true, sweep: true, to: PathPoint(r, 0))
        let circle = Subpath(start: PathPoint(r, 0), segments: arcs, closed: true)
        let curves = PathMeasure.curves(circle)
        let length = PathMeasure.length(curves)
        // Ten periods of on 1, off 2, and half an on: 10.5 units on.
        let unit = length / 30.5
        let dashes = PathDashing.dashes(curves, style: StrokeStyle(width: 1, dash: [unit, 2 * unit]))
        #expect(dashes.count == 11)
        let on = dashes.reduce(0.0) { sum, dash in
            if case .piece(let piece) = dash { return sum + PathMeasure.length(piece) } else { return sum }
        }
        #expect(abs(on - 10.5 * unit) < 1e-3)
    }

    /// Random gentle polylines and cubics: the sum of the pieces' areas is w·L, plus the caps,
    /// plus each join's outer piece.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func areasAddUp(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let w = 0.5 + 3 * random.nextUnit(), h = w / 2
        let join = StrokeJoin.allCases[Int(random.next() % 3)], cap = StrokeCap.allCases[Int(random.next() % 3)]
        let limit = 1 + 3 * random.nextUnit()
        var point = PathPoint(0, 0), heading = 0.0
        var curves: [PathCurve] = []
        for _ in 0..<(2 + Int(random.next() % 4)) {
            let length = 10 + 20 * random.nextUnit()
            let direction = PathPoint(cos(heading), sin(heading))
            let end = point + length * direction
            let bend = (random.nextUnit() - 0.5) * 2
            curves.append(random.next() % 2 == 0 ? PathCurve(line: point, end)
                : PathCurve(point, point + (length / 3) * direction + bend * direction.perpendicular,
                            end - (length / 3) * direction - bend * direction.perpendicular, end))
            point = end
            heading += (random.nextUnit() - 0.5) * 2
        }
        var expected = curves.reduce(0) { $0 + w * $1.length }
        for k in 1..<curves.count {
            let a = curves[k - 1].tangent(at: 1)!, b = curves[k].tangent(at: 0)!
            let phi = abs(atan2(PathPoint.cross(a, b), PathPoint.dot(a, b)))
            switch join {
            case .round: expected += h * h * phi / 2
            case .bevel: expected += h * h * sin(phi) / 2
            case .miter: expected += 1 / cos(phi / 2) <= limit ? h * h * tan(phi / 2) : h * h * sin(phi) / 2
            }
        }
        switch cap {
        case .butt: break
        case .square: expected += 2 * h * w
        case .round: expected += Double.pi * h * h
        }
        let path = PathGeometry(subpaths: [Subpath(start: PathPoint(0, 0), segments: curves.map(\.segment))])
        let area = Self.area(path, StrokeStyle(width: w, join: join, miterLimit: limit, cap: cap))
        #expect(abs(area - expected) < 1e-3 * expected + 0.05, "seed \(seed): \(area) vs \(expected)")
    }

    /// Arcs of circles of radius above w/2 (so the stroke never overlaps itself): every pixel's
    /// coverage is the area of the annular sector plus the caps (round: within w/2 of an end;
    /// square: the w/2 × w rectangle beyond it), integrated on 32 × 32 samples.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func arcsMatchTheirSampledStroke(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let c = PathPoint(6, 6), r = 2.5 + 2 * random.nextUnit(), h = 0.2 + 0.8 * random.nextUnit()
        let start = random.nextUnit() * 2 * Double.pi
        let sweep = (0.3 + 4.4 * random.nextUnit()) * (random.next() % 2 == 0 ? 1 : -1)
        let cap = StrokeCap.allCases[Int(seed % 3)]
        func at(_ a: Double) -> PathPoint { c + r * PathPoint(cos(a), sin(a)) }
        let p0 = at(start), pm = at(start + sweep / 2), p1 = at(start + sweep)
        let segments = PathGeometry.arc(from: p0, radiusX: r, radiusY: r, rotation: 0, largeArc: false, sweep: sweep > 0, to: pm)
            + PathGeometry.arc(from: pm, radiusX: r, radiusY: r, rotation: 0, largeArc: false, sweep: sweep > 0, to: p1)
        let path = PathGeometry(subpaths: [Subpath(start: p0, segments: segments)])
        let coverage = Self.coverage(path, StrokeStyle(width: 2 * h, join: .miter, cap: cap), width: 12, height: 12, dx: 0, dy: 0)
        // The end tangents, outward.
        let sign: Double = sweep > 0 ? 1 : -1
        let out0 = -sign * PathPoint(-sin(start), cos(start)), out1 = sign * PathPoint(-sin(start + sweep), cos(start + sweep))
        func inside(_ p: PathPoint) -> Bool {
            let q = p - c
            var angle = (sign * (atan2(q.y, q.x) - start)).truncatingRemainder(dividingBy: 2 * Double.pi)
            if angle < 0 { angle += 2 * Double.pi }
            if angle <= abs(sweep) && abs(q.length - r) <= h { return true }
            for (end, out) in [(p0, out0), (p1, out1)] {
                switch cap {
                case .butt: break
                case .round: if (p - end).length <= h { return true }
                case .square:
                    let u = PathPoint.dot(p - end, out), v = PathPoint.cross(out, p - end)
                    if u >= 0 && u <= h && abs(v) <= h { return true }
                }
            }
            return false
        }
        for j in 0..<12 {
            for i in 0..<12 {
                var hits = 0
                for b in 0..<32 {
                    for a in 0..<32 where inside(PathPoint(Double(i) + (Double(a) + 0.5) / 32, Double(j) + (Double(b) + 0.5) / 32)) { hits += 1 }
                }
                let sampled = Double(hits) / 1024
                #expect(abs(coverage[j * 12 + i] - sampled) < 0.04, "pixel (\(i), \(j)): expected \(sampled), observed \(coverage[j * 12 + i])")
            }
        }
    }

    /// A circle of radius 0.5 stroked 3 wide: every normal segment runs through the centre, so
    /// consecutive ones cross there and each quadrilateral is its two lobes; the stroke is the
    /// disc of radius 2 (counted twice within 1 of the centre, which only full pixels see).
    @Test func lobesOfATightTurn() {
        let r = 0.5, c = PathPoint(6, 6)
        let arcs = PathGeometry.arc(from: PathPoint(6.5, 6), radiusX: r, radiusY: r, rotation: 0, largeArc: true, sweep: true, to: PathPoint(5.5, 6))
            + PathGeometry.arc(from: PathPoint(5.5, 6), radiusX: r, radiusY: r, rotation: 0, largeArc: true, sweep: true, to: PathPoint(6.5, 6))
        let path = PathGeometry(subpaths: [Subpath(start: PathPoint(6.5, 6), segments: arcs, closed: true)])
        _ = Self.area(path, StrokeStyle(width: 3))
        let coverage = Self.coverage(path, StrokeStyle(width: 3), width: 12, height: 12, dx: 0, dy: 0)
        for j in 3..<9 {
            for i in 3..<9 {
                var hits = 0
                for b in 0..<32 {
                    for a in 0..<32 where (PathPoint(Double(i) + (Double(a) + 0.5) / 32, Double(j) + (Double(b) + 0.5) / 32) - c).length <= 2 { hits += 1 }
                }
                let sampled = Double(hits) / 1024
                #expect(abs(coverage[j * 12 + i] - sampled) < 0.04, "pixel (\(i), \(j)): expected \(sampled), observed \(coverage[j * 12 + i])")
            }
        }
    }

    /// Segments the same way meet with no join; a U-turn is not smooth: round gives the half
    /// disc ahead, miter falls back to the bevel, which has no area there.
    @Test func smoothJunctionsAndUTurns() {
        let straight = Self.line([(0, 0), (5, 0), (10, 0)])
        for join in StrokeJoin.allCases {
            #expect(PathStroker.polygons(straight, style: StrokeStyle(width: 2, join: join)).count == 2)
        }
        let back = Self.line([(0, 0), (10, 0), (5, 0)])
        #expect(abs(Self.area(back, StrokeStyle(width: 2, join: .miter)) - 30) < 1e-9)
        #expect(abs(Self.area(back, StrokeStyle(width: 2, join: .round)) - 30 - Double.pi / 2) < 0.01)
        // The half disc lies ahead of the turning point.
        let polygons = PathStroker.polygons(back, style: StrokeStyle(width: 2, join: .round))
        #expect(polygons.flatMap { $0 }.map(\.x).max()! > 10.99)
    }

    /// A closed square dashed by one dash longer than it: an open piece from its start, so the
    /// start corner has no join (butt ends meet there) while the other corners do.
    @Test func closedSubpathsAreDashedFromTheirStartUnjoined() {
        let square = Self.line([(2, 2), (12, 2), (12, 12), (2, 12)], closed: true)
        let c = Self.coverage(square, StrokeStyle(width: 2, join: .miter, dash: [40, 1]), width: 14, height: 14, dx: 0, dy: 0)
        #expect(abs(c[1 * 14 + 1]) < 1e-9)
        #expect(abs(c[1 * 14 + 12] - 1) < 1e-9)
        #expect(abs(c[12 * 14 + 12] - 1) < 1e-9)
        let solid = Self.coverage(square, StrokeStyle(width: 2, join: .miter), width: 14, height: 14, dx: 0, dy: 0)
        #expect(abs(solid[1 * 14 + 1] - 1) < 1e-9)
    }

    /// Hostile sizes stay bounded: a pattern far finer than the path stops at the piece limit,
    /// and a cusp under a huge width bisects at most 16 levels.
    @Test func hostileSizesStayBounded() {
        let long = PathMeasure.curves(Self.line([(0, 0), (1e6, 0)]).subpaths[0])
        #expect(PathDashing.dashes(long, style: StrokeStyle(width: 1, dash: [1e-3, 1e-3])).count == PathDashing.pieceLimit)
        let cusp = PathGeometry(subpaths: [Subpath(start: PathPoint(0, 0), segments: [.cubic(PathPoint(10, 10), PathPoint(0, 10), to: PathPoint(10, 0))])])
        for width in [1e-6, 1.0, 1e5] {
            let polygons = PathStroker.polygons(cusp, style: StrokeStyle(width: width, cap: .round))
            #expect(!polygons.isEmpty && polygons.count < 100_000)
            #expect(Self.areas(polygons).allSatisfy { $0 > 0 && $0.isFinite })
        }
    }
}
