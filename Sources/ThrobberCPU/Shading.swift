import Foundation

// The shading formulas of SPEC §0, in single precision, one function per formula.
// Each has a GLSL twin of the same name in Shaders/common.glsl; keep the two side by side in
// shape so a reader can check one against the other, and let the parity tests keep them equal.

// Literals, rounded to nearest like GLSL's constants (Float.pi is rounded toward zero, one ulp
// below, which would make `sweep >= twoPi` disagree between the two renderers).
let twoPi: Float = 6.28318530717958647692
let halfPi: Float = 1.57079632679489661923

/// GLSL's `mod(x, y) = x − y·floor(x/y)` (not Swift's truncating remainder).
@inline(__always) func glslMod(_ x: Float, _ y: Float) -> Float { x - y * (x / y).rounded(.down) }

@inline(__always) func clamp01(_ v: Float) -> Float { min(max(v, 0), 1) }

/// SPEC §0: fill(d) = clamp(0.5 − d, 0, 1), d the signed distance in px (negative inside).
@inline(__always) func fillCoverage(_ d: Float) -> Float { clamp01(0.5 - d) }

/// SPEC §0: stroke(δ, w) = clamp(min(w/2, 0.5 + δ) + min(w/2, 0.5 − δ), 0, 1).
@inline(__always) func strokeCoverage(_ delta: Float, _ w: Float) -> Float {
    clamp01(min(w * 0.5, 0.5 + delta) + min(w * 0.5, 0.5 - delta))
}

/// SPEC §0: |p − c| − r.
@inline(__always) func circleDistance(_ px: Float, _ py: Float, _ cx: Float, _ cy: Float, _ r: Float) -> Float {
    let dx = px - cx, dy = py - cy
    return (dx * dx + dy * dy).squareRoot() - r
}

/// SPEC §0 "below a curve" for f(x) = amplitude·sin(k·(x − originX) + phase) + baseline:
/// d = (f(x) − y) / sqrt(1 + f′(x)²).
@inline(__always) func waveDistance(_ px: Float, _ py: Float, _ originX: Float, _ amplitude: Float,
                                    _ k: Float, _ phase: Float, _ baseline: Float) -> Float {
    let arg = k * (px - originX) + phase
    let f = amplitude * sin(arg) + baseline
    let slope = amplitude * k * cos(arg)
    return (f - py) / (1 + slope * slope).squareRoot()
}

/// SPEC §0 rounded box: q in the box's own frame, half extents (hx, hy), corner radius rho.
@inline(__always) func roundedBoxDistance(_ qx: Float, _ qy: Float, _ hx: Float, _ hy: Float, _ rho: Float) -> Float {
    let kx = abs(qx) - (hx - rho)
    let ky = abs(qy) - (hy - rho)
    let ox = max(kx, 0), oy = max(ky, 0)
    return (ox * ox + oy * oy).squareRoot() + min(max(kx, ky), 0) - rho
}

/// The clock angle of offset (dx, dy): 0 at 12 o'clock, growing clockwise (y down), in (−π/2, 3π/2].
@inline(__always) func clockAngle(_ dx: Float, _ dy: Float) -> Float { atan2(dy, dx) + halfPi }

/// SPEC §0 arc: δ = ||p − c| − R| where the pixel's clock angle lies within the arc, else the
/// distance to the nearer end point (round caps); a full circle uses |p − c| − R.
@inline(__always) func arcDistance(_ px: Float, _ py: Float, _ cx: Float, _ cy: Float, _ radius: Float,
                                   _ start: Float, _ sweep: Float) -> Float {
    let dx = px - cx, dy = py - cy
    let dist = (dx * dx + dy * dy).squareRoot()
    if sweep >= twoPi { return dist - radius }
    let relative = glslMod(clockAngle(dx, dy) - start, twoPi)
    if relative <= sweep { return abs(dist - radius) }
    let t0 = start - halfPi
    let t1 = start + sweep - halfPi
    let e0x = cx + radius * cos(t0) - px, e0y = cy + radius * sin(t0) - py
    let e1x = cx + radius * cos(t1) - px, e1y = cy + radius * sin(t1) - py
    return min((e0x * e0x + e0y * e0y).squareRoot(), (e1x * e1x + e1y * e1y).squareRoot())
}

/// SPEC §5: SVProgressHUD's angle-mask profile m(x) = 0.5x + 1.5x² − x³, x in [0, 1).
@inline(__always) func angleMask(_ x: Float) -> Float { 0.5 * x + 1.5 * x * x - x * x * x }

/// SPEC §5: the mask at offset (dx, dy) from the ring centre, x = ((ψ − rotation) mod 2π) / 2π,
/// with the seam (x jumping from 1 to 0) given as its direction (Arc.maskDirectionX/Y).
///
/// Which side of the seam a pixel lies on is decided by comparing two products, which round
/// the same way in every implementation; an angle from atan would put pixels on the seam (a
/// diagonal at 135°, t = k + 0.375 s) on either side, and x there is 0 on one, 1 on the other.
/// The centre itself (no angle) has x = 0.
@inline(__always) func ringMask(_ dx: Float, _ dy: Float, _ directionX: Float, _ directionY: Float) -> Float {
    let ahead = directionX * dy >= directionY * dx
    let along = directionX * dx + directionY * dy
    let across = abs(directionX * dy - directionY * dx)
    let turn = along == 0 && across == 0 ? 0 : atan2(across, along) / twoPi
    return angleMask(ahead ? turn : 1 - turn)
}
