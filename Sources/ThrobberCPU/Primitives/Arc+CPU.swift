import Foundation
import Throbber

// The arc's row (Throbber/DrawList/Primitives/Arc.swift): its formulas and coverage, twins of
// Shaders/Primitives/arc.glsl in the same order, and how the CPU renderer paints it.

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

/// SPEC §0 full circle stroke (an arc whose sweep is ≥ 2π): δ = |p − c| − R.
@inline(__always) func circleStrokeCoverage(_ px: Float, _ py: Float, _ cx: Float, _ cy: Float, _ radius: Float,
                                            _ lineWidth: Float) -> Float {
    strokeCoverage(circleDistance(px, py, cx, cy, radius), lineWidth)
}

/// SPEC §0 arc with round caps (`Arc`), under SPEC §5's angle mask when maskRotation ≥ 0
/// (its seam's direction (maskDirectionX, maskDirectionY)).
@inline(__always) func arcCoverage(_ px: Float, _ py: Float, _ cx: Float, _ cy: Float, _ radius: Float, _ lineWidth: Float,
                                   _ start: Float, _ sweep: Float, _ maskRotation: Float,
                                   _ maskDirectionX: Float, _ maskDirectionY: Float) -> Float {
    var coverage = strokeCoverage(arcDistance(px, py, cx, cy, radius, start, sweep), lineWidth)
    if maskRotation >= 0 && coverage > 0 { coverage *= ringMask(px - cx, py - cy, maskDirectionX, maskDirectionY) }
    return coverage
}

extension Arc: CPUPrimitive {
    func prepare(shortcuts: Bool, resources: DrawResources) -> any CPUItem { PreparedArc(arc: self, annulus: annulus) }
}

final class PreparedArc: AreaItem {
    let arc: Arc
    let annulus: Annulus?
    var bounds: PixelRect { arc.bounds }

    init(arc: Arc, annulus: Annulus?) {
        self.arc = arc
        self.annulus = annulus
    }

    func paint(_ band: Band) {
        let a = arc
        // As layers.frag does (Arc+GL): a full circle without a mask is a circleStrokeCoverage;
        // the same value arcCoverage gives it (arcDistance's first branch), with fewer tests.
        if a.isFullCircle && a.maskRotation < 0 {
            band.shade(a.bounds, annulus, a.color) { _, px, py, _ in
                circleStrokeCoverage(px, py, a.centerX, a.centerY, a.radius, a.lineWidth)
            }
        } else {
            band.shade(a.bounds, annulus, a.color) { _, px, py, _ in
                arcCoverage(px, py, a.centerX, a.centerY, a.radius, a.lineWidth, a.start, a.sweep, a.maskRotation,
                            a.maskDirectionX, a.maskDirectionY)
            }
        }
    }

    func paintReference(_ band: Band) {
        let a = arc
        band.shade(a.bounds, annulus, a.color) { _, px, py, _ in
            inside(a.bounds, px, py)
                ? arcCoverage(px, py, a.centerX, a.centerY, a.radius, a.lineWidth, a.start, a.sweep, a.maskRotation,
                              a.maskDirectionX, a.maskDirectionY) : 0
        }
    }
}
