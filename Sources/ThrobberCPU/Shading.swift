import Foundation
import Throbber

// The shading formulas of SPEC §0 that every primitive shares, in single precision, one function
// per formula. Each has a GLSL twin of the same name, in the same order, in Shaders/common.glsl (a
// vec2 there is two Floats here, x first); keep the two side by side in shape so a reader can check
// one against the other, and let the parity tests keep them equal. Each primitive's own formulas
// and coverage are in its row (Primitives/<Kind>+CPU.swift, twin of Shaders/Primitives/<kind>.glsl).
// The renderer's reference path (`CPURenderer.shortcuts` off) calls exactly the per-primitive
// coverage functions; its fast path calls them too, or their named pieces.

// Literals, rounded to nearest like GLSL's constants (Float.pi is rounded toward zero, one ulp
// below, which would make `sweep >= twoPi` disagree between the two renderers).
let twoPi: Float = 6.28318530717958647692
let halfPi: Float = 1.57079632679489661923

/// GLSL's `mod(x, y) = x − y·floor(x/y)` (not Swift's truncating remainder).
@inline(__always) func glslMod(_ x: Float, _ y: Float) -> Float { x - y * (x / y).rounded(.down) }

@inline(__always) func clamp01(_ v: Float) -> Float { min(max(v, 0), 1) }

/// `clamp01` on eight lanes (the wave's eight-column evaluation, `WaveCoverage.eight`), with the
/// comparisons of `clamp01` (Swift's `max` and `min`: y >= x ? y : x, y < x ? y : x), so every
/// lane, NaN and −0 included, is what it gives.
@inline(__always) func clamp01(_ v: SIMD8<Float>) -> SIMD8<Float> {
    let zero = SIMD8<Float>(repeating: 0), one = SIMD8<Float>(repeating: 1)
    let low = v.replacing(with: zero, where: zero .>= v)
    return low.replacing(with: one, where: one .< low)
}

// How far anti-aliasing reaches from an edge is `Antialiasing.reach` (the core's, which the GLSL
// receives as ANTIALIAS_REACH): every "certainly covered" and "certainly outside" test of the fast
// path starts from it, plus a margin for rounding.

/// What a "certainly covered" test of a circle or a wave keeps beyond `Antialiasing.reach`: 10⁻³ px
/// dwarfs the rounding of a single-precision distance there, so a pixel passing the test has
/// coverage exactly 1 and the formula need not be evaluated (the bytes are the same either way).
let certaintyMargin: Float = 0.001

/// SPEC §0: fill(d) = clamp(0.5 − d, 0, 1), d the signed distance in px (negative inside).
@inline(__always) func fillCoverage(_ d: Float) -> Float { clamp01(Antialiasing.reach - d) }

/// `fillCoverage` on eight lanes.
@inline(__always) func fillCoverage(_ d: SIMD8<Float>) -> SIMD8<Float> { clamp01(SIMD8(repeating: Antialiasing.reach) - d) }

/// SPEC §0: stroke(δ, w) = clamp(min(w/2, 0.5 + δ) + min(w/2, 0.5 − δ), 0, 1).
@inline(__always) func strokeCoverage(_ delta: Float, _ w: Float) -> Float {
    clamp01(min(w * 0.5, Antialiasing.reach + delta) + min(w * 0.5, Antialiasing.reach - delta))
}

/// SPEC §0: |p − c| − r.
@inline(__always) func circleDistance(_ px: Float, _ py: Float, _ cx: Float, _ cy: Float, _ r: Float) -> Float {
    let dx = px - cx, dy = py - cy
    return (dx * dx + dy * dy).squareRoot() - r
}

/// `circleDistance` for eight pixel centres of one row.
@inline(__always) func circleDistance(_ px: SIMD8<Float>, _ py: Float, _ cx: Float, _ cy: Float, _ r: Float) -> SIMD8<Float> {
    let dx = px - SIMD8(repeating: cx), dy = py - cy
    return (dx * dx + SIMD8(repeating: dy * dy)).squareRoot() - SIMD8(repeating: r)
}

/// SPEC §0 rounded box: q in the box's own frame, half extents (hx, hy), corner radius rho.
/// Shared by every kind made of boxes (Boxes, BoxRing); GLSL twin in Shaders/Primitives/boxes.glsl.
@inline(__always) func roundedBoxDistance(_ qx: Float, _ qy: Float, _ hx: Float, _ hy: Float, _ rho: Float) -> Float {
    let kx = abs(qx) - (hx - rho)
    let ky = abs(qy) - (hy - rho)
    let ox = max(kx, 0), oy = max(ky, 0)
    return (ox * ox + oy * oy).squareRoot() + min(max(kx, ky), 0) - rho
}

// Layers.frag's and boxes.frag's `main` (start from the background, paint every item that reaches
// the pixel in list order with its coverage, quantise once with resolvePixel) are the band loop of
// `CPURenderer.render` and `Band.resolve`, turned inside out: item by item over a band of rows
// rather than pixel by pixel; `Band.blend` is common.glsl's `paint`. Each primitive's coverage
// twin is in its row, Primitives/<Kind>+CPU.swift, beside the GLSL of Shaders/Primitives/.

/// Whether pixel centre (px, py) lies inside `bounds`, edges included: an item shades only its
/// bounds (`Primitive.bounds`). Twin of common.glsl's `inside` (1 or 0 there).
@inline(__always) func inside(_ bounds: PixelRect, _ px: Float, _ py: Float) -> Bool {
    !(px < Float(bounds.x0) || py < Float(bounds.y0) || px > Float(bounds.x1) || py > Float(bounds.y1))
}
