import Foundation
import Testing
@testable import Throbber

/// SPEC §9's geometry, flattening and fill coverage, against its check values and against a
/// brute-force integration of the winding number.
struct PathCoverageTests {
    static func square(_ x: Double, _ y: Double, _ side: Double, clockwise: Bool = true) -> Subpath {
        let corners = clockwise ? [(x + side, y), (x + side, y + side), (x, y + side)] : [(x, y + side), (x + side, y + side), (x + side, y)]
        return Subpath(start: PathPoint(x, y), segments: corners.map { .line(to: PathPoint($0.0, $0.1)) }, closed: true)
    }

    static func coverage(_ path: PathGeometry, width: Int = 3, height: Int = 3, rule: PathCoverage.FillRule = .nonzero) -> [Double] {
        PathCoverage.signedArea(PathFlattening.polygons(path), width: width, height: height).map { PathCoverage.coverage($0, rule: rule) }
    }

    @Test func theSpecsCheckValues() {
        // M 0.25 0.25 h 1 v 1 h −1 z: pixel (0, 0) is 0.5625.
        #expect(abs(Self.coverage(PathGeometry(subpaths: [Self.square(0.25, 0.25, 1)]))[0] - 0.5625) < 1e-12)
        // M 0 0 L 1 0 L 0 1 z: 0.5.
        let triangle = Subpath(start: PathPoint(0, 0), segments: [.line(to: PathPoint(1, 0)), .line(to: PathPoint(0, 1))], closed: true)
        #expect(abs(Self.coverage(PathGeometry(subpaths: [triangle]))[0] - 0.5) < 1e-12)
        // Two coincident unit squares: 1 nonzero, 0 evenodd.
        let twice = PathGeometry(subpaths: [Self.square(0, 0, 1), Self.square(0, 0, 1)])
        #expect(Self.coverage(twice)[0] == 1)
        #expect(Self.coverage(twice, rule: .evenodd)[0] == 0)
    }

    /// A hole wound the other way is empty under both rules; wound the same way, only evenodd
    /// leaves it empty.
    @Test func holes() {
        for clockwise in [true, false] {
            let path = PathGeometry(subpaths: [Self.square(0, 0, 3), Self.square(1, 1, 1, clockwise: clockwise)])
            #expect(Self.coverage(path)[4] == (clockwise ? 1 : 0))
            #expect(Self.coverage(path, rule: .evenodd)[4] == 0)
            #expect(Self.coverage(path)[0] == 1)
        }
    }

    /// Random polygons, including parts off the grid: every pixel's accumulated area equals the
    /// winding number integrated on a fine grid of samples (to the sampling's error).
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func randomPolygonsMatchTheIntegratedWindingNumber(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let width = 6, height = 5
        let polygon = (0..<Int(3 + random.next() % 6)).map { _ in
            PathPoint(random.nextUnit() * 9 - 1.5, random.nextUnit() * 8 - 1.5)
        }
        let area = PathCoverage.signedArea([polygon], width: width, height: height)
        func winding(_ x: Double, _ y: Double) -> Int {
            var w = 0
            for k in polygon.indices {
                let a = polygon[k], b = polygon[(k + 1) % polygon.count]
                guard (a.y <= y) != (b.y <= y) else { continue }
                let xAt = a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x)
                if xAt < x { w += b.y > a.y ? 1 : -1 }
            }
            return w
        }
        let samples = 64
        for j in 0..<height {
            for i in 0..<width {
                var sum = 0
                for sy in 0..<samples {
                    for sx in 0..<samples {
                        sum += winding(Double(i) + (Double(sx) + 0.5) / Double(samples), Double(j) + (Double(sy) + 0.5) / Double(samples))
                    }
                }
                let sampled = Double(sum) / Double(samples * samples)
                #expect(abs(area[j * width + i] - sampled) < 0.05, "seed \(seed) pixel (\(i), \(j)): \(area[j * width + i]) vs \(sampled)")
            }
        }
    }

    /// SPEC §9's chord count, and the chords within ε of the curve.
    @Test func flatteningStaysWithinEpsilon() {
        let p0 = PathPoint(0, 0), p1 = PathPoint(10, 40), p2 = PathPoint(50, -20), p3 = PathPoint(60, 10)
        let l = max((p0 - 2 * p1 + p2).length, (p1 - 2 * p2 + p3).length)
        let n = PathFlattening.chordCount(p0, p1, p2, p3)
        #expect(n == max(1, Int((0.75 * l * 256).squareRoot().rounded(.up))))
        let polygon = PathFlattening.polygons(PathGeometry(subpaths: [Subpath(start: p0, segments: [.cubic(p1, p2, to: p3)])]))[0]
        #expect(polygon.count == n + 1)
        for k in 0..<n {
            let a = polygon[k], b = polygon[k + 1]
            for s in 1..<8 {
                let t = (Double(k) + Double(s) / 8) / Double(n)
                let c = PathFlattening.point(p0, p1, p2, p3, at: t)
                let chord = b - a
                let u = max(0, min(1, ((c.x - a.x) * chord.x + (c.y - a.y) * chord.y) / (chord.x * chord.x + chord.y * chord.y)))
                let distance = (c - (a + u * chord)).length
                #expect(distance <= PathFlattening.epsilon * 1.0001, "t = \(t): \(distance)")
            }
        }
    }

    /// An SVG arc becomes cubics of at most 90° whose points lie on the circle (the large,
    /// clockwise arc from (10, 0) to (0, 10) turns 270° about (10, 10); within the
    /// cubic approximation's 2.7e-4 of the radius).
    @Test func arcsBecomeQuarterCubicsOnTheCircle() {
        let segments = PathGeometry.arc(from: PathPoint(10, 0), radiusX: 10, radiusY: 10, rotation: 0, largeArc: true, sweep: true,
                                        to: PathPoint(0, 10))!
        #expect(segments.count == 3)
        var current = PathPoint(10, 0)
        for segment in segments {
            guard case let .cubic(c1, c2, end) = segment else { Issue.record("not a cubic"); return }
            for t in stride(from: 0.0, through: 1, by: 0.125) {
                let p = PathFlattening.point(current, c1, c2, end, at: t)
                #expect(abs((p - PathPoint(10, 10)).length - 10) < 10 * 2.8e-4, "\(p)")
            }
            current = end
        }
        #expect(current == PathPoint(0, 10))
    }
}
