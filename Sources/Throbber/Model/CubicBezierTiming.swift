import Foundation

/// A CSS `cubic-bezier(x1, y1, x2, y2)` timing curve and Throbber's one solver for it
/// (docs/scene-files.md §7).
///
/// The curve runs from (0, 0) through the control points (x1, y1) and (x2, y2) to (1, 1); its
/// progress at x is y(s) where x(s) = x. x(s) is solved by bisection in double until
/// high − low ≤ 1e-12, and y is read at the final interval's midpoint, exactly as
/// `UIKitTiming.easeInOut` always did; x ≤ 0 gives 0 and x ≥ 1 gives 1 (a segment starts and ends
/// exactly on its values). x1 and x2 must lie in [0, 1], so that x(s) increases and the bisection
/// finds the one s; y1 and y2 may overshoot (|y| ≤ 100) for a bounce past the end values.
///
/// The named curves (`ease`, `ease-in`, `ease-out`, `ease-in-out`) carry their x weights 3·x1 and
/// 3·x2 as decimal literals (1.26 and 1.74 for `ease-in-out`, UIKit's), so `easeInOut` is
/// bit-identical to the HUD's fade curve; a curve made with `init(x1:y1:x2:y2:)` computes 3·x in
/// double, which may differ in the last bit (3 × 0.58 is 1.7399999999999998, not 1.74).
public struct CubicBezierTiming: Sendable, Hashable {
    /// The first control point's x, in [0, 1] for a valid curve.
    public let x1: Double
    /// The first control point's y (overshoot allowed, |y1| ≤ 100).
    public let y1: Double
    /// The second control point's x, in [0, 1] for a valid curve.
    public let x2: Double
    /// The second control point's y (overshoot allowed, |y2| ≤ 100).
    public let y2: Double

    // x(s) = x1Weight·s(1 − s)² + x2Weight·s²(1 − s) + s³ (Bernstein form, UIKitTiming's order).
    let x1Weight: Double
    let x2Weight: Double
    // y(s) = yLinear·s + yQuadratic·s² + yCubic·s³ (power form: for y1 = 0, y2 = 1 it evaluates
    // bit for bit as UIKitTiming's 3s² − 2s³).
    let yLinear: Double
    let yQuadratic: Double
    let yCubic: Double

    /// The largest |y1| or |y2| a valid curve may have.
    public static let mostOvershoot = 100.0

    /// A curve through the control points (x1, y1) and (x2, y2); `problem` says whether it is valid.
    ///
    /// The x weights are computed as 3·x1 and 3·x2 in double.
    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        self.init(x1: x1, y1: y1, x2: x2, y2: y2, x1Weight: 3 * x1, x2Weight: 3 * x2)
    }

    /// A curve whose x weights 3·x1 and 3·x2 are given as written (the named curves' literals).
    init(x1: Double, y1: Double, x2: Double, y2: Double, x1Weight: Double, x2Weight: Double) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
        self.x1Weight = x1Weight
        self.x2Weight = x2Weight
        yLinear = 3 * y1
        yQuadratic = 3 * y2 - 6 * y1
        yCubic = 1 + 3 * y1 - 3 * y2
    }

    /// CSS `ease`: cubic-bezier(0.25, 0.1, 0.25, 1).
    public static let ease = CubicBezierTiming(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1, x1Weight: 0.75, x2Weight: 0.75)
    /// CSS `ease-in`: cubic-bezier(0.42, 0, 1, 1).
    public static let easeIn = CubicBezierTiming(x1: 0.42, y1: 0, x2: 1, y2: 1, x1Weight: 1.26, x2Weight: 3)
    /// CSS `ease-out`: cubic-bezier(0, 0, 0.58, 1).
    public static let easeOut = CubicBezierTiming(x1: 0, y1: 0, x2: 0.58, y2: 1, x1Weight: 0, x2Weight: 1.74)
    /// CSS `ease-in-out`: cubic-bezier(0.42, 0, 0.58, 1), bit-identical to `UIKitTiming.easeInOut`.
    public static let easeInOut = CubicBezierTiming(x1: 0.42, y1: 0, x2: 0.58, y2: 1, x1Weight: 1.26, x2Weight: 1.74)

    /// Why the curve is not a valid timing function, or nil when it is.
    ///
    /// Every number must be finite, x1 and x2 in [0, 1] (time runs forward), |y1| and |y2| at most
    /// `mostOvershoot`. The message names the first offending number, for the caller to prefix
    /// with where it was given.
    public var problem: String? {
        for (name, value) in [("x1", x1), ("y1", y1), ("x2", x2), ("y2", y2)] where !value.isFinite {
            return "cubicBezier \(name) is \(value): give finite numbers"
        }
        for (name, value) in [("x1", x1), ("x2", x2)] where !(0...1).contains(value) {
            return "cubicBezier \(name) \(formatNumber(value)) is outside [0, 1]: give x1 and x2 in [0, 1], so that time runs forward"
        }
        for (name, value) in [("y1", y1), ("y2", y2)] where abs(value) > Self.mostOvershoot {
            return "cubicBezier \(name) \(formatNumber(value)) is beyond ±\(formatNumber(Self.mostOvershoot)): "
                + "give y1 and y2 between -\(formatNumber(Self.mostOvershoot)) and \(formatNumber(Self.mostOvershoot))"
        }
        return nil
    }

    /// The curve's x at parameter s ∈ [0, 1].
    @inline(__always)
    public func x(atParameter s: Double) -> Double {
        x1Weight * s * (1 - s) * (1 - s) + x2Weight * s * s * (1 - s) + s * s * s
    }

    /// The curve's y at parameter s ∈ [0, 1].
    @inline(__always)
    public func y(atParameter s: Double) -> Double {
        yLinear * s + yQuadratic * s * s + yCubic * s * s * s
    }

    /// The parameter s at which the curve reaches x ∈ (0, 1): the midpoint of the bisection's
    /// last interval, once high − low ≤ 1e-12.
    ///
    /// The bisection moves `low` up while x(mid) < x, so for a valid curve a larger x never gives
    /// a smaller s.
    public func parameter(atX x: Double) -> Double {
        var low = 0.0, high = 1.0
        while high - low > 1e-12 {
            let s = (low + high) / 2
            if self.x(atParameter: s) < x { low = s } else { high = s }
        }
        return (low + high) / 2
    }

    /// The curve's progress at x: 0 for x ≤ 0 (and NaN), 1 for x ≥ 1, else y at the solved s.
    public func progress(at x: Double) -> Double {
        // The curve's ends exactly, so a segment starts and ends on its values.
        guard x > 0 else { return 0 }
        guard x < 1 else { return 1 }
        return y(atParameter: parameter(atX: x))
    }
}
