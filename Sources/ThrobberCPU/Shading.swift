import Foundation
import Throbber

// The shading formulas of SPEC §0, in single precision, one function per formula, then the
// coverage of each primitive built from them. Each has a GLSL twin of the same name, in the same
// order, in Shaders/common.glsl (a vec2 there is two Floats here, x first); keep the two side by
// side in shape so a reader can check one against the other, and let the parity tests keep them
// equal. The renderer's reference path (`CPURenderer.shortcuts` off) calls exactly the
// per-primitive functions below; its fast path calls them too, or their named pieces.

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

/// How far anti-aliasing reaches from an edge, in px (SPEC §0): fill(d) = clamp(0.5 − d, 0, 1)
/// ramps over one pixel centred on the edge, so coverage is exactly 1 at d ≤ −½ and exactly 0 at
/// d ≥ ½ (the 0.5 of fill and stroke, and of their GLSL twins). Every "certainly covered" and
/// "certainly outside" test of the fast path starts from it, plus a margin for rounding. (The
/// bounds the core grows by 1 px, and boxes.vert's quads grown by 1.0, are this reach plus room
/// for the rounding of the bounds themselves.)
let antialiasReach: Float = 0.5

/// What a "certainly covered" test of a circle or a wave keeps beyond `antialiasReach`: 10⁻³ px
/// dwarfs the rounding of a single-precision distance there, so a pixel passing the test has
/// coverage exactly 1 and the formula need not be evaluated (the bytes are the same either way).
let certaintyMargin: Float = 0.001

/// SPEC §0: fill(d) = clamp(0.5 − d, 0, 1), d the signed distance in px (negative inside).
@inline(__always) func fillCoverage(_ d: Float) -> Float { clamp01(antialiasReach - d) }

/// `fillCoverage` on eight lanes.
@inline(__always) func fillCoverage(_ d: SIMD8<Float>) -> SIMD8<Float> { clamp01(SIMD8(repeating: antialiasReach) - d) }

/// SPEC §0: stroke(δ, w) = clamp(min(w/2, 0.5 + δ) + min(w/2, 0.5 − δ), 0, 1).
@inline(__always) func strokeCoverage(_ delta: Float, _ w: Float) -> Float {
    clamp01(min(w * 0.5, antialiasReach + delta) + min(w * 0.5, antialiasReach - delta))
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

/// SPEC §0 "below a curve" for f(x) = amplitude·sin(k·(x − originX) + phase) + baseline:
/// d = (f(x) − y) / sqrt(1 + f′(x)²). The composition of its two pieces, the column part
/// (`waveColumn`, x only) and the pixel part (`curveDistance`), which `WaveColumns` uses apart:
/// GLSL's waveDistance is the same expressions written in one body.
@inline(__always) func waveDistance(_ px: Float, _ py: Float, _ originX: Float, _ amplitude: Float,
                                    _ k: Float, _ phase: Float, _ baseline: Float) -> Float {
    let column = waveColumn(px, originX, amplitude, k, phase, baseline)
    return curveDistance(py, column.height, column.norm)
}

/// The part of `waveDistance` that depends on x only: the curve's height f(x) and the norm
/// sqrt(1 + f′(x)²), f′(x) = amplitude·k·cos(k·(x − originX) + phase) (SPEC §0 "below a curve").
@inline(__always) func waveColumn(_ px: Float, _ originX: Float, _ amplitude: Float, _ k: Float, _ phase: Float,
                                  _ baseline: Float) -> (height: Float, norm: Float) {
    let arg = k * (px - originX) + phase
    let f = amplitude * sin(arg) + baseline
    let slope = amplitude * k * cos(arg)
    return (f, (1 + slope * slope).squareRoot())
}

/// The part of `waveDistance` per pixel: d = (f(x) − y) / sqrt(1 + f′(x)²), given the column's
/// `waveColumn` (SPEC §0 "below a curve").
@inline(__always) func curveDistance(_ py: Float, _ height: Float, _ norm: Float) -> Float { (height - py) / norm }

/// `curveDistance` for eight columns of one row.
@inline(__always) func curveDistance(_ py: Float, _ height: SIMD8<Float>, _ norm: SIMD8<Float>) -> SIMD8<Float> {
    (height - SIMD8(repeating: py)) / norm
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

// Coverage of one primitive at pixel centre (px, py), per DrawItem case: the twins of common.glsl's
// functions of the same names, which layers.frag and boxes.frag call. `Band.paint` calls them
// (the column cache of a wave calls `waveColumn` and `curveDistance`, the pieces of `waveDistance`).
//
// layers.frag's and boxes.frag's `main` (start from the background, paint every item that
// reaches the pixel in list order with its coverage, quantise once with resolvePixel) are the
// band loop of `CPURenderer.render` and `Band.resolve`, turned inside out: item by item over a
// band of rows rather than pixel by pixel; `Band.blend` is common.glsl's `paint`.
//
// ringBoxCoverage has no twin: it finds a QuadRing's boxes from the pixel's angle, turning the
// base box in single precision, while the CPU renderer paints the batch's instances themselves
// (the boxes the ring describes, placed in double precision) with `boxCoverage`, one by one.
// `inside` is the bounds every item is shaded within (`Band.shade` visits only their pixels).

/// SPEC §0 filled circle (DrawItem.disc): circle = (cx, cy, r).
@inline(__always) func discCoverage(_ px: Float, _ py: Float, _ cx: Float, _ cy: Float, _ r: Float) -> Float {
    fillCoverage(circleDistance(px, py, cx, cy, r))
}

/// SPEC §0 "below a curve" (DrawItem.wave) and above an anti-aliased bottom edge (Wave.noBottom
/// = 1e30: none), with no clip circle.
@inline(__always) func waveBandCoverage(_ px: Float, _ py: Float, _ originX: Float, _ amplitude: Float, _ k: Float,
                                        _ phase: Float, _ baseline: Float, _ bottom: Float) -> Float {
    fillCoverage(waveDistance(px, py, originX, amplitude, k, phase, baseline)) * fillCoverage(py - bottom)
}

/// The same clipped to a circle (clipRadius < 0: none).
@inline(__always) func waveCoverage(_ px: Float, _ py: Float, _ originX: Float, _ amplitude: Float, _ k: Float,
                                    _ phase: Float, _ baseline: Float, _ bottom: Float,
                                    _ clipX: Float, _ clipY: Float, _ clipRadius: Float) -> Float {
    var coverage = waveBandCoverage(px, py, originX, amplitude, k, phase, baseline, bottom)
    if clipRadius >= 0 { coverage *= fillCoverage(circleDistance(px, py, clipX, clipY, clipRadius)) }
    return coverage
}

/// SPEC §0 full circle stroke (an arc whose sweep is ≥ 2π): δ = |p − c| − R.
@inline(__always) func circleStrokeCoverage(_ px: Float, _ py: Float, _ cx: Float, _ cy: Float, _ radius: Float,
                                            _ lineWidth: Float) -> Float {
    strokeCoverage(circleDistance(px, py, cx, cy, radius), lineWidth)
}

/// SPEC §0 arc with round caps (DrawItem.arc), under SPEC §5's angle mask when maskRotation ≥ 0
/// (its seam's direction (maskDirectionX, maskDirectionY)).
@inline(__always) func arcCoverage(_ px: Float, _ py: Float, _ cx: Float, _ cy: Float, _ radius: Float, _ lineWidth: Float,
                                   _ start: Float, _ sweep: Float, _ maskRotation: Float,
                                   _ maskDirectionX: Float, _ maskDirectionY: Float) -> Float {
    var coverage = strokeCoverage(arcDistance(px, py, cx, cy, radius, start, sweep), lineWidth)
    if maskRotation >= 0 && coverage > 0 { coverage *= ringMask(px - cx, py - cy, maskDirectionX, maskDirectionY) }
    return coverage
}

/// SPEC §0 instanced rounded box (a QuadInstance): the pixel in the box's own frame is
/// q = R(−θ)·(p − c), with the axis (cos θ, sin θ) computed once per box.
@inline(__always) func boxCoverage(_ px: Float, _ py: Float, _ cx: Float, _ cy: Float, _ halfX: Float, _ halfY: Float,
                                   _ axisX: Float, _ axisY: Float, _ corner: Float) -> Float {
    let dx = px - cx, dy = py - cy
    let qx = dx * axisX + dy * axisY
    let qy = -dx * axisY + dy * axisX
    return fillCoverage(roundedBoxDistance(qx, qy, halfX, halfY, corner))
}

/// The coverage of one item of a draw list at a pixel centre, 0 outside its bounds (boxes.frag's
/// records, common.glsl's itemCoverage); a quad batch's records are its boxes, one `boxCoverage`
/// each, so a batch is not one item here (0).
@inline(__always) func itemCoverage(_ px: Float, _ py: Float, _ item: DrawItem) -> Float {
    let bounds = item.bounds
    if px < Float(bounds.x0) || py < Float(bounds.y0) || px > Float(bounds.x1) || py > Float(bounds.y1) { return 0 }
    switch item {
    case .disc(let d): return discCoverage(px, py, d.centerX, d.centerY, d.radius)
    case .wave(let w):
        return waveCoverage(px, py, w.originX, w.amplitude, w.k, w.phase, w.baseline, w.bottom,
                            w.clipCenterX, w.clipCenterY, w.clipRadius)
    case .arc(let a):
        return arcCoverage(px, py, a.centerX, a.centerY, a.radius, a.lineWidth, a.start, a.sweep, a.maskRotation,
                           a.maskDirectionX, a.maskDirectionY)
    case .quads: return 0
    }
}
