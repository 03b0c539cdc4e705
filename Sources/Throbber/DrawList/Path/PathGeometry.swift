import Foundation

/// A point of a path, in the path's own units (points in a scene, pixels once transformed).
public struct PathPoint: Sendable, Hashable {
    public var x: Double
    public var y: Double

    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    public static func + (a: PathPoint, b: PathPoint) -> PathPoint { PathPoint(a.x + b.x, a.y + b.y) }
    public static func - (a: PathPoint, b: PathPoint) -> PathPoint { PathPoint(a.x - b.x, a.y - b.y) }
    public static func * (k: Double, a: PathPoint) -> PathPoint { PathPoint(k * a.x, k * a.y) }
    public var length: Double { (x * x + y * y).squareRoot() }
}

/// One segment of a subpath, from the point before it (SPEC §9 "Geometry").
public enum PathSegment: Sendable, Hashable {
    case line(to: PathPoint)
    case cubic(PathPoint, PathPoint, to: PathPoint)

    /// Where the segment ends.
    public var end: PathPoint {
        switch self {
        case .line(let p), .cubic(_, _, let p): p
        }
    }
}

/// A start point and its segments, open or closed; a subpath with no segment is a lone move
/// (it draws nothing) unless it is closed (a zero-length subpath: a dot where a stroke's cap says).
public struct Subpath: Sendable, Hashable {
    public var start: PathPoint
    public var segments: [PathSegment]
    public var closed: Bool

    public init(start: PathPoint, segments: [PathSegment] = [], closed: Bool = false) {
        self.start = start
        self.segments = segments
        self.closed = closed
    }
}

/// A path: subpaths of lines and cubic Béziers (SPEC §9). Quadratics are raised to cubics
/// exactly and SVG's elliptical arcs become cubics of at most 90° as they are added.
public struct PathGeometry: Sendable, Hashable {
    public var subpaths: [Subpath] = []

    public init(subpaths: [Subpath] = []) {
        self.subpaths = subpaths
    }

    /// The path moved by (`x`, `y`): every point, control points included.
    public func translated(x: Double, y: Double) -> PathGeometry {
        let d = PathPoint(x, y)
        return PathGeometry(subpaths: subpaths.map { subpath in
            Subpath(start: subpath.start + d, segments: subpath.segments.map { segment in
                switch segment {
                case .line(let p): .line(to: p + d)
                case let .cubic(c1, c2, p): .cubic(c1 + d, c2 + d, to: p + d)
                }
            }, closed: subpath.closed)
        })
    }

    /// The cubic a quadratic Bézier from `p0` through control `q` to `p1` is, exactly:
    /// c1 = p0 + ⅔(q − p0), c2 = p1 + ⅔(q − p1).
    public static func cubic(quadraticFrom p0: PathPoint, control q: PathPoint, to p1: PathPoint) -> PathSegment {
        .cubic(p0 + (2.0 / 3) * (q - p0), p1 + (2.0 / 3) * (q - p1), to: p1)
    }

    /// SVG's elliptical arc from `p0` to `p1` (SVG 1.1 F.6.5, radii scaled up as F.6.6 says when
    /// too small) as n = ceil(|Δθ| / 90°) cubics of equal angle Δ, handle length 4/3·tan(Δ/4).
    /// Zero radii, or equal end points, are a line (or nothing) as SVG says. Nil when the arc
    /// cannot be worked out in double precision (radii so far apart, or so far from the distance
    /// between the end points, that its centre or angles overflow): a reader refuses such data.
    ///
    /// - Parameter rotation: the ellipse's x-axis rotation in degrees (any finite value).
    public static func arc(from p0: PathPoint, radiusX: Double, radiusY: Double, rotation: Double, largeArc: Bool, sweep: Bool,
                           to p1: PathPoint) -> [PathSegment]? {
        if p0 == p1 { return [] }
        var rx = abs(radiusX), ry = abs(radiusY)
        if rx == 0 || ry == 0 { return [.line(to: p1)] }
        guard rotation.isFinite, rx.isFinite, ry.isFinite else { return nil }
        // Whole turns first: 1e308 degrees times π would overflow.
        let phi = rotation.truncatingRemainder(dividingBy: 360) * Double.pi / 180
        let (cosPhi, sinPhi) = (cos(phi), sin(phi))
        // F.6.5.1: the midpoint in the ellipse's axes.
        let dx = (p0.x - p1.x) / 2, dy = (p0.y - p1.y) / 2
        let x1 = cosPhi * dx + sinPhi * dy
        let y1 = -sinPhi * dx + cosPhi * dy
        // F.6.6: radii too small for the end points are scaled up.
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 {
            let k = lambda.squareRoot()
            rx *= k
            ry *= k
        }
        // F.6.5.2: the centre in the ellipse's axes.
        let numerator = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        let denominator = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var factor = denominator == 0 ? 0 : (max(0, numerator) / denominator).squareRoot()
        if largeArc == sweep { factor = -factor }
        let cx1 = factor * rx * y1 / ry
        let cy1 = -factor * ry * x1 / rx
        // F.6.5.3: the centre, and the start angle and sweep.
        let cx = cosPhi * cx1 - sinPhi * cy1 + (p0.x + p1.x) / 2
        let cy = sinPhi * cx1 + cosPhi * cy1 + (p0.y + p1.y) / 2
        func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double {
            let a = atan2(ux * vy - uy * vx, ux * vx + uy * vy)
            return a
        }
        let theta1 = angle(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry)
        var delta = angle((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry)
        guard theta1.isFinite, delta.isFinite, rx.isFinite, ry.isFinite, cx.isFinite, cy.isFinite else { return nil }
        if !sweep && delta > 0 { delta -= 2 * Double.pi } else if sweep && delta < 0 { delta += 2 * Double.pi }
        let n = max(1, Int((abs(delta) / (Double.pi / 2) - 1e-12).rounded(.up)))
        let step = delta / Double(n)
        let handle = 4.0 / 3 * tan(step / 4)
        // A point and its derivative direction on the ellipse at angle a, in the path's axes.
        func point(_ a: Double) -> PathPoint {
            PathPoint(cx + rx * cos(a) * cosPhi - ry * sin(a) * sinPhi, cy + rx * cos(a) * sinPhi + ry * sin(a) * cosPhi)
        }
        func tangent(_ a: Double) -> PathPoint {
            PathPoint(-rx * sin(a) * cosPhi - ry * cos(a) * sinPhi, -rx * sin(a) * sinPhi + ry * cos(a) * cosPhi)
        }
        var segments: [PathSegment] = []
        for k in 0..<n {
            let a0 = theta1 + Double(k) * step, a1 = theta1 + Double(k + 1) * step
            let q0 = point(a0), q1 = k == n - 1 ? p1 : point(a1)
            let c1 = q0 + handle * tangent(a0), c2 = q1 - handle * tangent(a1)
            guard c1.x.isFinite, c1.y.isFinite, c2.x.isFinite, c2.y.isFinite, q1.x.isFinite, q1.y.isFinite else { return nil }
            segments.append(.cubic(c1, c2, to: q1))
        }
        return segments
    }
}
