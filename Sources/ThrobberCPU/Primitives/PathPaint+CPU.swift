import Foundation
import Throbber

// The path row's paints (SPEC §9 "Paints"): twins of the gradient functions of
// Shaders/Primitives/path.glsl, same names, same order, and a path's paint as the CPU renderer
// reads it at a pixel centre (path.glsl's `pathColor`).

/// SPEC §9 "Paints", linear from p0 to p1: t = clamp(((q − p0)·(p1 − p0)) / |p1 − p0|², 0, 1);
/// p0 = p1 paints the last stop (t = 1). Twin of path.glsl's `linearGradientT`.
@inline(__always) func linearGradientT(_ qx: Float, _ qy: Float, _ p0x: Float, _ p0y: Float, _ p1x: Float, _ p1y: Float) -> Float {
    let dx = p1x - p0x, dy = p1y - p0y
    let length2 = dx * dx + dy * dy
    if length2 == 0 { return 1 }
    return clamp01(((qx - p0x) * dx + (qy - p0y) * dy) / length2)
}

/// SPEC §9 "Paints", radial around c with radius r and focal point f: the largest t ≥ 0 with
/// |q − f − t·(c − f)| = t·r, clamped to [0, 1]; f = c gives the plain clamp(|q − c| / r, 0, 1),
/// r = 0 paints the last stop (t = 1). With d = c − f and e = q − f the condition is
/// (d·d − r²)·t² − 2(e·d)·t + e·e = 0, whose leading coefficient is negative (|f − c| ≤ 0.99·r),
/// so its larger root is (e·d − sqrt((e·d)² − (d·d − r²)·e·e)) / (d·d − r²). Twin of path.glsl's
/// `radialGradientT`.
@inline(__always) func radialGradientT(_ qx: Float, _ qy: Float, _ cx: Float, _ cy: Float, _ r: Float, _ fx: Float, _ fy: Float) -> Float {
    if r <= 0 { return 1 }
    if fx == cx && fy == cy {
        let dx = qx - cx, dy = qy - cy
        return clamp01((dx * dx + dy * dy).squareRoot() / r)
    }
    let dx = cx - fx, dy = cy - fy, ex = qx - fx, ey = qy - fy
    let a = dx * dx + dy * dy - r * r, ed = ex * dx + ey * dy, cc = ex * ex + ey * ey
    let t = (ed - max(0, ed * ed - a * cc).squareRoot()) / a
    return clamp01(t)
}

/// SPEC §9 "Paints": the straight colour at `t` of stops sorted by offset, interpolated linearly in
/// straight sRGB and alpha between the two around t (GLSL's mix, x·(1 − f) + y·f); before the
/// first stop the first colour, after the last the last; where several share an offset, the last
/// of them holds at exactly that t. No stop at all is transparent. Twin of path.glsl's
/// `gradientColor`.
@inline(__always) func gradientColor(_ t: Float, _ offsets: UnsafeBufferPointer<Float>,
                                     _ colors: UnsafeBufferPointer<SIMD4<Float>>) -> SIMD4<Float> {
    let count = offsets.count
    guard count > 0 else { return SIMD4() }
    var k = -1
    for s in 0..<count where offsets[s] <= t { k = s }
    if k < 0 { return colors[0] }
    if k == count - 1 { return colors[k] }
    let f = (t - offsets[k]) / (offsets[k + 1] - offsets[k])
    return colors[k] * (1 - f) + colors[k + 1] * f
}

/// A path's paint as the CPU renderer reads it (path.glsl's `pathColor`): one colour, its alpha
/// times the opacity, or a gradient read at q = T⁻¹(p), p the pixel centre, its alpha times the
/// opacity. A gradient whose stops are all one colour is that colour; a gradient under a singular
/// transform (nothing is covered then) stands as its last stop.
struct PathShader {
    enum Kind { case solid, linear, radial }

    let kind: Kind
    /// The solid colour, alpha times the opacity; unused by a gradient.
    let color: PaintColor
    let opacity: Float
    /// px → own space (a, b, c, d, tx, ty): q = (a·x + c·y + tx, b·x + d·y + ty).
    let inverse: (a: Float, b: Float, c: Float, d: Float, tx: Float, ty: Float)
    /// Linear: (p0.x, p0.y, p1.x, p1.y); radial: (c.x, c.y, r, 0).
    let geometry: SIMD4<Float>
    /// Radial: the focal point f (c itself without a highlight).
    let focal: SIMD2<Float>
    let offsets: [Float]
    /// The stops' straight colours.
    let colors: [SIMD4<Float>]

    init(_ path: Path) {
        opacity = path.opacity
        var solid: PaintColor?
        var kind = Kind.solid
        var geometry = SIMD4<Float>(), focal = SIMD2<Float>(), stops: [GradientStop] = []
        switch path.shading {
        case .solid(let color):
            solid = color
        case let .linear(from, to, s):
            kind = .linear
            geometry = SIMD4(Float(from.x), Float(from.y), Float(to.x), Float(to.y))
            stops = s
        case let .radial(center, radius, f, s):
            kind = .radial
            geometry = SIMD4(Float(center.x), Float(center.y), Float(radius), 0)
            focal = SIMD2(Float(f.x), Float(f.y))
            stops = s
        }
        self.kind = kind
        self.geometry = geometry
        self.focal = focal
        var faded = solid ?? PaintColor(.clear)
        faded.a *= opacity
        color = faded
        let m = path.paintInverse ?? .identity
        inverse = (Float(m.a), Float(m.b), Float(m.c), Float(m.d), Float(m.tx), Float(m.ty))
        offsets = stops.map(\.offset)
        colors = stops.map { SIMD4($0.color.r, $0.color.g, $0.color.b, $0.color.a) }
    }

    /// The gradient's colour at pixel centre (px, py), its alpha times the opacity.
    @inline(__always)
    func color(_ px: Float, _ py: Float, _ offsets: UnsafeBufferPointer<Float>, _ colors: UnsafeBufferPointer<SIMD4<Float>>) -> PaintColor {
        let m = inverse
        let qx = m.a * px + m.c * py + m.tx, qy = m.b * px + m.d * py + m.ty
        let t = kind == .linear ? linearGradientT(qx, qy, geometry.x, geometry.y, geometry.z, geometry.w)
            : radialGradientT(qx, qy, geometry.x, geometry.y, geometry.z, focal.x, focal.y)
        let c = gradientColor(t, offsets, colors)
        var paint = color
        paint.r = c.x
        paint.g = c.y
        paint.b = c.z
        paint.a = c.w * opacity
        return paint
    }
}

extension Band {
    /// Paints `shader` over columns `range` of band row `r` (pixel centres at `py`) with the
    /// coverage already in `coverageRow`: a solid colour as every row paints one; a gradient
    /// pixel by pixel where the coverage is > 0, the columns of no coverage left as they are.
    @inline(__always)
    func paintCovered(_ r: Int, _ range: Range<Int>, _ shader: PathShader, py: Float) {
        guard shader.kind != .solid else { return paintCovered(r, range, shader.color) }
        guard !range.isEmpty else { return }
        let row = accum + r * width * 4
        shader.offsets.withUnsafeBufferPointer { offsets in
            shader.colors.withUnsafeBufferPointer { colors in
                /// Blends columns [a, b) with the coverage in `coverageRow` and the gradient's colour.
                func blendColumns(_ a: Int, _ b: Int) {
                    guard a < b else { return }
                    cut(r, a, b, materialize: true)
                    for x in a..<b {
                        let c = coverageRow[x]
                        if c > 0 { blend(row + x * 4, shader.color(Float(x) + 0.5, py, offsets, colors), c) }
                    }
                }
                guard shortcuts else { return blendColumns(range.lowerBound, range.upperBound) }
                var x = range.lowerBound
                let end = range.upperBound
                while x < end {
                    x = firstCovered(x, end)
                    let start = x
                    while x < end && coverageRow[x] > 0 { x += 1 }
                    blendColumns(start, x)
                }
            }
        }
    }
}
