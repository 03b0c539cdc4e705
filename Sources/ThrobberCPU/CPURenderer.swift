import Foundation
import Throbber

/// The reference renderer: pure Swift, evaluating the same SPEC formulas as the shaders on the
/// same draw list, spread over all cores.
///
/// Deterministic whatever the thread count: every pixel is computed by exactly one thread,
/// painting the items in list order, so the bytes never depend on how rows are split.
public struct CPURenderer: Sendable {
    /// How many threads share the rows; at least 1.
    public var threadCount: Int

    /// Creates a renderer using `threadCount` threads (default: every active core).
    public init(threadCount: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.threadCount = max(1, threadCount)
    }

    /// A description in the form GL_RENDERER strings take, for reports.
    public var rendererDescription: String { "Throbber CPU reference (\(threadCount) threads)" }

    /// Renders one frame.
    public func render(_ list: DrawList) -> Image {
        let width = list.width, height = list.height
        var output = [UInt8](repeating: 0, count: width * height * 4)
        guard width > 0, height > 0 else { return Image(width: width, height: height, pixels: output) }
        // Bands of a few rows: small enough to balance the load, independent of the thread count
        // for the result.
        let bandHeight = max(1, min(16, height / (threadCount * 4)))
        let bands = (height + bandHeight - 1) / bandHeight
        output.withUnsafeMutableBufferPointer { buffer in
            let out = SharedBuffer(buffer.baseAddress!)
            let work: @Sendable (Int) -> Void = { band in
                let y0 = band * bandHeight
                let y1 = min(height, y0 + bandHeight)
                var band = Band(width: width, y0: y0, y1: y1, background: list.background)
                for item in list.items { band.paint(item) }
                band.resolve(into: out.pointer)
            }
            if threadCount == 1 {
                for b in 0..<bands { work(b) }
            } else {
                DispatchQueue.concurrentPerform(iterations: bands, execute: work)
            }
        }
        return Image(width: width, height: height, pixels: output)
    }
}

/// A pointer shared by the band workers; each writes disjoint rows.
private struct SharedBuffer: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<UInt8>
    init(_ pointer: UnsafeMutablePointer<UInt8>) { self.pointer = pointer }
}

/// The premultiplied floating-point accumulators of a band of rows.
private struct Band {
    let width: Int
    let y0: Int
    let y1: Int
    var accum: [Float]

    init(width: Int, y0: Int, y1: Int, background: PaintColor) {
        self.width = width
        self.y0 = y0
        self.y1 = y1
        let a = background.a
        let pixel: [Float] = [background.r * a, background.g * a, background.b * a, a]
        accum = [Float](unsafeUninitializedCapacity: width * (y1 - y0) * 4) { storage, count in
            for i in 0..<(width * (y1 - y0)) {
                storage[i * 4] = pixel[0]; storage[i * 4 + 1] = pixel[1]
                storage[i * 4 + 2] = pixel[2]; storage[i * 4 + 3] = pixel[3]
            }
            count = width * (y1 - y0) * 4
        }
    }

    /// Paints over the band's pixels inside `rect` (and inside `annulus`, when given), with
    /// `coverage(px, py)` at each pixel centre.
    @inline(__always)
    mutating func shade(_ rect: PixelRect, _ annulus: Annulus?, _ color: PaintColor, _ coverage: (Float, Float) -> Float) {
        let top = max(rect.y0, y0), bottom = min(rect.y1, y1)
        guard top < bottom, rect.x0 < rect.x1 else { return }
        let a = color.a
        let pr = color.r * a, pg = color.g * a, pb = color.b * a
        let width = width, y0 = y0
        accum.withUnsafeMutableBufferPointer { acc in
            func run(_ y: Int, _ py: Float, _ columns: Range<Int>) {
                var i = ((y - y0) * width + columns.lowerBound) * 4
                for x in columns {
                    let c = coverage(Float(x) + 0.5, py)
                    if c > 0 {
                        // SPEC §0: s = (r·a·c, g·a·c, b·a·c, a·c); dst = s + dst·(1 − s.a).
                        let sa = a * c
                        let keep = 1 - sa
                        acc[i] = pr * c + acc[i] * keep
                        acc[i + 1] = pg * c + acc[i + 1] * keep
                        acc[i + 2] = pb * c + acc[i + 2] * keep
                        acc[i + 3] = sa + acc[i + 3] * keep
                    }
                    i += 4
                }
            }
            let columns = rect.x0..<rect.x1
            for y in top..<bottom {
                let py = Float(y) + 0.5
                guard let annulus else {
                    run(y, py, columns)
                    continue
                }
                let (outer, hole) = annulus.spans(row: y)
                let span = outer.clamped(to: columns)
                if hole.isEmpty {
                    run(y, py, span)
                } else {
                    run(y, py, span.lowerBound..<max(span.lowerBound, min(span.upperBound, hole.lowerBound)))
                    run(y, py, min(span.upperBound, max(span.lowerBound, hole.upperBound))..<span.upperBound)
                }
            }
        }
    }

    mutating func paint(_ item: DrawItem) {
        switch item {
        case .disc(let d):
            shade(d.bounds, item.annulus, d.color) { px, py in
                fillCoverage(circleDistance(px, py, d.centerX, d.centerY, d.radius))
            }
        case .wave(let w):
            shade(w.bounds, item.annulus, w.color) { px, py in
                var coverage = fillCoverage(waveDistance(px, py, w.originX, w.amplitude, w.k, w.phase, w.baseline))
                if w.clipRadius >= 0 {
                    coverage *= fillCoverage(circleDistance(px, py, w.clipCenterX, w.clipCenterY, w.clipRadius))
                }
                return coverage * fillCoverage(py - w.bottom)
            }
        case .arc(let a):
            shade(a.bounds, item.annulus, a.color) { px, py in
                var coverage = strokeCoverage(arcDistance(px, py, a.centerX, a.centerY, a.radius, a.start, a.sweep),
                                              a.lineWidth)
                if a.maskRotation >= 0 {
                    coverage *= ringMask(px - a.centerX, py - a.centerY, a.maskRotation)
                }
                return coverage
            }
        case .quads(let batch):
            guard batch.bounds.y0 < y1, batch.bounds.y1 > y0 else { return }
            for q in batch.instances {
                let cosR = cos(q.rotation), sinR = sin(q.rotation)
                shade(q.bounds(width: width, height: Int.max), nil, q.color) { px, py in
                    // The pixel in the box's own frame: q = R(−θ)·(p − c).
                    let dx = px - q.centerX, dy = py - q.centerY
                    let qx = dx * cosR + dy * sinR
                    let qy = -dx * sinR + dy * cosR
                    return fillCoverage(roundedBoxDistance(qx, qy, q.halfX, q.halfY, q.cornerRadius))
                }
            }
        }
    }

    /// Quantises the band into the output rows (SPEC §0, `resolvePixel`).
    func resolve(into out: UnsafeMutablePointer<UInt8>) {
        accum.withUnsafeBufferPointer { acc in
            var o = y0 * width * 4
            for i in stride(from: 0, to: acc.count, by: 4) {
                let (r, g, b, a) = resolvePixel(acc[i], acc[i + 1], acc[i + 2], acc[i + 3])
                out[o] = r; out[o + 1] = g; out[o + 2] = b; out[o + 3] = a
                o += 4
            }
        }
    }
}
