import Foundation
import Throbber

extension Band {
    func paint(_ item: DrawItem, _ columns: WaveColumns?) {
        switch item {
        case .disc(let d):
            shade(d.bounds, item.annulus, d.color, circle: (d.centerX, d.centerY, d.radius), fullRow: { _ in true }) { _, px, py, solid in
                solid ? 1 : fillCoverage(circleDistance(px, py, d.centerX, d.centerY, d.radius))
            }
        case .wave(let w):
            let columns = columns!
            let clip = w.clipRadius >= 0 ? (w.clipCenterX, w.clipCenterY, w.clipRadius) : nil
            columns.height.withUnsafeBufferPointer { heights in
                columns.norm.withUnsafeBufferPointer { norms in
                    // Rows below every crest (and above the bottom edge) are covered wherever the clip is.
                    let fullRow = { (py: Float) -> Bool in py >= columns.lowestFullRow && fillCoverage(py - w.bottom) == 1 }
                    shade(w.bounds, item.annulus, w.color, circle: clip, fullRow: fullRow) { x, px, py, solid in
                        let i = x - columns.x0
                        // waveDistance with f and sqrt(1 + f′²) read from the column cache; rows
                        // certainly more than half a pixel below the curve are covered without
                        // the division (the 10⁻³ px margin dwarfs its rounding).
                        var coverage: Float = 1
                        if py < heights[i] + 0.501 * norms[i] {
                            coverage = fillCoverage((heights[i] - py) / norms[i])
                            if coverage == 0 { return 0 }
                        }
                        if clip != nil && !solid {
                            coverage *= fillCoverage(circleDistance(px, py, w.clipCenterX, w.clipCenterY, w.clipRadius))
                        }
                        return coverage * fillCoverage(py - w.bottom)
                    }
                }
            }
        case .arc(let a):
            shade(a.bounds, item.annulus, a.color) { _, px, py, _ in
                var coverage = strokeCoverage(arcDistance(px, py, a.centerX, a.centerY, a.radius, a.start, a.sweep),
                                              a.lineWidth)
                if a.maskRotation >= 0 && coverage > 0 {
                    coverage *= ringMask(px - a.centerX, py - a.centerY, a.maskDirectionX, a.maskDirectionY)
                }
                return coverage
            }
        case .quads(let batch):
            guard batch.bounds.y0 < y1, batch.bounds.y1 > y0 else { return }
            for (q, rect) in zip(batch.instances, batch.instanceBounds) where rect.y0 < y1 && rect.y1 > y0 {
                let cosR = cos(q.rotation), sinR = sin(q.rotation)
                let coverage = { (_: Int, px: Float, py: Float, _: Bool) -> Float in
                    // The pixel in the box's own frame: q = R(−θ)·(p − c).
                    let dx = px - q.centerX, dy = py - q.centerY
                    let qx = dx * cosR + dy * sinR
                    let qy = -dx * sinR + dy * cosR
                    return fillCoverage(roundedBoxDistance(qx, qy, q.halfX, q.halfY, q.cornerRadius))
                }
                // A tilted box covers a slanted strip of its bounding square: visit only the
                // columns of each row inside the box grown by the anti-aliased edge.
                for y in max(rect.y0, y0)..<min(rect.y1, y1) {
                    let py = Float(y) + 0.5
                    let columns = shortcuts ? q.rowColumns(py, cos: cosR, sin: sinR).clamped(to: rect.x0..<rect.x1) : rect.x0..<rect.x1
                    // An opaque box writes its certain interior as a run, without distances.
                    let full = shortcuts && q.color.a == 1 ? q.certainlyCovered(py, cos: cosR, sin: sinR) : nil
                    if !columns.isEmpty { run(y, py, columns, .empty, full, q.color, coverage) }
                }
            }
        }
    }
}
