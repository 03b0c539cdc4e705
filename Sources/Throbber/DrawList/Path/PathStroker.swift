import Foundation

/// SPEC §9 "Strokes": the pieces of a stroke, as closed polygons in px turning the same way.
///
/// Every piece — each ribbon quadrilateral between consecutive normal samples (or its two lobes
/// where it crosses itself), each join, each cap, each dot — is its own polygon with a positive
/// shoelace area (x right, y down), so a `nonzero` fill of all of them covers their union, and
/// where pieces do not overlap their areas add up to the union's exactly. Dashes (the style's
/// pattern) cut each subpath first (`PathDashing`).
public enum PathStroker {
    /// The stroke of `path` (px) with `style` (px) as closed polygons, each turning the same way.
    ///
    /// A width of 0 or less (or not finite) strokes nothing.
    public static func polygons(_ path: PathGeometry, style: StrokeStyle) -> [[PathPoint]] {
        guard style.width > 0, style.width.isFinite else { return [] }
        var output = Output(halfWidth: style.width / 2)
        for subpath in path.subpaths {
            let curves = PathMeasure.curves(subpath)
            if curves.isEmpty {
                // SPEC §9: `M x y Z` and `M x y L x y` are dots; a lone `M` is nothing.
                guard subpath.closed || !subpath.segments.isEmpty else { continue }
                if PathDashing.isDashed(style) && !PathDashing.startsOn(style) { continue }
                output.dot(at: subpath.start, along: nil, cap: style.cap)
                continue
            }
            if PathDashing.isDashed(style) {
                for dash in PathDashing.dashes(curves, style: style) {
                    switch dash {
                    case .piece(let piece): stroke(piece, closed: false, style: style, into: &output)
                    case let .dot(point, tangent): output.dot(at: point, along: tangent, cap: style.cap)
                    }
                }
            } else {
                stroke(curves, closed: subpath.closed, style: style, into: &output)
            }
        }
        return output.polygons
    }

    /// Ribbons, joins and (open) caps of one run of curves without zero-length ones.
    static func stroke(_ curves: [PathCurve], closed: Bool, style: StrokeStyle, into output: inout Output) {
        guard let first = curves.first, let last = curves.last else { return }
        for (k, curve) in curves.enumerated() {
            output.ribbon(curve)
            if k + 1 < curves.count {
                output.join(at: curve.p3, curve.tangent(at: 1), curves[k + 1].tangent(at: 0), style: style)
            }
        }
        if closed {
            output.join(at: first.p0, last.tangent(at: 1), first.tangent(at: 0), style: style)
        } else if let start = first.tangent(at: 0), let end = last.tangent(at: 1) {
            output.cap(at: first.p0, outward: -1 * start, cap: style.cap)
            output.cap(at: last.p3, outward: end, cap: style.cap)
        }
    }

    /// The polygons gathered so far, each added turning the positive way.
    struct Output {
        let halfWidth: Double
        var polygons: [[PathPoint]] = []

        /// Adds `polygon` turned the positive way; one of no area is left out.
        mutating func add(_ polygon: [PathPoint]) {
            var area = 0.0
            for k in polygon.indices {
                area += PathPoint.cross(polygon[k], polygon[(k + 1) % polygon.count])
            }
            guard area != 0, area.isFinite else { return }
            polygons.append(area > 0 ? polygon : polygon.reversed())
        }

        /// The largest angle between the normals of consecutive ribbon samples (SPEC §9):
        /// 2·acos(1 − ε/(w/2)); none when w/2 ≤ ε (no bisection).
        var largestNormalTurn: Double? {
            guard halfWidth > PathFlattening.epsilon else { return nil }
            return 2 * acos(1 - PathFlattening.epsilon / halfWidth)
        }

        /// The ribbon of one curve: its rectangle for a line; for a cubic the region swept by the
        /// normal segment B(t) ± (w/2)·N(t) between samples at its flattening parameters,
        /// bisected where normals turn too far (at most 16 levels).
        mutating func ribbon(_ curve: PathCurve) {
            guard let t0 = curve.tangent(at: 0) else { return }
            if curve.isLine {
                quad(curve.p0, t0.perpendicular, curve.p3, t0.perpendicular)
                return
            }
            let n = curve.chordCount
            let limit = largestNormalTurn
            var previousT = 0.0
            var previousNormal = t0.perpendicular
            var previousPoint = curve.p0
            for k in 1...n {
                let t = Double(k) / Double(n)
                let normal = (curve.tangent(at: t) ?? t0).perpendicular
                let point = curve.point(at: t)
                if let limit {
                    refine(curve, previousT, previousPoint, previousNormal, t, point, normal, limit: limit, depth: 0)
                } else {
                    quad(previousPoint, previousNormal, point, normal)
                }
                (previousT, previousNormal, previousPoint) = (t, normal, point)
            }
        }

        /// The ribbon between samples a and b, bisected while their normals differ by more than `limit`.
        mutating func refine(_ curve: PathCurve, _ ta: Double, _ pa: PathPoint, _ na: PathPoint,
                             _ tb: Double, _ pb: PathPoint, _ nb: PathPoint, limit: Double, depth: Int) {
            let turn = abs(atan2(PathPoint.cross(na, nb), PathPoint.dot(na, nb)))
            guard turn > limit, depth < 16 else {
                quad(pa, na, pb, nb)
                return
            }
            let tm = (ta + tb) / 2
            let pm = curve.point(at: tm)
            let nm = curve.tangent(at: tm)?.perpendicular ?? na
            refine(curve, ta, pa, na, tm, pm, nm, limit: limit, depth: depth + 1)
            refine(curve, tm, pm, nm, tb, pb, nb, limit: limit, depth: depth + 1)
        }

        /// The region swept by the normal segment from (a, na) to (b, nb): the quadrilateral, or
        /// its two lobes where it crosses itself.
        mutating func quad(_ a: PathPoint, _ na: PathPoint, _ b: PathPoint, _ nb: PathPoint) {
            let l0 = a + halfWidth * na, r0 = a - halfWidth * na
            let l1 = b + halfWidth * nb, r1 = b - halfWidth * nb
            if let x = Self.crossing(l0, r0, l1, r1) {
                add([l0, l1, x])
                add([x, r1, r0])
            } else if let x = Self.crossing(l0, l1, r1, r0) {
                add([l0, x, r0])
                add([x, l1, r1])
            } else {
                add([l0, l1, r1, r0])
            }
        }

        /// Where segments a0–a1 and b0–b1 cross at interior points of both, if they do.
        static func crossing(_ a0: PathPoint, _ a1: PathPoint, _ b0: PathPoint, _ b1: PathPoint) -> PathPoint? {
            let da = a1 - a0, db = b1 - b0
            let denominator = PathPoint.cross(da, db)
            guard denominator != 0 else { return nil }
            let s = PathPoint.cross(b0 - a0, db) / denominator
            let u = PathPoint.cross(b0 - a0, da) / denominator
            guard s > 0, s < 1, u > 0, u < 1 else { return nil }
            return a0 + s * da
        }

        /// The join at `vertex` from incoming tangent `a` to outgoing tangent `b` (SPEC §9), on
        /// the outer side; none where they point the same way within 1e-6 rad.
        mutating func join(at vertex: PathPoint, _ a: PathPoint?, _ b: PathPoint?, style: StrokeStyle) {
            guard let a, let b else { return }
            let turn = atan2(PathPoint.cross(a, b), PathPoint.dot(a, b))
            guard abs(turn) > 1e-6 else { return }
            // Turning toward +perp puts the outside on −perp.
            let side: Double = turn > 0 ? -1 : 1
            let outA = side * a.perpendicular, outB = side * b.perpendicular
            let pa = vertex + halfWidth * outA, pb = vertex + halfWidth * outB
            switch style.join {
            case .round:
                var polygon = [vertex]
                arc(center: vertex, from: outA, sweep: turn, into: &polygon)
                add(polygon)
            case .miter:
                let interior = Double.pi - abs(turn)
                let ratio = 1 / sin(interior / 2)
                if ratio <= style.miterLimit, let bisector = (outA + outB).unit {
                    add([vertex, pa, vertex + (halfWidth * ratio) * bisector, pb])
                } else {
                    add([vertex, pa, pb])
                }
            case .bevel:
                add([vertex, pa, pb])
            }
        }

        /// The cap at an end `point` whose tangent points `outward` (SPEC §9).
        mutating func cap(at point: PathPoint, outward d: PathPoint, cap: StrokeCap) {
            let n = d.perpendicular
            switch cap {
            case .butt:
                return
            case .square:
                add([point + halfWidth * n, point + halfWidth * (n + d), point + halfWidth * (d - n), point - halfWidth * n])
            case .round:
                var polygon: [PathPoint] = []
                arc(center: point, from: n, sweep: -Double.pi, into: &polygon)
                add(polygon)
            }
        }

        /// A dot at `point`: a disc (`round`) or a w × w square (`square`), the square turned
        /// along `tangent` or aligned with the px axes without one; nothing for `butt`.
        mutating func dot(at point: PathPoint, along tangent: PathPoint?, cap: StrokeCap) {
            switch cap {
            case .butt:
                return
            case .square:
                let d = halfWidth * (tangent ?? PathPoint(1, 0)), n = d.perpendicular
                add([point + d + n, point - d + n, point - d - n, point + d - n])
            case .round:
                var polygon: [PathPoint] = []
                arc(center: point, from: PathPoint(1, 0), sweep: 2 * Double.pi, into: &polygon)
                add(polygon)
            }
        }

        /// Appends the arc of radius w/2 around `center` from unit direction `start` turning by
        /// `sweep` radians, as ceil(|sweep| / 90°) equal cubics flattened by SPEC §9's rule:
        /// its start point, then each chord's end.
        func arc(center: PathPoint, from start: PathPoint, sweep: Double, into polygon: inout [PathPoint]) {
            let count = max(1, Int((abs(sweep) / (Double.pi / 2) - 1e-12).rounded(.up)))
            let step = sweep / Double(count)
            let handle = 4.0 / 3 * tan(step / 4) * halfWidth
            let (c, s) = (cos(step), sin(step))
            var u = start
            polygon.append(center + halfWidth * u)
            for _ in 0..<count {
                let v = PathPoint(c * u.x - s * u.y, s * u.x + c * u.y)
                let p0 = center + halfWidth * u, p3 = center + halfWidth * v
                let p1 = p0 + handle * u.perpendicular, p2 = p3 - handle * v.perpendicular
                let n = PathFlattening.chordCount(p0, p1, p2, p3)
                for k in 1..<n { polygon.append(PathFlattening.point(p0, p1, p2, p3, at: Double(k) / Double(n))) }
                polygon.append(p3)
                u = v
            }
        }
    }
}
