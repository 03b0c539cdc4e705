import Foundation

extension PathPoint {
    /// The dot product.
    static func dot(_ a: PathPoint, _ b: PathPoint) -> Double { a.x * b.x + a.y * b.y }
    /// The z component of the cross product: positive when b turns from a toward +perp.
    static func cross(_ a: PathPoint, _ b: PathPoint) -> Double { a.x * b.y - a.y * b.x }
    /// The vector turned 90° (x, y) → (−y, x).
    var perpendicular: PathPoint { PathPoint(-y, x) }
    /// The unit vector the same way, or nil for a zero (or not finite) vector.
    var unit: PathPoint? {
        let l = length
        guard l > 0, l.isFinite else { return nil }
        return PathPoint(x / l, y / l)
    }
}

/// One segment of a subpath with its start point: a line or a cubic Bézier in px, the form the
/// stroker, the dasher and the trimmer work on.
public struct PathCurve: Sendable, Hashable {
    /// The start point.
    public var p0: PathPoint
    /// The first control point (a line's start).
    public var p1: PathPoint
    /// The second control point (a line's end).
    public var p2: PathPoint
    /// The end point.
    public var p3: PathPoint
    /// Whether it is a line (its ribbon a rectangle, one chord) rather than a cubic.
    public var isLine: Bool

    /// A line from `a` to `b`.
    public init(line a: PathPoint, _ b: PathPoint) {
        (p0, p1, p2, p3, isLine) = (a, a, b, b, true)
    }

    /// The cubic p0…p3.
    public init(_ p0: PathPoint, _ p1: PathPoint, _ p2: PathPoint, _ p3: PathPoint) {
        (self.p0, self.p1, self.p2, self.p3, isLine) = (p0, p1, p2, p3, false)
    }

    /// `segment` starting at `start`.
    public init(from start: PathPoint, _ segment: PathSegment) {
        switch segment {
        case .line(let p): self.init(line: start, p)
        case let .cubic(c1, c2, p): self.init(start, c1, c2, p)
        }
    }

    /// The segment without its start point.
    public var segment: PathSegment { isLine ? .line(to: p3) : .cubic(p1, p2, to: p3) }

    /// Whether every point of it is its start (SPEC §9: such segments are dropped first).
    public var isZeroLength: Bool { p1 == p0 && p2 == p0 && p3 == p0 }

    /// How many chords its §9 flattening has (1 for a line).
    public var chordCount: Int { isLine ? 1 : PathFlattening.chordCount(p0, p1, p2, p3) }

    /// B(t).
    public func point(at t: Double) -> PathPoint {
        if t <= 0 { return p0 }
        if t >= 1 { return p3 }
        if isLine { return p0 + t * (p3 - p0) }
        return PathFlattening.point(p0, p1, p2, p3, at: t)
    }

    /// B′(t) (up to a positive factor for a line).
    func derivative(at t: Double) -> PathPoint {
        if isLine { return p3 - p0 }
        let u = 1 - t
        return (3 * u * u) * (p1 - p0) + (6 * u * t) * (p2 - p1) + (3 * t * t) * (p3 - p2)
    }

    /// The unit tangent at t (SPEC §9): B′(t)'s direction; where B′ vanishes, at an end the
    /// direction to the nearest distinct control point by index, inside B″'s direction. Nil only
    /// when the segment is a single point.
    public func tangent(at t: Double) -> PathPoint? {
        if let d = derivative(at: t).unit { return d }
        if t <= 0 {
            for q in [p1, p2, p3] { if let d = (q - p0).unit { return d } }
            return nil
        }
        if t >= 1 {
            for q in [p2, p1, p0] { if let d = (p3 - q).unit { return d } }
            return nil
        }
        let second = (6 * (1 - t)) * (p2 - 2 * p1 + p0) + (6 * t) * (p3 - 2 * p2 + p1)
        return second.unit ?? (p3 - p0).unit ?? tangent(at: 0)
    }

    /// The part between parameters `t0` ≤ `t1`, split exactly (de Casteljau); a line's part is a line.
    public func part(_ t0: Double, _ t1: Double) -> PathCurve {
        if t0 <= 0 && t1 >= 1 { return self }
        if isLine { return PathCurve(line: point(at: t0), point(at: t1)) }
        var curve = self
        if t1 < 1 { curve = curve.split(at: t1).0 }
        if t0 > 0 { curve = curve.split(at: t1 <= 0 ? 0 : t0 / t1).1 }
        curve.p0 = point(at: t0)
        curve.p3 = point(at: t1)
        return curve
    }

    /// The two halves at t (de Casteljau).
    func split(at t: Double) -> (PathCurve, PathCurve) {
        func lerp(_ a: PathPoint, _ b: PathPoint) -> PathPoint { a + t * (b - a) }
        let a = lerp(p0, p1), b = lerp(p1, p2), c = lerp(p2, p3)
        let d = lerp(a, b), e = lerp(b, c)
        let m = lerp(d, e)
        return (PathCurve(p0, a, d, m), PathCurve(m, e, c, p3))
    }

    /// Its §9 chords' lengths summed.
    public var length: Double {
        if isLine { return (p3 - p0).length }
        let n = chordCount
        var sum = 0.0, previous = p0
        for k in 1...n {
            let p = k == n ? p3 : point(at: Double(k) / Double(n))
            sum += (p - previous).length
            previous = p
        }
        return sum
    }
}

/// Lengths along a path, measured on its SPEC §9 flattening chord by chord, and the curve
/// parameters of cuts at given lengths (SPEC §9 "Lengths, dashes and trims").
public enum PathMeasure {
    /// Where along a subpath's curves: segment `index` at parameter `t`.
    public struct Location: Sendable, Hashable {
        /// Which curve of the subpath.
        public var index: Int
        /// The curve parameter, 0…1.
        public var t: Double

        public init(index: Int, t: Double) {
            self.index = index
            self.t = t
        }
    }

    /// A subpath's segments as curves, zero-length ones dropped; a closed subpath whose last
    /// segment does not end at its start gets the closing line too.
    public static func curves(_ subpath: Subpath) -> [PathCurve] {
        var curves: [PathCurve] = []
        var current = subpath.start
        for segment in subpath.segments {
            let curve = PathCurve(from: current, segment)
            if !curve.isZeroLength { curves.append(curve) }
            current = segment.end
        }
        if subpath.closed && current != subpath.start { curves.append(PathCurve(line: current, subpath.start)) }
        return curves
    }

    /// The length of `curves` together.
    public static func length(_ curves: [PathCurve]) -> Double {
        curves.reduce(0) { $0 + $1.length }
    }

    /// The locations of `lengths` (ascending) along `curves`, each on the chord containing it at
    /// the same fraction of the chord, mapped to that fraction of the chord's parameter interval.
    /// Lengths past the end are the end; before the start, the start.
    public static func locate(_ lengths: [Double], in curves: [PathCurve]) -> [Location] {
        guard !curves.isEmpty else { return [] }
        var result: [Location] = []
        result.reserveCapacity(lengths.count)
        var next = 0
        var walked = 0.0
        for (index, curve) in curves.enumerated() {
            let n = curve.chordCount
            var previous = curve.p0
            for k in 1...n {
                guard next < lengths.count else { return result }
                let p = k == n ? curve.p3 : curve.point(at: Double(k) / Double(n))
                let chord = (p - previous).length
                while next < lengths.count && lengths[next] <= walked + chord {
                    let fraction = chord > 0 ? min(max((lengths[next] - walked) / chord, 0), 1) : 0
                    result.append(Location(index: index, t: (Double(k - 1) + fraction) / Double(n)))
                    next += 1
                }
                walked += chord
                previous = p
            }
        }
        while next < lengths.count {
            result.append(Location(index: curves.count - 1, t: 1))
            next += 1
        }
        return result
    }

    /// The curves between two locations (`from` before `to`), exactly split; parts of no extent
    /// are left out, so an empty result is a piece of no length.
    public static func piece(_ curves: [PathCurve], from: Location, to: Location) -> [PathCurve] {
        var result: [PathCurve] = []
        guard from.index <= to.index else { return result }
        for index in from.index...to.index {
            let t0 = index == from.index ? from.t : 0, t1 = index == to.index ? to.t : 1
            guard t1 > t0 else { continue }
            let part = curves[index].part(t0, t1)
            if !part.isZeroLength { result.append(part) }
        }
        return result
    }

    /// An open subpath of `curves` (not empty).
    static func subpath(_ curves: [PathCurve]) -> Subpath {
        Subpath(start: curves[0].p0, segments: curves.map(\.segment), closed: false)
    }
}
