import Foundation
import Throbber

extension Band {
    /// Paints `item` over the band's rows: with `shortcuts` by the fast path, without by the
    /// reference path (`paintReference`). Both call the per-primitive coverage functions of
    /// Shading.swift, the twins of common.glsl's; the fast path keeps its shortcuts (solid spans,
    /// rows certainly covered, the wave column cache, a box's row spans) around those calls.
    func paint(_ item: DrawItem, _ columns: WaveColumns?) {
        guard shortcuts else { return paintReference(item) }
        switch item {
        case .disc(let d):
            shade(d.bounds, item.annulus, d.color, circle: (d.centerX, d.centerY, d.radius), fullRow: { _ in true },
                  DiscCoverage(disc: d))
        case .wave(let w):
            let columns = columns!
            let clip = w.clipRadius >= 0 ? (w.clipCenterX, w.clipCenterY, w.clipRadius) : nil
            columns.height.withUnsafeBufferPointer { heights in
                columns.norm.withUnsafeBufferPointer { norms in
                    // Rows below every crest (and above the bottom edge) are covered wherever the clip is.
                    let fullRow = { (py: Float) -> Bool in py >= columns.lowestFullRow && fillCoverage(py - w.bottom) == 1 }
                    shade(w.bounds, item.annulus, w.color, circle: clip, fullRow: fullRow,
                          WaveCoverage(wave: w, x0: columns.x0, heights: heights, norms: norms, clipped: clip != nil))
                }
            }
        case .arc(let a):
            // As layers.frag does (LayerPlan): a full circle without a mask is a circleStrokeCoverage;
            // the same value arcCoverage gives it (arcDistance's first branch), with fewer tests.
            if a.isFullCircle && a.maskRotation < 0 {
                shade(a.bounds, item.annulus, a.color) { _, px, py, _ in
                    circleStrokeCoverage(px, py, a.centerX, a.centerY, a.radius, a.lineWidth)
                }
            } else {
                shade(a.bounds, item.annulus, a.color) { _, px, py, _ in
                    arcCoverage(px, py, a.centerX, a.centerY, a.radius, a.lineWidth, a.start, a.sweep, a.maskRotation,
                                a.maskDirectionX, a.maskDirectionY)
                }
            }
        case .quads(let batch):
            guard batch.bounds.y0 < y1, batch.bounds.y1 > y0 else { return }
            for i in batch.instances.indices where batch.instanceBounds[i].y0 < y1 && batch.instanceBounds[i].y1 > y0 {
                let q = batch.instances[i], rect = batch.instanceBounds[i]
                let cosR = batch.instanceAxes[i].x, sinR = batch.instanceAxes[i].y
                let coverage = BoxCoverage(box: q, cos: cosR, sin: sinR)
                // A tilted box covers a slanted strip of its bounding square: visit only the
                // columns of each row inside the box grown by the anti-aliased edge.
                for y in max(rect.y0, y0)..<min(rect.y1, y1) {
                    let py = Float(y) + 0.5
                    let columns = q.rowColumns(py, cos: cosR, sin: sinR).clamped(to: rect.x0..<rect.x1)
                    // An opaque box writes its certain interior as a run, without distances.
                    let full = q.color.a == 1 ? q.certainlyCovered(py, cos: cosR, sin: sinR) : nil
                    if !columns.isEmpty { run(y, py, columns, .empty, full, q.color, coverage) }
                }
            }
        }
    }

    /// The reference path (`CPURenderer.shortcuts` off): every pixel centre of the item's bounds
    /// (and annulus, outside which its coverage is 0) gets `itemCoverage`, and every box of a quad
    /// batch, over its own bounds, `boxCoverage` (boxes.frag's records), then is blended over
    /// what the band holds there, one pixel at a time.
    func paintReference(_ item: DrawItem) {
        switch item {
        case .disc(let d):
            shade(d.bounds, item.annulus, d.color) { _, px, py, _ in itemCoverage(px, py, item) }
        case .wave(let w):
            shade(w.bounds, item.annulus, w.color) { _, px, py, _ in itemCoverage(px, py, item) }
        case .arc(let a):
            shade(a.bounds, item.annulus, a.color) { _, px, py, _ in itemCoverage(px, py, item) }
        case .quads(let batch):
            for i in batch.instances.indices where batch.instanceBounds[i].y0 < y1 && batch.instanceBounds[i].y1 > y0 {
                let q = batch.instances[i], rect = batch.instanceBounds[i]
                let axisX = batch.instanceAxes[i].x, axisY = batch.instanceAxes[i].y
                shade(rect, nil, q.color) { _, px, py, _ in
                    boxCoverage(px, py, q.centerX, q.centerY, q.halfX, q.halfY, axisX, axisY, q.cornerRadius)
                }
            }
        }
    }
}

/// `waveCoverage` (= waveBandCoverage × the clip) at a pixel, with waveDistance's column part
/// (`waveColumn`) read from the frame's `WaveColumns` and its pixel part (`curveDistance`)
/// evaluated here. Pixels certainly more than `antialiasReach` above the curve are 0, and those
/// certainly more than it below are covered, without the division.
struct WaveCoverage: PixelCoverage {
    let wave: Wave
    let x0: Int
    let heights: UnsafeBufferPointer<Float>
    let norms: UnsafeBufferPointer<Float>
    let clipped: Bool

    @inline(__always) func at(_ x: Int, _ px: Float, _ py: Float, solid: Bool) -> Float {
        let i = x - x0
        var coverage: Float = 1
        let reach = (antialiasReach + certaintyMargin) * norms[i]
        if py < heights[i] - reach { return 0 }
        if py < heights[i] + reach {
            coverage = fillCoverage(curveDistance(py, heights[i], norms[i]))
            if coverage == 0 { return 0 }
        }
        coverage *= fillCoverage(py - wave.bottom)
        if clipped && !solid {
            coverage *= fillCoverage(circleDistance(px, py, wave.clipCenterX, wave.clipCenterY, wave.clipRadius))
        }
        return coverage
    }

    static var evaluatesEight: Bool { true }

    /// `at` on eight lanes, with the eight-lane twins of `curveDistance`, `fillCoverage` and
    /// `circleDistance`: every branch's value, chosen per lane. A lane `at` ends early with 0 is
    /// 0 here too (0 times the finite factors after it). `CPURendererTests.shortcutsChangeNoByte…`
    /// hold it to the scalar path.
    @inline(__always) func eight(_ x: Int, _ px: SIMD8<Float>, _ py: Float, solid: SIMDMask<SIMD8<Int32>>) -> SIMD8<Float> {
        let i = x - x0
        let h = UnsafeRawPointer(heights.baseAddress! + i).loadUnaligned(as: SIMD8<Float>.self)
        let n = UnsafeRawPointer(norms.baseAddress! + i).loadUnaligned(as: SIMD8<Float>.self)
        let y = SIMD8<Float>(repeating: py)
        let reach = SIMD8<Float>(repeating: antialiasReach + certaintyMargin) * n
        var coverage = SIMD8<Float>(repeating: 1)
        coverage.replace(with: fillCoverage(curveDistance(py, h, n)), where: y .< h + reach)
        coverage.replace(with: 0, where: y .< h - reach)
        coverage *= fillCoverage(py - wave.bottom)
        if clipped {
            let clip = fillCoverage(circleDistance(px, py, wave.clipCenterX, wave.clipCenterY, wave.clipRadius))
            coverage *= clip.replacing(with: 1, where: solid)
        }
        return coverage
    }
}

/// `discCoverage`, skipped where the pixel lies certainly inside the disc.
struct DiscCoverage: PixelCoverage {
    let disc: Disc

    @inline(__always) func at(_ x: Int, _ px: Float, _ py: Float, solid: Bool) -> Float {
        solid ? 1 : discCoverage(px, py, disc.centerX, disc.centerY, disc.radius)
    }
}

/// `boxCoverage` of one box of a quad batch, its axis (cos θ, sin θ) computed once per box.
struct BoxCoverage: PixelCoverage {
    let box: QuadInstance
    let cos: Float
    let sin: Float

    @inline(__always) func at(_ x: Int, _ px: Float, _ py: Float, solid: Bool) -> Float {
        boxCoverage(px, py, box.centerX, box.centerY, box.halfX, box.halfY, cos, sin, box.cornerRadius)
    }
}
