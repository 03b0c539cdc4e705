import Foundation

/// A path's segments as line chords (SPEC §9 "Flattening"): a cubic p0…p3 becomes n chords at
/// uniform parameter steps t = k/n, n = max(1, ceil(sqrt(0.75·L / ε))) with
/// L = max(|p0 − 2p1 + p2|, |p1 − 2p2 + p3|) in px and ε = 1/256 px, so the chords lie within ε
/// of the curve. Done once, on the CPU; both renderers receive the same chords.
public enum PathFlattening {
    /// The flattening tolerance in px.
    public static let epsilon = 1.0 / 256

    /// How many chords the cubic p0…p3 (in px) becomes.
    public static func chordCount(_ p0: PathPoint, _ p1: PathPoint, _ p2: PathPoint, _ p3: PathPoint, epsilon: Double = epsilon) -> Int {
        let l = max((p0 - 2 * p1 + p2).length, (p1 - 2 * p2 + p3).length)
        let n = (0.75 * l / epsilon).squareRoot().rounded(.up)
        guard n.isFinite else { return 1 }
        return max(1, Int(min(n, 1e6)))
    }

    /// The point of the cubic p0…p3 at t.
    public static func point(_ p0: PathPoint, _ p1: PathPoint, _ p2: PathPoint, _ p3: PathPoint, at t: Double) -> PathPoint {
        let u = 1 - t
        let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
        return PathPoint(a * p0.x + b * p1.x + c * p2.x + d * p3.x, a * p0.y + b * p1.y + c * p2.y + d * p3.y)
    }

    /// Each subpath as the polygon of its chords: its start point, then each chord's end. A
    /// closed subpath's polygon does not repeat its start; a fill closes every polygon.
    public static func polygons(_ path: PathGeometry, epsilon: Double = epsilon) -> [[PathPoint]] {
        path.subpaths.map { subpath in
            var points = [subpath.start]
            var current = subpath.start
            for segment in subpath.segments {
                switch segment {
                case .line(let p):
                    points.append(p)
                case let .cubic(c1, c2, p):
                    let n = chordCount(current, c1, c2, p, epsilon: epsilon)
                    for k in 1..<n { points.append(point(current, c1, c2, p, at: Double(k) / Double(n))) }
                    points.append(p)
                }
                current = segment.end
            }
            return points
        }
    }
}
