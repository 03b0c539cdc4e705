import Foundation
import Testing
@testable import Throbber

/// SPEC §9 "Lengths, dashes and trims": lengths on the flattening, cuts at exact curve
/// parameters, and the parts a trim keeps.
struct PathTrimTests {
    static func polyline(_ points: [(Double, Double)], closed: Bool = false) -> Subpath {
        let p = points.map { PathPoint($0.0, $0.1) }
        return Subpath(start: p[0], segments: p.dropFirst().map { .line(to: $0) }, closed: closed)
    }

    static func length(_ path: PathGeometry) -> Double {
        path.subpaths.reduce(0) { $0 + PathMeasure.length(PathMeasure.curves($1)) }
    }

    /// Whether the paths have the same subpaths to 1e-9 px.
    static func same(_ a: PathGeometry, _ b: PathGeometry) -> Bool {
        func near(_ p: PathPoint, _ q: PathPoint) -> Bool { (p - q).length < 1e-9 }
        guard a.subpaths.count == b.subpaths.count else { return false }
        return zip(a.subpaths, b.subpaths).allSatisfy { s, t in
            s.closed == t.closed && near(s.start, t.start) && s.segments.count == t.segments.count
                && zip(s.segments, t.segments).allSatisfy { u, v in
                    switch (u, v) {
                    case let (.line(p), .line(q)): near(p, q)
                    case let (.cubic(p1, p2, p3), .cubic(q1, q2, q3)): near(p1, q1) && near(p2, q2) && near(p3, q3)
                    default: false
                    }
                }
        }
    }

    static let square = polyline([(0, 0), (10, 0), (10, 10), (0, 10)], closed: true)

    @Test func aLineKeepsItsPart() {
        let path = PathGeometry(subpaths: [Self.polyline([(0, 0), (10, 0)])])
        let kept = PathTrimming.trimmed(path, PathTrim(start: 0.2, end: 0.7))
        #expect(Self.same(kept, PathGeometry(subpaths: [Self.polyline([(2, 0), (7, 0)])])))
    }

    /// An offset past the end wraps: two pieces of an open path, in path order.
    @Test func wrapAround() {
        let path = PathGeometry(subpaths: [Self.polyline([(0, 0), (10, 0)])])
        let kept = PathTrimming.trimmed(path, PathTrim(start: 0, end: 0.3, offset: 0.8))
        #expect(kept.subpaths.count == 2)
        #expect(abs(Self.length(kept) - 3) < 1e-12)
        #expect(Self.same(kept, PathGeometry(subpaths: [Self.polyline([(0, 0), (1, 0)]), Self.polyline([(8, 0), (10, 0)])])))
        // Negative offsets too.
        #expect(Self.same(PathTrimming.trimmed(path, PathTrim(start: 0, end: 0.3, offset: -0.2)), kept))
    }

    @Test func everythingOrNothing() {
        let path = PathGeometry(subpaths: [Self.square, Self.polyline([(20, 0), (30, 5)])])
        #expect(PathTrimming.trimmed(path, PathTrim(start: 0, end: 1)) == path)
        #expect(PathTrimming.trimmed(path, PathTrim(start: -0.25, end: 0.8, offset: 0.3)) == path)
        #expect(PathTrimming.trimmed(path, PathTrim(start: 0.5, end: 0.5)).subpaths.isEmpty)
        #expect(PathTrimming.trimmed(path, PathTrim(start: 0.6, end: 0.2)).subpaths.isEmpty)
    }

    /// A closed square kept through its start point is one open piece joined there.
    @Test func closedThroughItsStart() {
        let kept = PathTrimming.trimmed(PathGeometry(subpaths: [Self.square]), PathTrim(start: 0.9, end: 1.1))
        #expect(Self.same(kept, PathGeometry(subpaths: [Self.polyline([(0, 4), (0, 0), (4, 0)])])))
        // Stroked with a miter, the corner at the start is joined: its outer point is covered.
        let polygons = PathStroker.polygons(kept, style: StrokeStyle(width: 2, join: .miter)).map { $0.map { PathPoint($0.x + 2, $0.y + 2) } }
        let area = PathCoverage.signedArea(polygons, width: 8, height: 8)
        #expect(abs(PathCoverage.coverage(area[0 * 8 + 0], rule: .nonzero) - 0) < 1e-9)
        #expect(abs(PathCoverage.coverage(area[1 * 8 + 1], rule: .nonzero) - 1) < 1e-9)
    }

    /// A closed subpath kept whole stays closed; the range runs on into the next subpath.
    @Test func severalSubpaths() {
        let open = Self.polyline([(20, 0), (30, 0)])
        let path = PathGeometry(subpaths: [Self.square, open])
        let kept = PathTrimming.trimmed(path, PathTrim(start: 0, end: 0.9))
        #expect(Self.same(kept, PathGeometry(subpaths: [Self.square, Self.polyline([(20, 0), (25, 0)])])))
        let middle = PathTrimming.trimmed(path, PathTrim(start: 0.5, end: 0.9))
        #expect(Self.same(middle, PathGeometry(subpaths: [Self.polyline([(5, 10), (0, 10), (0, 0)]), Self.polyline([(20, 0), (25, 0)])])))
    }

    @Test func zeroLengthSubpathsInsideTheRangeStay() {
        let dot = Subpath(start: PathPoint(10, 0), closed: true)
        let path = PathGeometry(subpaths: [Self.polyline([(0, 0), (10, 0)]), dot, Self.polyline([(10, 0), (20, 0)])])
        #expect(PathTrimming.trimmed(path, PathTrim(start: 0.25, end: 0.75)).subpaths.contains(dot))
        #expect(!PathTrimming.trimmed(path, PathTrim(start: 0.6, end: 0.75)).subpaths.contains(dot))
    }

    /// Random cubics: the kept length is (b − a)·L, the cuts lie on the curve at B(t), and the
    /// pieces meet where they were cut.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func keptLength(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        func point() -> PathPoint { PathPoint(random.nextUnit() * 40, random.nextUnit() * 40) }
        var current = point()
        var subpath = Subpath(start: current)
        for _ in 0..<3 {
            let segment = PathSegment.cubic(point(), point(), to: point())
            subpath.segments.append(segment)
            current = segment.end
        }
        let path = PathGeometry(subpaths: [subpath])
        let total = Self.length(path)
        let s = random.nextUnit(), e = random.nextUnit(), o = random.nextUnit() * 4 - 2
        let trim = PathTrim(start: min(s, e), end: max(s, e), offset: o)
        let kept = PathTrimming.trimmed(path, trim)
        #expect(abs(Self.length(kept) - (max(s, e) - min(s, e)) * total) < 1e-3 * total)
        // A curve's piece is its exact part: its midpoint lies on the original cubic.
        let curves = PathMeasure.curves(subpath)
        let part = curves[1].part(0.3, 0.7)
        let mid = part.point(at: 0.5), expected = curves[1].point(at: 0.5)
        #expect((mid - expected).length < 1e-9)
    }

    /// A cut lies on its chord at the same fraction, at the curve parameter of that fraction of
    /// the chord's interval.
    @Test func cutsMapToTheChordsParameters() {
        let curve = PathCurve(PathPoint(0, 0), PathPoint(0, 30), PathPoint(40, 30), PathPoint(40, 0))
        let n = curve.chordCount
        let a = curve.point(at: 2 / Double(n)), b = curve.point(at: 3 / Double(n))
        var before = 0.0, previous = curve.p0
        for k in 1...2 {
            let p = curve.point(at: Double(k) / Double(n))
            before += (p - previous).length
            previous = p
        }
        let location = PathMeasure.locate([before + 0.25 * (b - a).length], in: [curve])[0]
        #expect(location.index == 0)
        #expect(abs(location.t - 2.25 / Double(n)) < 1e-12)
    }

    /// Dashes come after the trim and start again at each piece it kept.
    @Test func dashesRestartAtEachKeptPiece() {
        let path = PathGeometry(subpaths: [Self.polyline([(0, 0), (10, 0)])])
        let kept = PathTrimming.trimmed(path, PathTrim(start: 0.05, end: 0.35, offset: 0.8))
        // Pieces [0, 1.5] and [8.5, 10]; a pattern [1, 1] is on at the start of each.
        let starts = kept.subpaths.flatMap { subpath in
            PathDashing.dashes(PathMeasure.curves(subpath), style: StrokeStyle(width: 1, dash: [1, 1])).compactMap { dash -> Double? in
                if case .piece(let piece) = dash { return (piece[0].p0.x * 1e9).rounded() / 1e9 } else { return nil }
            }
        }
        #expect(starts == [0, 8.5])
    }
}
