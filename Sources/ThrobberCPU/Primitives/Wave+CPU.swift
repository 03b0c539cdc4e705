import Foundation
import Throbber

// The wave's row (Throbber/DrawList/Primitives/Wave.swift): its formulas and coverage, twins of
// Shaders/Primitives/wave.glsl, and how the CPU renderer paints it (its columns: WaveColumns.swift).

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

/// SPEC §0 "below a curve" (`Wave`) and above an anti-aliased bottom edge (Wave.noBottom
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

extension Wave: CPUPrimitive {
    func prepare(shortcuts: Bool, resources: DrawResources) -> any CPUItem {
        // A wave's height and slope depend on x only: the fast path evaluates sin and cos once per
        // column, not once per pixel (the same single-precision expressions, so the same values);
        // the reference path evaluates waveCoverage per pixel.
        PreparedWave(wave: self, annulus: annulus, columns: shortcuts ? WaveColumns(self) : nil)
    }
}

final class PreparedWave: AreaItem {
    let wave: Wave
    let annulus: Annulus?
    let columns: WaveColumns?
    var bounds: PixelRect { wave.bounds }

    init(wave: Wave, annulus: Annulus?, columns: WaveColumns?) {
        self.wave = wave
        self.annulus = annulus
        self.columns = columns
    }

    func paint(_ band: Band) {
        let w = wave, columns = columns!
        let clip = w.clipRadius >= 0 ? (w.clipCenterX, w.clipCenterY, w.clipRadius) : nil
        columns.height.withUnsafeBufferPointer { heights in
            columns.norm.withUnsafeBufferPointer { norms in
                // Rows below every crest (and above the bottom edge) are covered wherever the clip is.
                let fullRow = { (py: Float) -> Bool in py >= columns.lowestFullRow && fillCoverage(py - w.bottom) == 1 }
                band.shade(w.bounds, annulus, w.color, circle: clip, fullRow: fullRow,
                           WaveCoverage(wave: w, x0: columns.x0, heights: heights, norms: norms, clipped: clip != nil))
            }
        }
    }

    func paintReference(_ band: Band) {
        let w = wave
        band.shade(w.bounds, annulus, w.color) { _, px, py, _ in
            inside(w.bounds, px, py)
                ? waveCoverage(px, py, w.originX, w.amplitude, w.k, w.phase, w.baseline, w.bottom, w.clipCenterX, w.clipCenterY, w.clipRadius)
                : 0
        }
    }

    /// Whether the wave paints `rows` as `other` does although the two differ (in phase,
    /// amplitude or level): on rows wholly below both curves the coverage is the clip's and the
    /// bottom edge's alone (`paint`: the curve's test never fires there), so the same colour,
    /// clip, bottom and columns paint the same pixels.
    func paintsTheSame(rows: Range<Int>, as other: any CPUItem) -> Bool {
        guard let other = (other as? PreparedWave)?.wave else { return false }
        let wave = self.wave
        guard wave.color == other.color, wave.clipCenterX == other.clipCenterX, wave.clipCenterY == other.clipCenterY,
              wave.clipRadius == other.clipRadius, wave.bottom == other.bottom,
              wave.bounds.x0 == other.bounds.x0, wave.bounds.x1 == other.bounds.x1 else { return false }
        func painted(_ rect: PixelRect) -> Range<Int> {
            let top = max(rows.lowerBound, rect.y0), bottom = min(rows.upperBound, rect.y1)
            return top < bottom ? top..<bottom : rows.lowerBound..<rows.lowerBound
        }
        let mine = painted(wave.bounds)
        guard mine == painted(other.bounds) else { return false }
        guard let first = mine.first else { return true }
        let py = Float(first) + 0.5
        return py >= wave.coveredBelow && py >= other.coveredBelow
    }
}

extension Wave {
    /// A y at and below which every pixel centre lies certainly more than half a pixel under the
    /// curve: f(x) + 0.501·sqrt(1 + f′(x)²) (0.501 = the reach + certaintyMargin) is at most
    /// baseline + |A| + 0.501·sqrt(1 + (A·k)²), and 0.05 px absorbs the rounding of both sides
    /// (`WaveColumns.lowestFullRow`, the exact maximum over the columns, is never above it).
    fileprivate var coveredBelow: Float {
        baseline + abs(amplitude) + (Antialiasing.reach + certaintyMargin) * (1 + amplitude * k * amplitude * k).squareRoot() + 0.05
    }
}

/// `waveCoverage` (= waveBandCoverage × the clip) at a pixel, with waveDistance's column part
/// (`waveColumn`) read from the frame's `WaveColumns` and its pixel part (`curveDistance`)
/// evaluated here. Pixels certainly more than the reach above the curve are 0, and those
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
        let reach = (Antialiasing.reach + certaintyMargin) * norms[i]
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
        let reach = SIMD8<Float>(repeating: Antialiasing.reach + certaintyMargin) * n
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
