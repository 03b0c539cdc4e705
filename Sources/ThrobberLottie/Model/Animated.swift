import Throbber

/// A value that can be interpolated between two keyframes: numbers, vectors and colours
/// component by component, each with the easing of its own dimension (Lottie's per-dimension
/// `i`/`o`), a path vertex by vertex.
public protocol LottieInterpolable: Sendable, Equatable {
    /// The value a fraction of the way from `a` to `b`; `progress(d)` is the eased progress of
    /// dimension d (the first dimension's where the keyframe gives fewer).
    static func interpolate(_ a: Self, _ b: Self, _ progress: (Int) -> Double) -> Self
    /// The value a slot parameter gives (`--set`), nil for a kind slots cannot hold.
    init?(slot: LottieVector)
    /// The value as a slot parameter shows it, nil for a kind slots cannot hold.
    var slotVector: LottieVector? { get }
}

extension Double: LottieInterpolable {
    public static func interpolate(_ a: Double, _ b: Double, _ progress: (Int) -> Double) -> Double {
        a + (b - a) * progress(0)
    }
    public init?(slot: LottieVector) { self = slot[0] }
    public var slotVector: LottieVector? { LottieVector([self]) }
}

/// A vector (position, scale, a colour's components, a gradient's flat stops).
public struct LottieVector: LottieInterpolable, Hashable {
    public var values: [Double]

    public init(_ values: [Double]) { self.values = values }

    public subscript(_ k: Int) -> Double { k < values.count ? values[k] : 0 }
    public init?(slot: LottieVector) { self = slot }
    public var slotVector: LottieVector? { self }

    /// Component by component; where the two differ in length the longer's tail is held (a
    /// gradient keyframe that gains stops), as the players do.
    public static func interpolate(_ a: LottieVector, _ b: LottieVector, _ progress: (Int) -> Double) -> LottieVector {
        let n = max(a.values.count, b.values.count)
        var out = [Double](repeating: 0, count: n)
        for d in 0..<n {
            let x = d < a.values.count ? a.values[d] : b.values[d]
            let y = d < b.values.count ? b.values[d] : a.values[d]
            out[d] = x + (y - x) * progress(d)
        }
        return LottieVector(out)
    }
}

/// One easing handle of a keyframe: `x` in time, `y` in value, per dimension.
public struct LottieEasing: Sendable, Equatable {
    public var x: [Double]
    public var y: [Double]

    public init(x: [Double], y: [Double]) { (self.x, self.y) = (x, y) }

    func x(_ d: Int) -> Double { x.isEmpty ? 0 : x[min(d, x.count - 1)] }
    func y(_ d: Int) -> Double { y.isEmpty ? 0 : y[min(d, y.count - 1)] }
}

/// One keyframe: from `time` (in the property's frames) the value goes from `start` toward the
/// next keyframe's start (or this one's `end`, older files), eased by `easeOut` (this key's `o`)
/// and `easeIn` (this key's `i`), or holds when `hold`. A position's keyframe may carry spatial
/// tangents (`to`, `ti`): the value then travels the cubic start, start + to, end + ti, end by
/// arc length.
public struct LottieKeyframe<Value: LottieInterpolable>: Sendable, Equatable {
    public var time: Double
    public var start: Value?
    public var end: Value?
    public var easeOut: LottieEasing?
    public var easeIn: LottieEasing?
    public var hold: Bool
    public var spatialOut: [Double]?
    public var spatialIn: [Double]?
}

/// A property: one value, or keyframes sorted by time.
public enum LottieAnimated<Value: LottieInterpolable>: Sendable, Equatable {
    case fixed(Value)
    case keyframes([LottieKeyframe<Value>])

    /// Whether it changes with time.
    public var isAnimated: Bool {
        if case .keyframes(let keys) = self { return keys.count > 1 }
        return false
    }

    /// The number of keyframes (1 for a fixed value).
    public var keyframeCount: Int {
        if case .keyframes(let keys) = self { return keys.count }
        return 1
    }

    /// The value at `frame` (Lottie frames, fractional): before the first keyframe its start,
    /// after the last the last value, between two the eased interpolation (or the earlier's
    /// value where it holds).
    public func value(at frame: Double) -> Value {
        switch self {
        case .fixed(let value): return value
        case .keyframes(let keys): return Self.evaluate(keys, at: frame)
        }
    }

    static func evaluate(_ keys: [LottieKeyframe<Value>], at frame: Double) -> Value {
        // The reader guarantees at least one keyframe with a start value.
        func startOrEnd(_ k: Int) -> Value {
            if let s = keys[k].start { return s }
            if k > 0, let e = keys[k - 1].end { return e }
            return keys[..<k].reversed().lazy.compactMap(\.start).first ?? keys.lazy.compactMap(\.start).first!
        }
        if keys.count == 1 || frame <= keys[0].time { return startOrEnd(0) }
        // The last keyframe at or before the frame.
        var low = 0, high = keys.count - 1
        if frame >= keys[high].time { return startOrEnd(high) }
        while high - low > 1 {
            let mid = (low + high) / 2
            if keys[mid].time <= frame { low = mid } else { high = mid }
        }
        let key = keys[low]
        let from = startOrEnd(low)
        if key.hold { return from }
        let to = key.end ?? startOrEnd(low + 1)
        let span = keys[low + 1].time - key.time
        guard span > 0 else { return to }
        let linear = (frame - key.time) / span
        let progress: (Int) -> Double = { d in
            guard let out = key.easeOut, let into = key.easeIn else { return linear }
            let curve = CubicBezierTiming(x1: min(max(out.x(d), 0), 1), y1: out.y(d), x2: min(max(into.x(d), 0), 1), y2: into.y(d))
            return curve.progress(at: linear)
        }
        if let vFrom = from as? LottieVector, let vTo = to as? LottieVector, let so = key.spatialOut, let si = key.spatialIn,
           so.contains(where: { $0 != 0 }) || si.contains(where: { $0 != 0 }) {
            return LottieSpatial.point(from: vFrom, to: vTo, out: so, in: si, fraction: progress(0)) as! Value
        }
        return Value.interpolate(from, to, progress)
    }
}

/// A position travelling a spatial Bézier between two keyframes, by arc length (what After
/// Effects' motion paths and every player do).
enum LottieSpatial {
    /// Samples along the curve for its length table.
    static let samples = 64

    static func point(from a: LottieVector, to b: LottieVector, out: [Double], in into: [Double], fraction: Double) -> LottieVector {
        let p0 = PathPoint(a[0], a[1]), p3 = PathPoint(b[0], b[1])
        let p1 = p0 + PathPoint(out.count > 0 ? out[0] : 0, out.count > 1 ? out[1] : 0)
        let p2 = p3 + PathPoint(into.count > 0 ? into[0] : 0, into.count > 1 ? into[1] : 0)
        let curve = PathCurve(p0, p1, p2, p3)
        var lengths = [Double](repeating: 0, count: samples + 1)
        var previous = p0
        for k in 1...samples {
            let p = curve.point(at: Double(k) / Double(samples))
            lengths[k] = lengths[k - 1] + (p - previous).length
            previous = p
        }
        let total = lengths[samples]
        var result: PathPoint
        if fraction <= 0 || total == 0 {
            // An ease that overshoots stops at the curve's ends (the players clamp there too).
            result = fraction <= 0 ? p0 : p3
        } else if fraction >= 1 {
            result = p3
        } else {
            let target = fraction * total
            var k = 1
            while k < samples && lengths[k] < target { k += 1 }
            let within = lengths[k] - lengths[k - 1]
            let u = (Double(k - 1) + (within > 0 ? (target - lengths[k - 1]) / within : 0)) / Double(samples)
            result = curve.point(at: u)
        }
        var values = a.values
        if values.count < 2 { values += [Double](repeating: 0, count: 2 - values.count) }
        values[0] = result.x
        values[1] = result.y
        return LottieVector(values)
    }
}
