import Throbber

// The path's row (Throbber/DrawList/Primitives/Path.swift, SPEC §9): its coverage and paint
// formulas, twins of Shaders/Primitives/path.glsl in the same order and under the same names (a
// vec2 there is two Floats here, x first), and how the CPU renderer paints a path. The chords both
// read are laid out by PathBands.swift (the GL row's data, PathGLItem); the paints' colours are
// PathPaint+CPU.swift's.

/// The average of clamp(u, 0, 1) for u running linearly from `u0` to `u1` (the core's
/// `PathCoverage.averageClamp` in single precision): the integral of the clamp over [lo, hi]
/// divided by hi − lo, written so that single precision loses nothing when hi − lo is small
/// ((b − a)·(b + a)/2 is exact where neither end is clamped). Twin of path.glsl's `averageClamp`.
@inline(__always) func averageClamp(_ u0: Float, _ u1: Float) -> Float {
    let lo = min(u0, u1), hi = max(u0, u1)
    if hi <= lo { return clamp01(lo) }
    let a = clamp01(lo), b = clamp01(hi)
    return ((b - a) * (b + a) * 0.5 + max(0, hi - max(lo, 1))) / (hi - lo)
}

/// SPEC §9 "Coverage of a fill": what the chord from (ax, ay) to (bx, by) adds to the
/// accumulated signed area of pixel (i, j), sign(by − ay) · ∫ clamp(i + 1 − x(y), 0, 1) dy over
/// y in [j, j + 1] ∩ [min y, max y]; a horizontal chord adds nothing. Twin of path.glsl's
/// `pathSegmentArea(vec2 a, vec2 b, vec2 pixel)`.
@inline(__always) func pathSegmentArea(_ ax: Float, _ ay: Float, _ bx: Float, _ by: Float, _ i: Float, _ j: Float) -> Float {
    if ay == by { return 0 }
    let (topX, topY, bottomX, bottomY) = ay < by ? (ax, ay, bx, by) : (bx, by, ax, ay)
    let y0 = max(topY, j), y1 = min(bottomY, j + 1)
    if y1 <= y0 { return 0 }
    let slope = (bottomX - topX) / (bottomY - topY)
    let x0 = topX + (y0 - topY) * slope, x1 = topX + (y1 - topY) * slope
    let area = (y1 - y0) * averageClamp(i + 1 - x0, i + 1 - x1)
    return by > ay ? area : -area
}

/// SPEC §9: the coverage of a pixel whose accumulated signed area is `area`; `nonzero`
/// c = min(1, |A|), `evenodd` a = |A| mod 2, c = min(a, 2 − a). Twin of path.glsl's
/// `pathFillCoverage`.
@inline(__always) func pathFillCoverage(_ area: Float, _ evenOdd: Bool) -> Float {
    if !evenOdd { return min(1, abs(area)) }
    let a = glslMod(abs(area), 2)
    return min(a, 2 - a)
}

extension Path: CPUPrimitive {
    func prepare(shortcuts: Bool, resources: DrawResources) -> any CPUItem { PreparedPath(self) }
}

/// A path as the CPU renderer paints it: its chords clipped to its bounds and bucketed by bands
/// of rows (`PathBands`), its rule, and its paint (`PathShader`), worked out once and kept while
/// the item is unchanged (`PreparedItems`): a path that only moves or recolours is clipped and
/// bucketed again, never flattened again (its outline comes from `PathOutlineCache`).
final class PreparedPath: AreaItem {
    let bounds: PixelRect
    let chords: PathBands
    let evenOdd: Bool
    let shader: PathShader

    init(_ path: Path) {
        bounds = path.bounds
        chords = PathBands(path.outline, bounds: path.bounds)
        evenOdd = path.outline.rule == .evenodd
        shader = PathShader(path)
    }

    /// The scanline accumulation (`PathBands.accumulate`, then `PathBands.scan`): the same
    /// numbers as `paintReference`'s, but for single precision's rounding, which sums the
    /// chords' parts in another order.
    func paint(_ band: Band) {
        let top = max(bounds.y0, band.y0), bottom = min(bounds.y1, band.y1)
        guard top < bottom, bounds.x0 < bounds.x1 else { return }
        chords.paint(band, rows: top..<bottom, evenOdd: evenOdd, shader: shader)
    }

    /// path.glsl's `pathCoverage` at every pixel of the bounds: A summed over the chords of the
    /// pixel's band by `pathSegmentArea`, read by `pathFillCoverage`, painted by `pathColor`.
    func paintReference(_ band: Band) {
        let top = max(bounds.y0, band.y0), bottom = min(bounds.y1, band.y1)
        guard top < bottom, bounds.x0 < bounds.x1 else { return }
        let x0 = bounds.x0, x1 = bounds.x1
        chords.chords.withUnsafeBufferPointer { all in
            for y in top..<bottom {
                let j = Float(y - bounds.y0)
                let list = chords.bucket(row: y)
                for x in x0..<x1 {
                    let i = Float(x - x0)
                    var area: Float = 0
                    for k in list {
                        let c = all[k]
                        area += pathSegmentArea(c.x, c.y, c.z, c.w, i, j)
                    }
                    band.coverageRow[x] = pathFillCoverage(area, evenOdd)
                }
                band.paintCovered(y - band.y0, x0..<x1, shader, py: Float(y) + 0.5)
            }
        }
    }
}
