import Foundation
import Throbber

/// How one keyframe segment moves from its first value to its next: a map from the segment's
/// fraction x ∈ [0, 1] to progress (docs/scene-files.md §7).
///
/// The caller computes value = v_j + (v_{j+1} − v_j) · progress. Every function gives 1 at x = 1,
/// so a track reaches its last value; an input outside [0, 1] is read at the nearer end (the
/// cubic curves give exactly 0 and 1 there, like `UIKitTiming.easeInOut`).
///
/// | name | curve |
/// |---|---|
/// | `linear` | x |
/// | `ease` | cubic-bezier(0.25, 0.1, 0.25, 1) |
/// | `ease-in` | cubic-bezier(0.42, 0, 1, 1) |
/// | `ease-out` | cubic-bezier(0, 0, 0.58, 1) |
/// | `ease-in-out` | cubic-bezier(0.42, 0, 0.58, 1), `UIKitTiming.easeInOut` bit for bit |
/// | `cubicBezier [x1, y1, x2, y2]` | `CubicBezierTiming` |
/// | `steps n, position` | CSS `steps()`, see `stepProgress(_:count:position:)` |
/// | `hold` | 0 for x < 1: the segment keeps its first value (Lottie hold, CA discrete, CSS step-end) |
public enum TimingFunction: Sendable, Hashable, CustomStringConvertible {
    /// Progress equals x.
    case linear
    /// A cubic Bézier curve: the four named eases or the user's own control points.
    case cubicBezier(CubicBezierTiming)
    /// CSS `steps(count, position)`: `count` jumps, placed by `position`.
    case steps(count: Int, position: StepPosition)
    /// The segment keeps its first value until its end (progress 0 for x < 1, 1 at x = 1).
    case hold

    /// Where a `steps` function puts its jumps: the CSS `<step-position>` keywords.
    ///
    /// With n steps over a segment, `jumpEnd` rises at the end of each step (0, 1/n, …, 1 − 1/n,
    /// and 1 only at x = 1), `jumpStart` at the start of each (1/n, …, 1), `jumpNone` holds both
    /// ends for a step each (0, 1/(n − 1), …, 1), and `jumpBoth` jumps at both ends
    /// (1/(n + 1), …, n/(n + 1), and 1 at x = 1).
    public enum StepPosition: String, Sendable, Hashable, CaseIterable {
        /// The first jump at x = 0: levels 1/n … 1.
        case jumpStart = "jump-start"
        /// The last jump at x = 1: levels 0 … (n − 1)/n, then 1 at the end (CSS's default).
        case jumpEnd = "jump-end"
        /// No jump at either end: levels 0, 1/(n − 1), …, 1, each for 1/n of the segment; n ≥ 2.
        case jumpNone = "jump-none"
        /// A jump at both ends: levels 1/(n + 1) … n/(n + 1), then 1 at the end.
        case jumpBoth = "jump-both"
    }

    /// The names `init(named:)` accepts, in the order a suggestion should list them.
    public static let names = ["linear", "ease", "ease-in", "ease-out", "ease-in-out", "hold"]

    /// The named function, or nil for a name it does not know (so that the caller can suggest one
    /// of `names`).
    ///
    /// Names are exact and case-sensitive, as in CSS and the scene-file format; `steps` and
    /// `cubicBezier` take numbers and are built by the caller with the cases.
    public init?(named name: String) {
        switch name {
        case "linear": self = .linear
        case "ease": self = .cubicBezier(.ease)
        case "ease-in": self = .cubicBezier(.easeIn)
        case "ease-out": self = .cubicBezier(.easeOut)
        case "ease-in-out": self = .cubicBezier(.easeInOut)
        case "hold": self = .hold
        default: return nil
        }
    }

    /// The function's name when it has one (`ease-in-out`, `hold` …), else nil.
    ///
    /// A `cubicBezier` has a name only when its curve is one of the named ones exactly.
    public var name: String? {
        switch self {
        case .linear: "linear"
        case .hold: "hold"
        case .steps: nil
        case .cubicBezier(let curve):
            switch curve {
            case .ease: "ease"
            case .easeIn: "ease-in"
            case .easeOut: "ease-out"
            case .easeInOut: "ease-in-out"
            default: nil
            }
        }
    }

    /// The function as a reader would write it: its name, `cubic-bezier(x1, y1, x2, y2)` or
    /// `steps(n, position)`.
    public var description: String {
        switch self {
        case .linear: "linear"
        case .hold: "hold"
        case .cubicBezier(let c):
            name ?? "cubic-bezier(\([c.x1, c.y1, c.x2, c.y2].map(formatNumber).joined(separator: ", ")))"
        case .steps(let count, let position):
            "steps(\(count), \(position.rawValue))"
        }
    }

    /// Why the function cannot be used, or nil when it can.
    ///
    /// A `cubicBezier` needs x1, x2 ∈ [0, 1] and |y1|, |y2| ≤ 100 (`CubicBezierTiming.problem`);
    /// `steps` needs at least 1 step, or 2 with `jump-none` (its levels are 0 … 1 in n − 1 rises).
    public var problem: String? {
        switch self {
        case .linear, .hold:
            return nil
        case .cubicBezier(let curve):
            return curve.problem
        case .steps(let count, let position):
            let least = position == .jumpNone ? 2 : 1
            guard count >= least else {
                return "steps \(count) with \(position.rawValue): give at least \(least) step\(least == 1 ? "" : "s")"
            }
            return nil
        }
    }

    /// The progress at segment fraction x (see the type's table).
    public func progress(at x: Double) -> Double {
        switch self {
        case .linear:
            return x.isNaN ? 0 : min(max(x, 0), 1)
        case .cubicBezier(let curve):
            return curve.progress(at: x)
        case .steps(let count, let position):
            return Self.stepProgress(x, count: count, position: position)
        case .hold:
            return x >= 1 ? 1 : 0
        }
    }

    /// The progress at segment fraction x: `progress(at:)`.
    @inline(__always)
    public func callAsFunction(_ x: Double) -> Double {
        progress(at: x)
    }

    /// CSS Easing Functions Level 1 "step easing", with x read in [0, 1] and a step that falls on
    /// x (within 1e-9) taken there.
    ///
    /// The CSS algorithm, for input x and n steps:
    /// 1. current step = floor(x · n) — here floor(x · n + 1e-9), so that a frame time that
    ///    rounding puts a hair before a step (0.75 − 1e-12 with 4 steps) is on it;
    /// 2. for `jump-start` and `jump-both`, current step + 1;
    /// 3. (the "before flag" decrement does not apply: a segment has no before phase);
    /// 4. a negative current step with x ≥ 0 becomes 0 (x is clamped to [0, 1], so never);
    /// 5. jumps = n for `jump-start` and `jump-end`, n − 1 for `jump-none`, n + 1 for `jump-both`;
    /// 6. with x ≤ 1, current step is at most jumps;
    /// 7. progress = current step / jumps.
    ///
    /// So `jump-end` is floor(x·n)/n, `jump-start` min((floor(x·n) + 1)/n, 1), `jump-none`
    /// min(floor(x·n), n − 1)/(n − 1) and `jump-both` (floor(x·n) + 1)/(n + 1), 1 at x = 1.
    /// A count below the least valid one (see `problem`) gives hold's 0 before x = 1 and 1 at it.
    public static func stepProgress(_ x: Double, count: Int, position: StepPosition) -> Double {
        let x = x.isNaN ? 0 : min(max(x, 0), 1)
        let n = Double(count)
        let jumps: Double = switch position {
        case .jumpStart, .jumpEnd: n
        case .jumpNone: n - 1
        case .jumpBoth: n + 1
        }
        guard count >= 1, jumps >= 1 else { return x >= 1 ? 1 : 0 }
        var step = (x * n + 1e-9).rounded(.down)
        if position == .jumpStart || position == .jumpBoth { step += 1 }
        return min(step, jumps) / jumps
    }
}
