import Foundation
import Throbber

/// Lottie's shapes as vertices with tangents (`LottieBezier`), where each starts and which way
/// it runs being part of the format: a trim measures from there. Rectangles start at the top
/// right and run clockwise (down the right side), ellipses at the top, stars and polygons at
/// their first outer point straight up turned by their rotation; `d` = 3 runs the other way
/// from the same start.
enum LottieGeometry {
    /// The handle length, relative to the radius, of a quarter circle drawn as one cubic.
    static let kappa = 0.5519150244935105

    /// A rectangle about `center`, corners rounded by `roundness` (at most half the shorter side).
    static func rectangle(center c: PathPoint, size: PathPoint, roundness: Double, reversed: Bool) -> LottieBezier {
        let w = abs(size.x) / 2, h = abs(size.y) / 2
        let r = min(max(roundness, 0), min(w, h))
        let zero = PathPoint(0, 0)
        var v: [PathPoint], i: [PathPoint], o: [PathPoint]
        if r == 0 {
            v = [PathPoint(c.x + w, c.y - h), PathPoint(c.x + w, c.y + h), PathPoint(c.x - w, c.y + h), PathPoint(c.x - w, c.y - h)]
            i = [zero, zero, zero, zero]
            o = i
        } else {
            let k = r * kappa
            // Each corner's arc: from the end of one side to the start of the next.
            v = [PathPoint(c.x + w, c.y - h + r), PathPoint(c.x + w, c.y + h - r), PathPoint(c.x + w - r, c.y + h),
                 PathPoint(c.x - w + r, c.y + h), PathPoint(c.x - w, c.y + h - r), PathPoint(c.x - w, c.y - h + r),
                 PathPoint(c.x - w + r, c.y - h), PathPoint(c.x + w - r, c.y - h)]
            i = [PathPoint(0, -k), zero, PathPoint(k, 0), zero, PathPoint(0, k), zero, PathPoint(-k, 0), zero]
            o = [zero, PathPoint(0, k), zero, PathPoint(-k, 0), zero, PathPoint(0, -k), zero, PathPoint(k, 0)]
        }
        let shape = LottieBezier(closed: true, vertices: v, inTangents: i, outTangents: o)
        return reversed ? reversedKeepingStart(shape) : shape
    }

    /// The rectangle from the origin to (`width`, `height`): a solid layer, an image's or a
    /// precomposition's bounds.
    static func box(width: Double, height: Double) -> PathGeometry {
        LottieShapeEvaluator.geometry(rectangle(center: PathPoint(width / 2, height / 2), size: PathPoint(width, height), roundness: 0,
                                                reversed: false))
    }

    /// An ellipse about `center` of `size`: four quarter arcs from the top.
    static func ellipse(center c: PathPoint, size: PathPoint, reversed: Bool) -> LottieBezier {
        let rx = size.x / 2, ry = size.y / 2
        let kx = rx * kappa, ky = ry * kappa
        let v = [PathPoint(c.x, c.y - ry), PathPoint(c.x + rx, c.y), PathPoint(c.x, c.y + ry), PathPoint(c.x - rx, c.y)]
        let i = [PathPoint(-kx, 0), PathPoint(0, -ky), PathPoint(kx, 0), PathPoint(0, ky)]
        let o = [PathPoint(kx, 0), PathPoint(0, ky), PathPoint(-kx, 0), PathPoint(0, -ky)]
        let shape = LottieBezier(closed: true, vertices: v, inTangents: i, outTangents: o)
        return reversed ? reversedKeepingStart(shape) : shape
    }

    /// A star (outer and inner points alternating) or a polygon of `points` corners (the whole
    /// part of the count), its first point straight up turned by `rotation` degrees clockwise;
    /// roundness (percent) bends each side's ends along the circle's tangent by that share of a
    /// corner's arc length.
    static func polystar(_ star: Bool, center c: PathPoint, points: Double, rotation: Double, outer: Double, inner: Double,
                         outerRoundness: Double, innerRoundness: Double, reversed: Bool) -> LottieBezier? {
        let count = Int(min(max(points.rounded(.down), 0), 10_000))
        guard count >= (star ? 1 : 3) || (count >= 1 && !star) else { return nil }
        let corners = star ? 2 * count : count
        let step = 2 * Double.pi / Double(corners)
        let direction: Double = reversed ? -1 : 1
        var angle = -Double.pi / 2 + rotation * Double.pi / 180
        var v: [PathPoint] = [], i: [PathPoint] = [], o: [PathPoint] = []
        v.reserveCapacity(corners)
        for k in 0..<corners {
            let isOuter = !star || k % 2 == 0
            let radius = isOuter ? outer : inner
            let roundness = (isOuter ? outerRoundness : innerRoundness) / 100
            // The arc length of one corner's share of the circle: a polygon's sides are a quarter
            // of its corner spacing long in these terms, a star's a half (the players' convention).
            let arc = 2 * Double.pi * radius / Double(star ? corners * 2 : corners * 4)
            let x = radius * cos(angle), y = radius * sin(angle)
            let length = (x * x + y * y).squareRoot()
            let tangent = length > 0 ? PathPoint(y / length, -x / length) : PathPoint(0, 0)
            let handle = (arc * roundness * direction) * tangent
            v.append(PathPoint(c.x + x, c.y + y))
            i.append(handle)
            o.append(-1 * handle)
            angle += step * direction
        }
        return LottieBezier(closed: true, vertices: v, inTangents: i, outTangents: o)
    }

    /// The same closed shape run the other way from the same first vertex.
    static func reversedKeepingStart(_ shape: LottieBezier) -> LottieBezier {
        guard shape.vertices.count > 1 else { return shape }
        let order = [0] + Array((1..<shape.vertices.count).reversed())
        return LottieBezier(closed: shape.closed, vertices: order.map { shape.vertices[$0] },
                            inTangents: order.map { shape.outTangents[$0] }, outTangents: order.map { shape.inTangents[$0] })
    }

    /// Rounded corners (`rd`): every vertex without tangents (a sharp corner; not the ends of an
    /// open path) becomes two, `radius` back along each side (at most half the side), joined by
    /// a cubic whose handles reach toward the old corner by `kappa` of that distance.
    static func roundedCorners(_ shape: LottieBezier, radius: Double) -> LottieBezier {
        guard radius > 0, shape.vertices.count > 1 else { return shape }
        let n = shape.vertices.count
        let zero = PathPoint(0, 0)
        var v: [PathPoint] = [], i: [PathPoint] = [], o: [PathPoint] = []
        v.reserveCapacity(2 * n)
        for k in 0..<n {
            let p = shape.vertices[k]
            let sharp = shape.inTangents[k] == zero && shape.outTangents[k] == zero
            let end = !shape.closed && (k == 0 || k == n - 1)
            guard sharp, !end else {
                v.append(p)
                i.append(shape.inTangents[k])
                o.append(shape.outTangents[k])
                continue
            }
            let previous = shape.vertices[(k + n - 1) % n], next = shape.vertices[(k + 1) % n]
            let toPrevious = previous - p, toNext = next - p
            let a = toPrevious.length, b = toNext.length
            let first = a > 0 ? p + (min(a / 2, radius) / a) * toPrevious : p
            let second = b > 0 ? p + (min(b / 2, radius) / b) * toNext : p
            v.append(first)
            i.append(zero)
            o.append(kappa * (p - first))
            v.append(second)
            i.append(kappa * (p - second))
            o.append(zero)
        }
        return LottieBezier(closed: shape.closed, vertices: v, inTangents: i, outTangents: o)
    }
}
