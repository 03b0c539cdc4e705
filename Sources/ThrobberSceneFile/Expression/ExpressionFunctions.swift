import Foundation
import Throbber

/// The closed list of functions an expression may call, their signatures, and the arithmetic
/// of each (docs/scene-files.md §6).
///
/// The list is closed so that every scene file means the same on every machine: each function
/// is written here once, in IEEE binary64 in the order the design gives, and the arity and
/// argument types are checked when the expression is compiled. A function whose argument is
/// outside its domain throws `Failure` with the reason; the evaluator adds the expression text.
enum ExpressionFunctions {
    /// One function of the list, spelled as expressions call it.
    enum Function: String, Sendable, Hashable, CaseIterable {
        case floor, ceil, mod, frac, abs, min, max, clamp, lerp, tri
        case sin, cos, rad, deg, sqrt, pow, bezier
        case rgba, hsb, withAlpha, withBrightness, mix
        case utf16Length
    }

    /// What a function takes and gives.
    struct Signature: Sendable {
        /// Each parameter's name (for messages) and type; for a variadic function, the one
        /// parameter every argument is.
        var parameters: [(name: String, type: ExpressionType)]
        /// Whether the function takes two or more arguments of its one parameter's type (`min`, `max`).
        var isVariadic = false
        /// The type of the result.
        var result: ExpressionType
    }

    /// Why a function's arguments are outside its domain, as the end of a sentence that starts
    /// with the call's text: `has y = 0 (mod by zero)`.
    struct Failure: Error, Sendable {
        var reason: String
    }

    /// The function's signature.
    static func signature(of function: Function) -> Signature {
        func numbers(_ names: String..., result: ExpressionType = .number) -> Signature {
            Signature(parameters: names.map { ($0, .number) }, result: result)
        }
        switch function {
        case .floor, .ceil, .frac, .abs, .tri, .sin, .cos, .sqrt: return numbers("x")
        case .rad: return numbers("deg")
        case .deg: return numbers("rad")
        case .mod: return numbers("x", "y")
        case .pow: return numbers("x", "y")
        case .min, .max: return Signature(parameters: [("x", .number)], isVariadic: true, result: .number)
        case .clamp: return numbers("x", "lo", "hi")
        case .lerp: return numbers("a", "b", "u")
        case .bezier: return numbers("x1", "y1", "x2", "y2", "u")
        case .rgba: return numbers("r", "g", "b", "a", result: .color)
        case .hsb: return numbers("h", "s", "b", "a", result: .color)
        case .withAlpha: return Signature(parameters: [("c", .color), ("a", .number)], result: .color)
        case .withBrightness: return Signature(parameters: [("c", .color), ("b", .number)], result: .color)
        case .mix: return Signature(parameters: [("c1", .color), ("c2", .color), ("u", .number)], result: .color)
        case .utf16Length: return Signature(parameters: [("s", .string)], result: .number)
        }
    }

    // MARK: Numbers

    /// ⌊x + 1e-9⌋: a value a rounding error below a whole number counts as that number.
    static func floor(_ x: Double) -> Double { Foundation.floor(x + 1e-9) }

    /// ⌈x − 1e-9⌉: a value a rounding error above a whole number counts as that number.
    static func ceil(_ x: Double) -> Double { Foundation.ceil(x - 1e-9) }

    /// The floored remainder of x / y: in [0, y) for y > 0, in (y, 0] for y < 0.
    ///
    /// Computed as the exact remainder (fmod, which is Swift's `truncatingRemainder`, the one
    /// the built-in scenes reduce their phases and breaths with) moved into the divisor's sign by
    /// adding y once: the one rounding left is that addition. x − y·⌊x/y⌋ would round twice, and
    /// differs from the built-ins in most cases (x = 50·t for a breathing amplitude). A result that
    /// rounds onto the excluded end (`mod(-1e-20, 12)`) becomes 0.
    static func mod(_ x: Double, _ y: Double) throws(Failure) -> Double {
        guard y != 0 else { throw Failure(reason: "takes a number mod 0") }
        guard x.isFinite, y.isFinite else { throw Failure(reason: "overflows (x / y is not a finite number)") }
        var result = x.truncatingRemainder(dividingBy: y)
        if result != 0, (result < 0) != (y < 0) { result += y }
        if y > 0 ? result >= y : result <= y { result = 0 }
        // −0 (the remainder of a negative multiple) is 0.
        return result == 0 ? 0 : result
    }

    /// mod(x, 1).
    static func frac(_ x: Double) throws(Failure) -> Double { try mod(x, 1) }

    /// The triangle wave 1 − |2·frac(x) − 1|: 0 at whole numbers, 1 halfway between.
    static func tri(_ x: Double) throws(Failure) -> Double { 1 - Swift.abs(2 * (try frac(x)) - 1) }

    /// x limited to [lo, hi]; lo > hi is an error rather than a silent choice of one bound.
    static func clamp(_ x: Double, _ lo: Double, _ hi: Double) throws(Failure) -> Double {
        guard lo <= hi else {
            throw Failure(reason: "has lo = \(formatNumber(lo)) greater than hi = \(formatNumber(hi))")
        }
        return Swift.min(Swift.max(x, lo), hi)
    }

    /// a + (b − a)·u, in that order.
    static func lerp(_ a: Double, _ b: Double, _ u: Double) -> Double { a + (b - a) * u }

    /// Degrees to radians: deg·π/180.
    static func rad(_ degrees: Double) -> Double { degrees * Double.pi / 180 }

    /// Radians to degrees: rad·180/π.
    static func deg(_ radians: Double) -> Double { radians * 180 / Double.pi }

    /// √x for x ≥ 0.
    static func sqrt(_ x: Double) throws(Failure) -> Double {
        guard x >= 0 else { throw Failure(reason: "takes the square root of \(formatNumber(x)), a negative number") }
        return x.squareRoot()
    }

    /// x^y for x ≥ 0, or y a whole number (a negative base with a fractional power has no real value).
    static func pow(_ x: Double, _ y: Double) throws(Failure) -> Double {
        guard x >= 0 || y == y.rounded(.towardZero) else {
            throw Failure(reason: "raises \(formatNumber(x)), a negative number, to \(formatNumber(y)), which is not a whole number")
        }
        return Foundation.pow(x, y)
    }

    /// The CSS / Core Animation cubic-bezier timing curve from (0, 0) to (1, 1) through the
    /// control points (x1, y1) and (x2, y2), read as y at x = u: 0 for u ≤ 0, 1 for u ≥ 1.
    ///
    /// Computed by Throbber's one solver, `CubicBezierTiming` (x(s) = 3·x1·s·(1−s)² +
    /// 3·x2·s²·(1−s) + s³ solved by bisection until high − low ≤ 1e-12, y read at the last
    /// interval's midpoint), so an expression's curve and a scene file's timing function agree
    /// bit for bit. x1 and x2 in [0, 1] keep x(s) increasing, which bisection needs.
    static func bezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ u: Double) throws(Failure) -> Double {
        guard x1 >= 0, x1 <= 1 else { throw Failure(reason: "has x1 = \(formatNumber(x1)) outside [0, 1]") }
        guard x2 >= 0, x2 <= 1 else { throw Failure(reason: "has x2 = \(formatNumber(x2)) outside [0, 1]") }
        return CubicBezierTiming(x1: x1, y1: y1, x2: x2, y2: y2).progress(at: u)
    }

    // MARK: Colours

    /// Checks that each of `components` (named for the message) is in [0, 1].
    static func checkUnit(_ components: [(name: String, value: Double)]) throws(Failure) {
        for (name, value) in components where !(value >= 0 && value <= 1) {
            throw Failure(reason: "has \(name) = \(formatNumber(value)) outside [0, 1]")
        }
    }

    /// The colour (r, g, b, a), each component in [0, 1].
    static func rgba(_ r: Double, _ g: Double, _ b: Double, _ a: Double) throws(Failure) -> RGBA {
        try checkUnit([("r", r), ("g", g), ("b", b), ("a", a)])
        return RGBA(r, g, b, a)
    }

    /// The colour of hue, saturation and brightness, as UIKit's `colorWithHue:…` (`RGBA.hsb`).
    static func hsb(_ h: Double, _ s: Double, _ b: Double, _ a: Double) throws(Failure) -> RGBA {
        try checkUnit([("h", h), ("s", s), ("b", b), ("a", a)])
        return RGBA.hsb(h, s, b, a)
    }

    /// `c` with alpha `a`.
    static func withAlpha(_ c: RGBA, _ a: Double) throws(Failure) -> RGBA {
        try checkUnit([("a", a)])
        return c.withAlpha(a)
    }

    /// `c`'s hue, saturation and alpha with HSB brightness `b`: the HSB round trip the
    /// activity indicator's leaves use (`Activity.colorOfLeaf`).
    static func withBrightness(_ c: RGBA, _ b: Double) throws(Failure) -> RGBA {
        try checkUnit([("b", b)])
        let (hue, saturation, _) = c.hsb
        return RGBA.hsb(hue, saturation, b, c.a)
    }

    /// The per-component lerp from `c1` to `c2` by `u` ∈ [0, 1].
    static func mix(_ c1: RGBA, _ c2: RGBA, _ u: Double) throws(Failure) -> RGBA {
        try checkUnit([("u", u)])
        return RGBA(lerp(c1.r, c2.r, u), lerp(c1.g, c2.g, u), lerp(c1.b, c2.b, u), lerp(c1.a, c2.a, u))
    }
}
