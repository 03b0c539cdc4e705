import Foundation

/// UIKit's timing curves, as SVProgressHUD's show and dismiss animations use them (SPEC §7
/// "Animation").
public enum UIKitTiming {
    /// `UIViewAnimationOptionCurveEaseInOut`: the cubic Bézier (0, 0), (0.42, 0), (0.58, 1), (1, 1)
    /// read as y at x. x(u) = 1.26·u(1 − u)² + 1.74·u²(1 − u) + u³ is solved for u ∈ [0, 1] by
    /// bisection to 1e-12, then e = 3u² − 2u³; e(x) is 0 for x ≤ 0 and 1 for x ≥ 1.
    ///
    /// Check values (SPEC §7): e(0.25) = 0.129162, e(0.5) = 0.5, e(0.75) = 0.870838.
    public static func easeInOut(_ x: Double) -> Double {
        // The curve's ends exactly, so a fade starts at α 0 and ends at α 1.
        guard x > 0 else { return 0 }
        guard x < 1 else { return 1 }
        var low = 0.0, high = 1.0
        while high - low > 1e-12 {
            let u = (low + high) / 2
            let bezierX = 1.26 * u * (1 - u) * (1 - u) + 1.74 * u * u * (1 - u) + u * u * u
            if bezierX < x { low = u } else { high = u }
        }
        let u = (low + high) / 2
        return 3 * u * u - 2 * u * u * u
    }
}
