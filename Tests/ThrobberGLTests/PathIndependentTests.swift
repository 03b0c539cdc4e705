import Foundation
import Testing
import Throbber
import ThrobberCPU
@testable import ThrobberGL
import ThrobberTestSupport

/// Both renderers' fills against an implementation of SPEC §9's coverage written another way:
/// each closed polygon clipped to each pixel's square (Sutherland–Hodgman, one half-plane at a
/// time, which keeps the winding number of every point inside the square) and its signed area
/// taken by the shoelace formula. That sum over the polygons is A(i, j) by definition — no chord
/// accumulation, no prefix sums, nothing shared with `PathCoverage` or the rows but the
/// flattening, which §9 fixes. Every pixel within 2/255.
///
/// Serialized: a GL context is current on the thread that made it.
@Suite(.serialized, .enabled(if: GLAvailability.osmesa.available, Comment(rawValue: GLAvailability.osmesa.reason)))
struct PathIndependentTests {
    /// The part of `polygon` on the side of the line x·nx + y·ny ≤ c (one Sutherland–Hodgman pass).
    static func clip(_ polygon: [PathPoint], nx: Double, ny: Double, c: Double) -> [PathPoint] {
        guard let last = polygon.last else { return [] }
        var out: [PathPoint] = []
        var previous = last
        var previousInside = previous.x * nx + previous.y * ny <= c
        for point in polygon {
            let inside = point.x * nx + point.y * ny <= c
            if inside != previousInside {
                let dp = previous.x * nx + previous.y * ny - c, dq = point.x * nx + point.y * ny - c
                let s = dp / (dp - dq)
                out.append(PathPoint(previous.x + s * (point.x - previous.x), previous.y + s * (point.y - previous.y)))
            }
            if inside { out.append(point) }
            previous = point
            previousInside = inside
        }
        return out
    }

    /// Signed area, positive for a polygon turning clockwise on the image (y down), as a chord
    /// going down on the right counts +1 in SPEC §9.
    static func shoelace(_ polygon: [PathPoint]) -> Double {
        var sum = 0.0
        for k in polygon.indices {
            let a = polygon[k], b = polygon[(k + 1) % polygon.count]
            sum += a.x * b.y - b.x * a.y
        }
        return sum / 2
    }

    /// A(i, j) of `polygons`, pixel by pixel, by clipping.
    static func clippedArea(_ polygons: [[PathPoint]], i: Int, j: Int) -> Double {
        let x0 = Double(i), y0 = Double(j)
        return polygons.reduce(0) { sum, polygon in
            var p = clip(polygon, nx: -1, ny: 0, c: -x0)
            p = clip(p, nx: 1, ny: 0, c: x0 + 1)
            p = clip(p, nx: 0, ny: -1, c: -y0)
            p = clip(p, nx: 0, ny: 1, c: y0 + 1)
            return sum + (p.count >= 3 ? shoelace(p) : 0)
        }
    }

    /// Random closed paths: stars that cross themselves, rings with holes turning either way, and
    /// closed runs of random cubics, on a small canvas and partly off it.
    static func randomGeometry(_ generator: inout SplitMix64, size: Double) -> PathGeometry {
        func point() -> PathPoint { PathPoint(generator.next(in: -0.2 * size...1.2 * size), generator.next(in: -0.2 * size...1.2 * size)) }
        switch Int(generator.next(in: 0...2.999)) {
        case 0:
            let centre = point(), spikes = 5 + Int(generator.next(in: 0...6)), radius = generator.next(in: 2...size / 2)
            // A star drawn point to point k apart crosses itself (k = 2 for odd counts).
            let step = spikes % 2 == 1 ? 2 : 1
            let points = (0..<spikes).map { k -> PathPoint in
                let angle = Double(k * step) * 2 * Double.pi / Double(spikes)
                return PathPoint(centre.x + radius * cos(angle), centre.y + radius * sin(angle))
            }
            return PathGeometry(subpaths: [Subpath(start: points[0], segments: points.dropFirst().map { .line(to: $0) }, closed: true)])
        case 1:
            let centre = point(), outer = generator.next(in: 3...size / 2), inner = outer * generator.next(in: 0.2...0.8)
            let reversed = generator.next(in: 0...1) < 0.5
            func ring(_ r: Double, backwards: Bool) -> Subpath {
                let n = 24
                let points = (0..<n).map { k -> PathPoint in
                    let angle = (backwards ? -1.0 : 1.0) * Double(k) * 2 * Double.pi / Double(n)
                    return PathPoint(centre.x + r * cos(angle), centre.y + r * sin(angle))
                }
                return Subpath(start: points[0], segments: points.dropFirst().map { .line(to: $0) }, closed: true)
            }
            return PathGeometry(subpaths: [ring(outer, backwards: false), ring(inner, backwards: reversed)])
        default:
            let start = point()
            let segments = (0..<(2 + Int(generator.next(in: 0...5)))).map { _ in PathSegment.cubic(point(), point(), to: point()) }
            return PathGeometry(subpaths: [Subpath(start: start, segments: segments, closed: true)])
        }
    }

    @Test func fillsMatchClippedAreasInBothRenderers() throws {
        var generator = SplitMix64(seed: 48)
        let size = 24
        let cpu = CPURenderer()
        let gl = try GLRenderer()
        var worst = 0
        for round in 0..<60 {
            let geometry = Self.randomGeometry(&generator, size: Double(size))
            let rule: PathCoverage.FillRule = round % 2 == 0 ? .nonzero : .evenodd
            let path = Path(geometry, role: .fill(rule), paint: .solid(PaintColor(RGBA(0, 0, 0, 1))), width: size, height: size)
            let list = DrawList(width: size, height: size, background: PaintColor(RGBA(1, 1, 1, 1)),
                                items: [DrawItem("path", path)])
            let polygons = PathFlattening.polygons(geometry)
            for image in [cpu.render(list), try gl.render(list)] {
                for j in 0..<size {
                    for i in 0..<size {
                        let area = Self.clippedArea(polygons, i: i, j: j)
                        let expected = Int((255 * (1 - PathCoverage.coverage(area, rule: rule))).rounded())
                        let difference = abs(Int(image[i, j].r) - expected)
                        worst = max(worst, difference)
                        #expect(difference <= 2, "round \(round) (\(rule)) pixel (\(i), \(j)): \(image[i, j].r), clipped area says \(expected)")
                    }
                }
            }
        }
        #expect(worst <= 2)
    }
}
