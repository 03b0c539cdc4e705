import Foundation

/// UIKit's timing curves, as SVProgressHUD's show and dismiss animations use them (SPEC §7
/// "Animation").
public enum UIKitTiming {
    /// `UIViewAnimationOptionCurveEaseInOut`: the cubic Bézier (0, 0), (0.42, 0), (0.58, 1), (1, 1)
    /// read as y at x. x(u) = 1.26·u(1 − u)² + 1.74·u²(1 − u) + u³ is solved for u ∈ [0, 1] by
    /// bisection to 1e-12, then e = 3u² − 2u³; e(x) is 0 for x ≤ 0 and 1 for x ≥ 1.
    ///
    /// This is scene files' `ease-in-out` (docs/scene-files.md §4), computed by the one shared
    /// solver, `CubicBezierTiming.easeInOut`, bit for bit as this function's own bisection did
    /// (SceneTimingFunctionTests compares the two over 120,000 x in [−0.1, 1.1]).
    ///
    /// Check values (SPEC §7): e(0.25) = 0.129162, e(0.5) = 0.5, e(0.75) = 0.870838.
    public static func easeInOut(_ x: Double) -> Double {
        CubicBezierTiming.easeInOut.progress(at: x)
    }
}
