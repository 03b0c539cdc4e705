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
    /// Whether runs that are certainly covered by an opaque colour are written without
    /// evaluating coverage per pixel, and tilted boxes visit only the columns they can touch.
    /// The bytes are the same either way (a test renders every scene both ways); off is slower.
    public var shortcuts = true
    /// Band accumulators kept between frames: fresh pages would cost a page fault and a zeroing
    /// pass each (measured: ~0.4 ms of a 512×512 frame).
    private let scratch = ScratchPool()

    /// Creates a renderer using `threadCount` threads (default: every active core).
    public init(threadCount: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.threadCount = max(1, threadCount)
    }

    /// A description in the form GL_RENDERER strings take, for reports.
    public var rendererDescription: String { "Throbber CPU reference (\(threadCount) threads)" }

    /// Renders one frame.
    public func render(_ list: DrawList) -> Image {
        let width = list.width, height = list.height
        guard width > 0, height > 0 else { return Image(width: width, height: height) }
        // A wave's height and slope depend on x only: evaluate sin and cos once per column, not
        // once per pixel (the same single-precision expressions, so the same values).
        let columns = list.items.map { item -> WaveColumns? in
            if case .wave(let wave) = item { return WaveColumns(wave) }
            return nil
        }
        // Bands of a few rows: small enough to balance the load; the result does not depend on
        // how rows are split.
        let bandHeight = max(1, min(16, height / (threadCount * 4)))
        let bands = (height + bandHeight - 1) / bandHeight
        // Not zeroed first: the bands write every byte (a zeroing pass cost ~0.2 ms of a 512×512
        // frame in the batch pipeline's profile).
        let output = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, initialized in
            let out = SharedBuffer(buffer.baseAddress!)
            let work: @Sendable (Int) -> Void = { band in
                let y0 = band * bandHeight
                let storage = scratch.take(count: width * bandHeight * 4)
                let band = Band(width: width, y0: y0, y1: min(height, y0 + bandHeight), background: list.background, shortcuts: shortcuts,
                                storage: storage)
                for (index, item) in list.items.enumerated() { band.paint(item, columns[index]) }
                band.resolve(into: out.pointer)
                scratch.give(storage)
            }
            if threadCount == 1 {
                for b in 0..<bands { work(b) }
            } else {
                DispatchQueue.concurrentPerform(iterations: bands, execute: work)
            }
            initialized = width * height * 4
        }
        return Image(width: width, height: height, pixels: output)
    }
}

/// Float buffers lent to band workers and returned, so frames reuse warm memory.
private final class ScratchPool: @unchecked Sendable {
    /// One lent buffer.
    struct Buffer: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<Float>
        let count: Int
    }

    private let lock = NSLock()
    private var free: [Buffer] = []

    deinit { free.forEach { $0.pointer.deallocate() } }

    /// A buffer of at least `count` floats (contents undefined).
    func take(count: Int) -> Buffer {
        lock.lock()
        if let index = free.firstIndex(where: { $0.count >= count }) {
            let buffer = free.remove(at: index)
            lock.unlock()
            return buffer
        }
        lock.unlock()
        return Buffer(pointer: .allocate(capacity: count), count: count)
    }

    /// Returns a buffer for later frames (a few are kept; the rest are freed).
    func give(_ buffer: Buffer) {
        lock.lock()
        defer { lock.unlock() }
        if free.count < 64 {
            free.append(buffer)
        } else {
            buffer.pointer.deallocate()
        }
    }
}

/// A pointer shared by the band workers; each writes disjoint rows.
private struct SharedBuffer: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<UInt8>
    init(_ pointer: UnsafeMutablePointer<UInt8>) { self.pointer = pointer }
}

/// f(x) and sqrt(1 + f′(x)²) of a wave at every pixel column of its bounds (SPEC §0
/// "below a curve"), computed once per frame and read by every band.
private struct WaveColumns: Sendable {
    let x0: Int
    let height: [Float]
    let norm: [Float]
    /// The largest f(x) + 0.501·sqrt(1 + f′²) over the columns: a pixel centre at or below it is
    /// certainly under the curve in every column (the row test of `paint`, taken at its maximum).
    let lowestFullRow: Float

    init(_ w: Wave) {
        x0 = w.bounds.x0
        var height: [Float] = []
        var norm: [Float] = []
        let count = max(0, w.bounds.x1 - w.bounds.x0)
        height.reserveCapacity(count)
        norm.reserveCapacity(count)
        for x in w.bounds.x0..<max(w.bounds.x0, w.bounds.x1) {
            // waveDistance's terms, split so the row loop needs no sin or cos.
            let arg = w.k * (Float(x) + 0.5 - w.originX) + w.phase
            height.append(w.amplitude * sin(arg) + w.baseline)
            let slope = w.amplitude * w.k * cos(arg)
            norm.append((1 + slope * slope).squareRoot())
        }
        self.height = height
        self.norm = norm
        lowestFullRow = zip(height, norm).map { $0 + 0.501 * $1 }.max() ?? .infinity
    }
}

/// Pixel-centre x values [lo, hi] of a row where a circle's coverage is certainly 1.
private struct SolidSpan {
    var lo: Float
    var hi: Float

    static let empty = SolidSpan(lo: 1, hi: 0)
    static let everything = SolidSpan(lo: -.infinity, hi: .infinity)

    @inline(__always) func contains(_ x: Float) -> Bool { x >= lo && x <= hi }

    /// The columns of `range` whose pixel centres x + ½ it contains (one run: it is an interval).
    func columns(within range: Range<Int>) -> Range<Int> {
        guard lo <= hi, !range.isEmpty else { return range.lowerBound..<range.lowerBound }
        // A first guess from the bounds, then settled with `contains` itself, so the columns are
        // exactly those the per-pixel test would accept.
        let lower = Float(range.lowerBound), upper = Float(range.upperBound)
        var a = Int(min(max((lo - 0.5).rounded(.up), lower), upper))
        var b = Int(min(max((hi - 0.5).rounded(.down) + 1, lower), upper))
        while a > range.lowerBound && contains(Float(a - 1) + 0.5) { a -= 1 }
        while a < range.upperBound && !contains(Float(a) + 0.5) { a += 1 }
        b = max(a, b)
        while b < range.upperBound && contains(Float(b) + 0.5) { b += 1 }
        while b > a && !contains(Float(b - 1) + 0.5) { b -= 1 }
        return a..<b
    }
}

/// The premultiplied floating-point accumulators of a band of rows. Only the part of each row
/// that some item touches is ever initialised, painted and resolved; the rest is background.
private final class Band {
    let width: Int
    let y0: Int
    let y1: Int
    let background: (Float, Float, Float, Float)
    let accum: UnsafeMutablePointer<Float>
    /// See `CPURenderer.shortcuts`.
    let shortcuts: Bool
    /// Per row, the columns [lo, hi) initialised so far.
    var spans: [(lo: Int, hi: Int)]

    init(width: Int, y0: Int, y1: Int, background: PaintColor, shortcuts: Bool, storage: ScratchPool.Buffer) {
        self.shortcuts = shortcuts
        self.width = width
        self.y0 = y0
        self.y1 = y1
        let a = background.a
        self.background = (background.r * a, background.g * a, background.b * a, a)
        accum = storage.pointer
        spans = Array(repeating: (0, 0), count: y1 - y0)
    }

    /// Makes columns [lo, hi) of row `y` ready to paint, filling newly reached pixels with the
    /// background.
    @inline(__always)
    func prepare(_ y: Int, _ lo: Int, _ hi: Int) {
        let r = y - y0
        let (oldLo, oldHi) = spans[r]
        if oldLo < oldHi && lo >= oldLo && hi <= oldHi { return }
        let newLo = oldLo < oldHi ? min(lo, oldLo) : lo
        let newHi = oldLo < oldHi ? max(hi, oldHi) : hi
        let row = accum + r * width * 4
        func fill(_ a: Int, _ b: Int) {
            var p = row + a * 4
            for _ in a..<b {
                p[0] = background.0; p[1] = background.1; p[2] = background.2; p[3] = background.3
                p += 4
            }
        }
        if oldLo < oldHi {
            fill(newLo, oldLo)
            fill(oldHi, newHi)
        } else {
            fill(newLo, newHi)
        }
        spans[r] = (newLo, newHi)
    }

    /// SPEC §0: s = (r·a·c, g·a·c, b·a·c, a·c); dst = s + dst·(1 − s.a).
    @inline(__always)
    func blend(_ p: UnsafeMutablePointer<Float>, _ color: PaintColor, _ c: Float) {
        if c == 1 && color.a == 1 {
            // Opaque and fully covered: dst·(1 − 1) vanishes, the result is the colour itself.
            p[0] = color.r; p[1] = color.g; p[2] = color.b; p[3] = 1
            return
        }
        let sa = color.a * c
        let keep = 1 - sa
        p[0] = color.r * color.a * c + p[0] * keep
        p[1] = color.g * color.a * c + p[1] * keep
        p[2] = color.b * color.a * c + p[2] * keep
        p[3] = sa + p[3] * keep
    }

    /// The columns of row `y` to visit for a primitive bounded by `rect` and `annulus`: one run,
    /// or two around the annulus's hole.
    @inline(__always)
    func runs(_ y: Int, _ rect: PixelRect, _ annulus: Annulus?) -> (Range<Int>, Range<Int>) {
        let columns = rect.x0..<rect.x1
        guard let annulus else { return (columns, columns.upperBound..<columns.upperBound) }
        let (outer, hole) = annulus.spans(row: y)
        let span = outer.clamped(to: columns)
        if hole.isEmpty { return (span, span.upperBound..<span.upperBound) }
        return (span.lowerBound..<max(span.lowerBound, min(span.upperBound, hole.lowerBound)),
                min(span.upperBound, max(span.lowerBound, hole.upperBound))..<span.upperBound)
    }

    /// Columns of row `y` whose centres are certainly more than half a pixel inside the circle,
    /// where fill(|p − c| − r) is exactly 1 without computing it (a 10⁻³ px margin dwarfs the
    /// rounding of the distance).
    @inline(__always)
    func solidColumns(_ y: Int, _ cx: Float, _ cy: Float, _ r: Float) -> SolidSpan {
        let dy = Float(y) + 0.5 - cy
        let safe = r - 0.501
        guard safe > abs(dy) else { return .empty }
        let half = (safe * safe - dy * dy).squareRoot()
        return SolidSpan(lo: cx - half, hi: cx + half)
    }

    /// Paints over the band's part of `rect` (and `annulus`), with `coverage(x, px, py, solid)` at
    /// each pixel centre, where `solid` says the pixel lies certainly inside `circle` (coverage 1).
    ///
    /// - Parameter fullRow: says of a row (by its pixel-centre y) that `coverage` is exactly 1
    ///   wherever `solid` holds (everywhere when there is no circle); an opaque colour is then
    ///   written over those pixels without evaluating `coverage`, with the same result.
    @inline(__always)
    func shade(_ rect: PixelRect, _ annulus: Annulus?, _ color: PaintColor, circle: (Float, Float, Float)? = nil,
               fullRow: ((Float) -> Bool)? = nil, _ coverage: (Int, Float, Float, Bool) -> Float) {
        let top = max(rect.y0, y0), bottom = min(rect.y1, y1)
        guard top < bottom, rect.x0 < rect.x1 else { return }
        for y in top..<bottom {
            let py = Float(y) + 0.5
            let solid = circle.map { solidColumns(y, $0.0, $0.1, $0.2) } ?? .empty
            var full: SolidSpan?
            if shortcuts, color.a == 1, let fullRow, fullRow(py) { full = circle == nil ? .everything : solid }
            let (first, second) = runs(y, rect, annulus)
            if !first.isEmpty { run(y, py, first, solid, full, color, coverage) }
            if !second.isEmpty { run(y, py, second, solid, full, color, coverage) }
        }
    }

    @inline(__always)
    func run(_ y: Int, _ py: Float, _ columns: Range<Int>, _ solid: SolidSpan, _ full: SolidSpan?, _ color: PaintColor,
             _ coverage: (Int, Float, Float, Bool) -> Float) {
        prepare(y, columns.lowerBound, columns.upperBound)
        let row = accum + (y - y0) * width * 4
        func evaluate(_ range: Range<Int>) {
            var p = row + range.lowerBound * 4
            for x in range {
                let px = Float(x) + 0.5
                let c = coverage(x, px, py, solid.contains(px))
                if c > 0 { blend(p, color, c) }
                p += 4
            }
        }
        guard let full else { return evaluate(columns) }
        // Opaque and certainly covered: blend's result is the colour itself, written as a run.
        let filled = full.columns(within: columns)
        evaluate(columns.lowerBound..<filled.lowerBound)
        let value = SIMD4<Float>(color.r, color.g, color.b, 1)
        let raw = UnsafeMutableRawPointer(row)
        for x in filled { raw.storeBytes(of: value, toByteOffset: x * 16, as: SIMD4<Float>.self) }
        evaluate(filled.upperBound..<columns.upperBound)
    }

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
                    coverage *= ringMask(px - a.centerX, py - a.centerY, a.maskRotation)
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
                    if !columns.isEmpty { run(y, py, columns, .empty, nil, q.color, coverage) }
                }
            }
        }
    }

    /// Quantises the band into the output rows (SPEC §0, `resolvePixel`); untouched pixels get
    /// the background's bytes.
    func resolve(into out: UnsafeMutablePointer<UInt8>) {
        let fill = resolvePixel(background.0, background.1, background.2, background.3)
        let fillIsZero = fill == (0, 0, 0, 0)
        /// Writes the background's bytes to columns [a, b) of a row (the output starts
        /// uninitialised: every byte is written exactly once, by this or by the painted span).
        func fillColumns(_ row: UnsafeMutablePointer<UInt8>, _ a: Int, _ b: Int) {
            guard a < b else { return }
            if fillIsZero {
                (row + a * 4).initialize(repeating: 0, count: (b - a) * 4)
                return
            }
            for x in a..<b {
                row[x * 4] = fill.0; row[x * 4 + 1] = fill.1; row[x * 4 + 2] = fill.2; row[x * 4 + 3] = fill.3
            }
        }
        for r in 0..<(y1 - y0) {
            let (lo, hi) = spans[r]
            let rowOut = out + (y0 + r) * width * 4
            guard lo < hi else {
                fillColumns(rowOut, 0, width)
                continue
            }
            fillColumns(rowOut, 0, lo)
            fillColumns(rowOut, hi, width)
            var p = accum + (r * width + lo) * 4
            var o = rowOut + lo * 4
            // Flat colour is the common case: a pixel equal to its left neighbour reuses its bytes.
            var last: (Float, Float, Float, Float) = (.nan, 0, 0, 0)
            var bytes: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
            for _ in lo..<hi {
                let value = (p[0], p[1], p[2], p[3])
                if value != last {
                    bytes = resolvePixel(value.0, value.1, value.2, value.3)
                    last = value
                }
                o[0] = bytes.0; o[1] = bytes.1; o[2] = bytes.2; o[3] = bytes.3
                p += 4
                o += 4
            }
        }
    }
}

extension QuadInstance {
    /// The columns of the row whose pixel centres lie at `py` where the box can have coverage:
    /// a superset of the pixels with |qx| < halfX + ½ and |qy| < halfY + ½ in the box's frame
    /// (roundedBoxDistance ≥ max(|qx| − halfX, |qy| − halfY), so coverage is 0 outside).
    @inline(__always)
    func rowColumns(_ py: Float, cos c: Float, sin s: Float) -> Range<Int> {
        let reachX = halfX + 0.75, reachY = halfY + 0.75
        let dy = py - centerY
        var lo = -Float.infinity, hi = Float.infinity
        /// Narrows [lo, hi] to the dx with |dx·slope + offset| < reach; false when none is left.
        @inline(__always) func narrow(_ slope: Float, _ offset: Float, _ reach: Float) -> Bool {
            if abs(slope) < 1e-6 {
                // Parallel to the row: all or nothing (|dx·slope| < 0.01 on any canvas).
                return abs(offset) < reach + 0.01
            }
            let a = (-reach - offset) / slope, b = (reach - offset) / slope
            lo = max(lo, min(a, b))
            hi = min(hi, max(a, b))
            return lo < hi
        }
        // |dx·c + dy·s| < reachX and |−dx·s + dy·c| < reachY.
        guard narrow(c, dy * s, reachX), narrow(-s, dy * c, reachY), lo < hi else { return 0..<0 }
        // Pixel x has its centre at x + ½; one more column each side absorbs rounding.
        let first = (centerX + lo - 0.5).rounded(.down) - 1
        let last = (centerX + hi - 0.5).rounded(.up) + 1
        return Int(max(first, -1)) ..< Int(min(last, Float(Int32.max))) + 1
    }
}
