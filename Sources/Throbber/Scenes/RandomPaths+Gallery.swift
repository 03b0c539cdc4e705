import Foundation

/// The `paths` scene's seed 0: sixteen fixed cells on a 4 × 4 grid, one feature of SPEC §9 each,
/// so that the parity matrix draws every fill rule, join, cap, dash, trim and paint kind at
/// every scale and several times of the loop.
extension RandomPaths {
    /// The gallery's paths, row by row.
    public static var gallery: [PathSpec] {
        let star = starGeometry(points: 5, step: 2)
        let zigzag = PathGeometry(subpaths: [Subpath(start: PathPoint(-1, 0.8), segments: [
            .line(to: PathPoint(-0.5, -0.8)), .line(to: PathPoint(0, 0.6)), .cubic(PathPoint(0.3, -1), PathPoint(0.6, -1), to: PathPoint(1, 0.8)),
        ])])
        let sharp = PathGeometry(subpaths: [Subpath(start: PathPoint(-1, 0.9), segments: [
            .line(to: PathPoint(-0.6, -0.9)), .line(to: PathPoint(-0.2, 0.9)), .line(to: PathPoint(0.2, -0.9)), .line(to: PathPoint(1, 0.2)),
        ])])
        let ring = PathGeometry(subpaths: [PathSpec.circle(PathPoint(0, 0), 0.8, clockwise: true)])
        let donut = PathGeometry(subpaths: [PathSpec.circle(PathPoint(0, 0), 1, clockwise: true),
                                            PathSpec.circle(PathPoint(0, 0), 0.5, clockwise: false)])
        let sameWay = PathGeometry(subpaths: [PathSpec.rectangle(PathPoint(-1, -1), PathPoint(1, 1), clockwise: true),
                                              PathSpec.rectangle(PathPoint(-0.5, -0.5), PathPoint(0.5, 0.5), clockwise: true)])
        let wave = PathGeometry(subpaths: [Subpath(start: PathPoint(-1, 0), segments: [
            .cubic(PathPoint(-0.5, -1.5), PathPoint(0, 1.5), to: PathPoint(0.4, 0)), .cubic(PathPoint(0.6, -0.6), PathPoint(0.9, -0.6), to: PathPoint(1, 0)),
        ])])
        let dots = PathGeometry(subpaths: [Subpath(start: PathPoint(-0.6, -0.6), closed: true), Subpath(start: PathPoint(0.6, -0.6), segments: [.line(to: PathPoint(0.6, -0.6))]),
                                           Subpath(start: PathPoint(-0.8, 0.5), segments: [.line(to: PathPoint(0.8, 0.5))])])
        let red = solid(0.9, 0.1, 0.1, 1), blue = solid(0.1, 0.3, 0.9, 1), dark = solid(0.1, 0.1, 0.1, 1)
        let sunset = [GradientStop(offset: 0, color: RGBA(1, 0.8, 0, 1)), GradientStop(offset: 0.5, color: RGBA(0.9, 0.2, 0.3, 0.8)),
                      GradientStop(offset: 0.5, color: RGBA(0.2, 0.1, 0.6, 1)), GradientStop(offset: 1, color: RGBA(0, 0.5, 1, 0.3))]
        return [
            // Row 0: fills. A pentagram nonzero, the same evenodd, a donut wound against itself
            // (a hole under both rules) in a linear gradient, two squares wound alike (a hole evenodd only).
            cell(0, star, fill: (.nonzero, red)),
            cell(1, star, fill: (.evenodd, red)),
            cell(2, donut, fill: (.nonzero, .linear(from: PathPoint(-1, -1), to: PathPoint(1, 1), stops: sunset))),
            cell(3, sameWay, fill: (.evenodd, blue), spin: 1),
            // Row 1: the three joins, each with another cap; a miter limit that bevels the sharp turns.
            cell(4, zigzag, stroke: stroke(3, .miter, .butt, dark)),
            cell(5, zigzag, stroke: stroke(3, .round, .round, blue)),
            cell(6, zigzag, stroke: stroke(3, .bevel, .square, red)),
            cell(7, sharp, stroke: stroke(2.5, .miter, .square, limit: 1.5, dark)),
            // Row 2: dashes running with the loop (dots of zero length under round caps, an odd
            // pattern repeated), a trim wrapping through the end, a thin curve, a thick gradient stroke.
            cell(8, ring, stroke: stroke(2, .round, .round, dash: [0, 3], dashRuns: true, blue)),
            cell(9, wave, stroke: stroke(2, .miter, .butt, dash: [4, 1, 2], offset: -1.5, dashRuns: true, red)),
            cell(10, ring, stroke: stroke(3, .miter, .round, dark), trim: PathTrim(start: 0.1, end: 0.6, offset: 0.7), trimRuns: true),
            cell(11, wave, stroke: stroke(0.1, .miter, .butt, dark), opacity: 0.8),
            // Row 3: radial and focal gradients under a skew and an uneven scale, a thick
            // gradient stroke over a translucent fill, a trimmed fill with dots.
            cell(12, donut, fill: (.evenodd, .radial(center: PathPoint(0, 0), radius: 1, highlight: 0, angle: 0, stops: sunset)),
                 skew: 0.6, scaleY: 0.6),
            cell(13, ring, fill: (.nonzero, .radial(center: PathPoint(0.1, 0), radius: 0.9, highlight: 0.7, angle: 225, stops: sunset)),
                 rotation: 0.4, scaleY: 0.7, spin: -1),
            cell(14, star, fill: (.nonzero, solid(0.2, 0.7, 0.3, 0.5)),
                 stroke: stroke(4, .round, .butt, .linear(from: PathPoint(-1, 0), to: PathPoint(1, 0), stops: sunset)), opacity: 0.7),
            cell(15, dots, fill: (.nonzero, solid(0.5, 0.5, 0.5, 1)), stroke: stroke(3, .miter, .round, red),
                 trim: PathTrim(start: 0, end: 0.8, offset: 0.1), trimRuns: true),
        ]
    }

    /// The gallery's cell `index` (row by row on the 4 × 4 grid), its own space [−1, 1]² filling
    /// 80 % of the cell.
    static func cell(_ index: Int, _ geometry: PathGeometry, fill: (PathCoverage.FillRule, PathPaint)? = nil,
                     stroke: (style: StrokeStyle, paint: PathPaint, dashRuns: Bool)? = nil, trim: PathTrim? = nil,
                     trimRuns: Bool = false, rotation: Double = 0, skew: Double = 0, scaleY: Double = 1, spin: Double = 0,
                     opacity: Double = 1) -> PathSpec {
        PathSpec(geometry: geometry, center: PathPoint((Double(index % 4) + 0.5) / 4, (Double(index / 4) + 0.5) / 4), radius: 0.1,
                 rotation: rotation, skew: skew, scaleX: 1, scaleY: scaleY, spin: spin, fill: fill.map { (rule: $0.0, paint: $0.1) },
                 stroke: stroke.map { (style: $0.style, paint: $0.paint) }, hairline: false, dashRuns: stroke?.dashRuns ?? false,
                 trim: trim, trimRuns: trimRuns, opacity: opacity)
    }

    /// A stroke of the gallery (width and dashes in pt).
    static func stroke(_ width: Double, _ join: StrokeJoin, _ cap: StrokeCap, limit: Double = 4, dash: [Double] = [],
                       offset: Double = 0, dashRuns: Bool = false, _ paint: PathPaint) -> (style: StrokeStyle, paint: PathPaint, dashRuns: Bool) {
        (StrokeStyle(width: width, join: join, miterLimit: limit, cap: cap, dash: dash, dashOffset: offset), paint, dashRuns)
    }

    /// One colour.
    static func solid(_ r: Double, _ g: Double, _ b: Double, _ a: Double) -> PathPaint { .solid(PaintColor(RGBA(r, g, b, a))) }

    /// The star polygon {points/step} on the unit circle, its first corner at the top.
    static func starGeometry(points: Int, step: Int) -> PathGeometry {
        let corners = (0..<points).map { i -> PathPoint in
            let angle = -Double.pi / 2 + 2 * Double.pi * Double(i * step % points) / Double(points)
            return PathPoint(cos(angle), sin(angle))
        }
        return PathGeometry(subpaths: [Subpath(start: corners[0], segments: corners.dropFirst().map { .line(to: $0) }, closed: true)])
    }
}
