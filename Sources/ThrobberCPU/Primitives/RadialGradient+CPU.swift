import Throbber

// The radial gradient's row (Throbber/DrawList/Primitives/RadialGradient.swift): its coverage,
// twin of Shaders/Primitives/radial-gradient.glsl, and how the CPU renderer paints it.

/// SPEC §7 "Mask" (`RadialGradient`): c = min(1, |p − g| / reach), reach > 0. (`c < 1 ? c : 1` is
/// Swift's `min(1, c)`, written out so the eight-lane twin below visibly compares the same way.)
@inline(__always) func radialGradientCoverage(_ px: Float, _ py: Float, _ gx: Float, _ gy: Float, _ reach: Float) -> Float {
    let dx = px - gx, dy = py - gy
    let c = (dx * dx + dy * dy).squareRoot() / reach
    return c < 1 ? c : 1
}

extension RadialGradient: CPUPrimitive {
    func prepare(shortcuts: Bool, resources: DrawResources) -> any CPUItem { PreparedRadialGradient(self) }
}

final class PreparedRadialGradient: AreaItem {
    let gradient: RadialGradient
    var bounds: PixelRect { gradient.bounds }

    init(_ gradient: RadialGradient) { self.gradient = gradient }

    /// Eight columns at a time (a square root and a division each); a row farther than the reach
    /// from the centre is covered throughout, which an opaque colour writes as one solid run.
    func paint(_ band: Band) {
        let g = gradient
        // |dy| ≥ reach by a part in 10³ keeps sqrt(dx² + dy²) / reach ≥ 1 through the rounding.
        let saturated = g.reach * 1.001
        band.shade(g.bounds, nil, g.color, fullRow: { py in abs(py - g.centerY) >= saturated },
                   RadialGradientCoverage(gx: g.centerX, gy: g.centerY, reach: g.reach))
    }

    /// `radialGradientCoverage` at every pixel centre of the canvas.
    func paintReference(_ band: Band) {
        let g = gradient
        band.shade(g.bounds, nil, g.color) { _, px, py, _ in
            inside(g.bounds, px, py) ? radialGradientCoverage(px, py, g.centerX, g.centerY, g.reach) : 0
        }
    }
}

/// `radialGradientCoverage` of one gradient, a pixel or eight at a time.
struct RadialGradientCoverage: PixelCoverage {
    let gx: Float
    let gy: Float
    let reach: Float

    @inline(__always) func at(_ x: Int, _ px: Float, _ py: Float, solid: Bool) -> Float {
        radialGradientCoverage(px, py, gx, gy, reach)
    }

    static var evaluatesEight: Bool { true }

    /// The same operations lane by lane: dx² + dy², its square root, the division, `c < 1 ? c : 1`.
    @inline(__always) func eight(_ x: Int, _ px: SIMD8<Float>, _ py: Float, solid: SIMDMask<SIMD8<Int32>>) -> SIMD8<Float> {
        let dx = px - SIMD8(repeating: gx), dy = py - gy
        let c = (dx * dx + SIMD8(repeating: dy * dy)).squareRoot() / SIMD8(repeating: reach)
        let one = SIMD8<Float>(repeating: 1)
        return one.replacing(with: c, where: c .< one)
    }
}
