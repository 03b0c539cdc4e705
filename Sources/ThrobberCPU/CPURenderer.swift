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
    /// Whether flat stretches of a row (the background, opaque full coverage) are kept as solid
    /// runs instead of per-pixel accumulators, runs certainly covered by an opaque colour are
    /// written without evaluating coverage per pixel, and tilted boxes visit only the columns they
    /// can touch. Off, every pixel is blended and quantised one by one. The bytes are the same
    /// either way (a test renders every scene both ways); off is slower.
    public var shortcuts = true
    /// How many solid runs (columns of one flat colour, written at resolve as repeated bytes) a
    /// row keeps; a run beyond them is written to the accumulators instead. At least 1. The bytes
    /// are the same whatever the number (a test renders every scene with 1, 2 and the default).
    public var solidRunsPerRow = 16
    /// Whether rows are kept from earlier frames instead of painted again where they would come
    /// out the same: a band of rows that an earlier frame painted from the same things (the same
    /// canvas and background, the same items reaching those rows, of a quad batch the same boxes)
    /// is left as it is when the frame is drawn into that frame's recycled memory, or copied from
    /// the latest frame. Animations leave much of a frame as it was: the tick ring, the empty disc
    /// above the water, the water under the waves. The bytes are the same either way (a test renders
    /// every scene's frames in sequence both ways). Only with `shortcuts`.
    public var reusesUnchangedRows = true
    /// Band accumulators kept between frames: fresh pages would cost a page fault and a zeroing
    /// pass each (measured: ~0.4 ms of a 512×512 frame).
    private let scratch = ScratchPool()
    /// The latest frames rendered, for `reusesUnchangedRows`.
    private let memory = FrameMemory()

    /// Creates a renderer using `threadCount` threads (default: every active core).
    public init(threadCount: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.threadCount = max(1, threadCount)
    }

    /// How many of its latest frames the renderer keeps (at least 2, at most 512 MB of them; none
    /// above 256 MB a frame), drawing each new frame into the oldest one's memory once
    /// the caller has let go of it. Set it above the number of frames a caller holds at once (a
    /// pipeline's frames in flight): memory still held elsewhere is copied first (Array's
    /// copy-on-write), which is correct but slower. Shared by copies of this renderer.
    public var keptFrames: Int {
        get { memory.capacity }
        nonmutating set { memory.capacity = max(2, newValue) }
    }

    /// A description in the form GL_RENDERER strings take, for reports.
    public var rendererDescription: String { "Throbber CPU reference (\(threadCount) threads)" }

    /// Renders one frame on `threadCount` threads.
    public func render(_ list: DrawList) -> Image { render(list, threads: threadCount) }

    /// The fewest pixels worth a thread of their own: below it, handing bands to another thread
    /// costs more than painting them (a 64×64 frame paints in ~25 µs on one thread).
    public static let pixelsPerThread = 32_768

    /// Renders one frame on up to `threads` threads (at least 1; one per ``pixelsPerThread``
    /// pixels at most); the bytes do not depend on it.
    public func render(_ list: DrawList, threads: Int) -> Image {
        let threadCount = max(1, min(threads, list.width * list.height / Self.pixelsPerThread))
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
        let byteCount = width * height * 4
        let runCapacity = max(1, solidRunsPerRow)
        let reuse = shortcuts && reusesUnchangedRows
        var lent = reuse ? memory.lend(byteCount: byteCount) : FrameMemory.Lent()
        let latest = lent.latest.flatMap { $0.list.sameCanvas(as: list) ? $0 : nil }
        let kept = lent.oldest.flatMap { $0.list.sameCanvas(as: list) ? $0.list : nil }
        let outcomes = UnsafeMutableBufferPointer<BandOutcome>.allocate(capacity: bands)
        outcomes.initialize(repeating: .painted)
        defer { outcomes.deallocate() }
        let record = SharedOutcomes(outcomes)

        /// Draws every band into `out`, which holds the frame `kept` was rendered from (recycled
        /// memory) or nothing yet (fresh memory, `kept` nil).
        func draw(into out: SharedBuffer) {
            let work: @Sendable (Int) -> Void = { band in
                let y0 = band * bandHeight, y1 = min(height, y0 + bandHeight)
                if let kept, kept.paintsTheSame(rows: y0..<y1, as: list) {
                    record.buffer[band] = .kept
                    return
                }
                if let latest, latest.list.paintsTheSame(rows: y0..<y1, as: list) {
                    let start = y0 * width * 4
                    latest.pixels.withUnsafeBufferPointer { (out.pointer + start).update(from: $0.baseAddress! + start, count: (y1 - y0) * width * 4) }
                    record.buffer[band] = .copied
                    return
                }
                let storage = scratch.take(byteCount: Band.byteCount(width: width, rows: bandHeight, runCapacity: runCapacity))
                let band = Band(width: width, y0: y0, y1: y1, background: list.background, shortcuts: shortcuts,
                                runCapacity: runCapacity, storage: storage)
                for (index, item) in list.items.enumerated() { band.paint(item, columns[index]) }
                band.resolve(into: out.pointer)
                scratch.give(storage)
            }
            if threadCount == 1 {
                for b in 0..<bands { work(b) }
            } else {
                DispatchQueue.concurrentPerform(iterations: bands, execute: work)
            }
        }

        let output: [UInt8]
        let recycling = lent.oldest != nil
        var duplicated = false
        if var recycled = lent.oldest.take()?.pixels {
            // Moved out of the memory: unless the caller still holds the frame, this is its only
            // reference and it is written in place; otherwise copy-on-write copies it first.
            let address = recycled.withUnsafeBufferPointer { $0.baseAddress }
            recycled.withUnsafeMutableBufferPointer { buffer in
                duplicated = UnsafePointer(buffer.baseAddress) != address
                draw(into: SharedBuffer(buffer.baseAddress!))
            }
            output = recycled
        } else {
            // Not zeroed first: the bands write every byte (a zeroing pass cost ~0.2 ms of a
            // 512×512 frame in the batch pipeline's profile).
            output = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
                draw(into: SharedBuffer(buffer.baseAddress!))
                initialized = byteCount
            }
        }
        if reuse {
            memory.keep(FrameMemory.Frame(list: list, pixels: output), outcomes: UnsafeBufferPointer(outcomes),
                        recycled: recycling, duplicated: duplicated)
        }
        return Image(width: width, height: height, pixels: output)
    }

    /// What `reusesUnchangedRows` has done over this renderer's life (shared by its copies).
    public var reuseStatistics: ReuseStatistics { memory.statistics }
}

/// Counts of what a CPU renderer did with its bands and frames (`CPURenderer.reusesUnchangedRows`).
public struct ReuseStatistics: Sendable, Equatable {
    /// Bands left as they were in a recycled frame.
    public var keptBands = 0
    /// Bands copied from the latest frame.
    public var copiedBands = 0
    /// Bands painted.
    public var paintedBands = 0
    /// Frames drawn into a kept frame's memory.
    public var recycledFrames = 0
    /// Of those, frames whose memory was still held by the caller and had to be copied first.
    public var duplicatedFrames = 0
}

/// What became of one band of a frame.
private enum BandOutcome { case painted, kept, copied }

/// The latest frames a renderer drew, oldest first, lent to later renders.
private final class FrameMemory: @unchecked Sendable {
    struct Frame: Sendable {
        let list: DrawList
        let pixels: [UInt8]
    }

    /// What a render borrows: the oldest frame (taken away, to draw into) once as many frames as
    /// kept are there, and the latest (still kept, read only).
    struct Lent {
        var oldest: Frame?
        var latest: Frame?
    }

    private let lock = NSLock()
    private var frames: [Frame] = []
    private var statisticsSoFar = ReuseStatistics()
    private var capacityValue = 2 * ProcessInfo.processInfo.activeProcessorCount + 4

    /// Frames kept, at least 2.
    var capacity: Int {
        get { lock.withLock { capacityValue } }
        set { lock.withLock { capacityValue = max(2, newValue) } }
    }

    /// How many frames of `byteCount` bytes are kept: `capacity`, but no more than 512 MB in all;
    /// 0 when two frames would not fit (above 256 MB a frame: 8192 × 8192 px), since frames that
    /// large would hold more memory than they save time.
    private func limit(byteCount: Int) -> Int {
        let fitting = (512 << 20) / max(1, byteCount)
        return fitting < 2 ? 0 : min(capacityValue, fitting)
    }

    func lend(byteCount: Int) -> Lent {
        lock.withLock {
            guard limit(byteCount: byteCount) > 0 else {
                frames.removeAll()
                return Lent()
            }
            var lent = Lent(latest: frames.last)
            if frames.count >= limit(byteCount: byteCount) {
                let oldest = frames.removeFirst()
                // Memory of another size is of no use; let it go.
                if oldest.pixels.count == byteCount { lent.oldest = oldest }
            }
            return lent
        }
    }

    func keep(_ frame: Frame, outcomes: UnsafeBufferPointer<BandOutcome>, recycled: Bool, duplicated: Bool) {
        lock.withLock {
            frames.append(frame)
            while frames.count > limit(byteCount: frame.pixels.count) { frames.removeFirst() }
            for outcome in outcomes {
                switch outcome {
                case .painted: statisticsSoFar.paintedBands += 1
                case .kept: statisticsSoFar.keptBands += 1
                case .copied: statisticsSoFar.copiedBands += 1
                }
            }
            if recycled { statisticsSoFar.recycledFrames += 1 }
            if duplicated { statisticsSoFar.duplicatedFrames += 1 }
        }
    }

    var statistics: ReuseStatistics { lock.withLock { statisticsSoFar } }
}

/// Per-band outcomes written by the band workers, each its own.
private struct SharedOutcomes: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<BandOutcome>
    init(_ buffer: UnsafeMutableBufferPointer<BandOutcome>) { self.buffer = buffer }
}

extension DrawList {
    /// Same pixel size and background.
    fileprivate func sameCanvas(as other: DrawList) -> Bool {
        width == other.width && height == other.height && background == other.background
    }

    /// Whether `rows` come out the same painted from `other` (on the same canvas): the same items
    /// reach them, in the same order, and of a quad batch the same boxes. `Band` paints an item
    /// only on rows inside its bounds (a box only inside its own), so nothing else touches them.
    fileprivate func paintsTheSame(rows: Range<Int>, as other: DrawList) -> Bool {
        var mine = ItemsReaching(items, rows), theirs = ItemsReaching(other.items, rows)
        while true {
            switch (mine.next(), theirs.next()) {
            case (nil, nil):
                return true
            case let (.item(a)?, .item(b)?):
                if items[a] == other.items[b] { continue }
                guard case .wave(let x) = items[a], case .wave(let y) = other.items[b], x.paintsTheSame(rows: rows, as: y) else { return false }
            case let (.box(a, ai)?, .box(b, bi)?):
                guard case .quads(let x) = items[a], case .quads(let y) = other.items[b], x.instances[ai] == y.instances[bi] else { return false }
            default:
                return false
            }
        }
    }
}

extension Wave {
    /// A y at and below which every pixel centre lies certainly more than half a pixel under the
    /// curve: f(x) + 0.501·sqrt(1 + f′(x)²) is at most baseline + |A| + 0.501·sqrt(1 + (A·k)²),
    /// and 0.05 px absorbs the rounding of both sides (`WaveColumns.lowestFullRow`, the exact
    /// maximum over the columns, is never above it).
    fileprivate var coveredBelow: Float {
        baseline + abs(amplitude) + 0.501 * (1 + amplitude * k * amplitude * k).squareRoot() + 0.05
    }

    /// Whether the wave paints `rows` as `other` does although the two differ (in phase,
    /// amplitude or level): on rows wholly below both curves the coverage is the clip's and the
    /// bottom edge's alone (`Band.paint`: the curve's test never fires there), so the same colour,
    /// clip, bottom and columns paint the same pixels.
    fileprivate func paintsTheSame(rows: Range<Int>, as other: Wave) -> Bool {
        guard color == other.color, clipCenterX == other.clipCenterX, clipCenterY == other.clipCenterY,
              clipRadius == other.clipRadius, bottom == other.bottom,
              bounds.x0 == other.bounds.x0, bounds.x1 == other.bounds.x1 else { return false }
        func painted(_ rect: PixelRect) -> Range<Int> {
            let top = max(rows.lowerBound, rect.y0), bottom = min(rows.upperBound, rect.y1)
            return top < bottom ? top..<bottom : rows.lowerBound..<rows.lowerBound
        }
        let mine = painted(bounds)
        guard mine == painted(other.bounds) else { return false }
        guard let first = mine.first else { return true }
        let py = Float(first) + 0.5
        return py >= coveredBelow && py >= other.coveredBelow
    }
}

/// The items (by index) whose bounds reach a range of rows, in paint order; of a quad batch,
/// each box whose own bounds do.
private struct ItemsReaching: IteratorProtocol {
    enum Element { case item(Int), box(Int, Int) }

    let items: [DrawItem]
    let rows: Range<Int>
    var item = 0
    var box = 0

    init(_ items: [DrawItem], _ rows: Range<Int>) {
        self.items = items
        self.rows = rows
    }

    @inline(__always) func reaches(_ rect: PixelRect) -> Bool { rect.y0 < rows.upperBound && rect.y1 > rows.lowerBound }

    mutating func next() -> Element? {
        while item < items.count {
            if case .quads(let batch) = items[item] {
                if box == 0 && !reaches(batch.bounds) { box = batch.instances.count }
                while box < batch.instances.count {
                    box += 1
                    if reaches(batch.instanceBounds[box - 1]) { return .box(item, box - 1) }
                }
                item += 1
                box = 0
                continue
            }
            item += 1
            if reaches(items[item - 1].bounds) { return .item(item - 1) }
        }
        return nil
    }
}

/// Buffers lent to band workers and returned, so frames reuse warm memory.
private final class ScratchPool: @unchecked Sendable {
    /// One lent buffer.
    struct Buffer: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
        let byteCount: Int
    }

    private let lock = NSLock()
    private var free: [Buffer] = []

    deinit { free.forEach { $0.pointer.deallocate() } }

    /// A buffer of at least `byteCount` bytes, aligned for SIMD4<Float> (contents undefined).
    func take(byteCount: Int) -> Buffer {
        lock.lock()
        if let index = free.firstIndex(where: { $0.byteCount >= byteCount }) {
            let buffer = free.remove(at: index)
            lock.unlock()
            return buffer
        }
        lock.unlock()
        return Buffer(pointer: .allocate(byteCount: byteCount, alignment: 64), byteCount: byteCount)
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

/// Columns [lo, hi) of a row that all hold one premultiplied value, kept as a run instead of
/// in the accumulators (which are not written there).
private struct SolidRun {
    var lo: Int32
    var hi: Int32
    var value: SIMD4<Float>
}

/// The premultiplied floating-point accumulators of a band of rows.
///
/// Each row starts as one solid run of the background. Painting a pixel first moves the run's
/// value into the accumulators under it (`cut`); an opaque colour certainly covering a run of
/// columns replaces whatever was there with a new solid run (`setSolid`). Resolving writes solid
/// runs as repeated bytes and quantises only the accumulators, so flat areas cost a fill, not a
/// per-pixel conversion. The values are the ones per-pixel painting would hold, so are the bytes.
private final class Band {
    let width: Int
    let y0: Int
    let y1: Int
    let background: SIMD4<Float>
    let accum: UnsafeMutablePointer<Float>
    /// See `CPURenderer.shortcuts`; off, every pixel lives in the accumulators and no run is kept.
    let shortcuts: Bool
    /// `runCapacity` slots per row, the first `runCounts[row]` in use, sorted and disjoint.
    let runSlots: UnsafeMutablePointer<SolidRun>
    let runCounts: UnsafeMutablePointer<Int32>

    /// Solid runs a row can hold; a run that finds no slot goes into the accumulators instead.
    let runCapacity: Int

    /// One coverage value per column, for the run being painted.
    let coverageRow: UnsafeMutablePointer<Float>

    /// The scratch bytes a band of `rows` rows needs: accumulators, runs, run counts, coverage.
    static func byteCount(width: Int, rows: Int, runCapacity: Int) -> Int {
        width * rows * MemoryLayout<SIMD4<Float>>.stride + rows * runCapacity * MemoryLayout<SolidRun>.stride
            + rows * MemoryLayout<Int32>.stride + width * MemoryLayout<Float>.stride
    }

    /// The fewest columns of full coverage by an opaque colour kept as a solid run when painted
    /// (shorter ones are blended: each run costs a slot and splits its neighbours).
    static let shortestSolidRun = 8

    init(width: Int, y0: Int, y1: Int, background: PaintColor, shortcuts: Bool, runCapacity: Int, storage: ScratchPool.Buffer) {
        self.shortcuts = shortcuts
        self.runCapacity = runCapacity
        self.width = width
        self.y0 = y0
        self.y1 = y1
        let a = background.a
        self.background = SIMD4(background.r * a, background.g * a, background.b * a, a)
        let rows = y1 - y0
        let accumBytes = width * rows * MemoryLayout<SIMD4<Float>>.stride
        let runBytes = rows * runCapacity * MemoryLayout<SolidRun>.stride
        accum = storage.pointer.bindMemory(to: Float.self, capacity: width * rows * 4)
        runSlots = (storage.pointer + accumBytes).bindMemory(to: SolidRun.self, capacity: rows * runCapacity)
        runCounts = (storage.pointer + accumBytes + runBytes).bindMemory(to: Int32.self, capacity: rows)
        coverageRow = (storage.pointer + accumBytes + runBytes + rows * MemoryLayout<Int32>.stride)
            .bindMemory(to: Float.self, capacity: width)
        for r in 0..<rows {
            if shortcuts {
                runSlots[r * runCapacity] = SolidRun(lo: 0, hi: Int32(width), value: self.background)
                runCounts[r] = 1
            } else {
                store(self.background, r, 0, width)
                runCounts[r] = 0
            }
        }
    }

    /// Writes `value` to the accumulators of columns [a, b) of band row `r`.
    @inline(__always)
    func store(_ value: SIMD4<Float>, _ r: Int, _ a: Int, _ b: Int) {
        guard a < b else { return }
        let raw = UnsafeMutableRawPointer(accum + (r * width + a) * 4)
        for i in 0..<(b - a) { raw.storeBytes(of: value, toByteOffset: i * 16, as: SIMD4<Float>.self) }
    }

    /// Takes columns [a, b) of band row `r` out of its solid runs; with `materialize`, their
    /// values are written to the accumulators first (the columns are about to be blended over).
    @inline(__always)
    func cut(_ r: Int, _ a: Int, _ b: Int, materialize: Bool) {
        var n = Int(runCounts[r])
        guard a < b, n > 0 else { return }
        let slots = runSlots + r * runCapacity
        let a32 = Int32(a), b32 = Int32(b)
        var i = 0
        while i < n {
            let run = slots[i]
            if run.hi <= a32 { i += 1; continue }
            if run.lo >= b32 { break }
            let o0 = max(run.lo, a32), o1 = min(run.hi, b32)
            if materialize { store(run.value, r, Int(o0), Int(o1)) }
            if run.lo < o0 && run.hi > o1 {
                // [a, b) splits the run in two.
                if n < runCapacity {
                    var j = n
                    while j > i + 1 { slots[j] = slots[j - 1]; j -= 1 }
                    slots[i + 1] = SolidRun(lo: o1, hi: run.hi, value: run.value)
                    n += 1
                } else {
                    store(run.value, r, Int(o1), Int(run.hi))
                }
                slots[i].hi = o0
                break
            } else if run.lo < o0 {
                slots[i].hi = o0
                i += 1
            } else if run.hi > o1 {
                slots[i].lo = o1
                break
            } else {
                var j = i
                while j < n - 1 { slots[j] = slots[j + 1]; j += 1 }
                n -= 1
            }
        }
        runCounts[r] = Int32(n)
    }

    /// Columns [a, b) of band row `r` now hold `value`, whatever they held before.
    @inline(__always)
    func setSolid(_ r: Int, _ a: Int, _ b: Int, _ value: SIMD4<Float>) {
        guard a < b else { return }
        cut(r, a, b, materialize: false)
        let n = Int(runCounts[r])
        guard shortcuts, n < runCapacity else { return store(value, r, a, b) }
        let slots = runSlots + r * runCapacity
        var i = n
        while i > 0 && slots[i - 1].lo >= Int32(b) { slots[i] = slots[i - 1]; i -= 1 }
        slots[i] = SolidRun(lo: Int32(a), hi: Int32(b), value: value)
        runCounts[r] = Int32(n + 1)
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
        let r = y - y0
        let row = accum + r * width * 4
        /// Blends columns [a, b) with the coverage already in `coverageRow`.
        func blendColumns(_ a: Int, _ b: Int) {
            guard a < b else { return }
            cut(r, a, b, materialize: true)
            var p = row + a * 4
            for x in a..<b {
                let c = coverageRow[x]
                if c > 0 { blend(p, color, c) }
                p += 4
            }
        }
        func evaluate(_ range: Range<Int>) {
            guard !range.isEmpty else { return }
            for x in range {
                let px = Float(x) + 0.5
                coverageRow[x] = coverage(x, px, py, solid.contains(px))
            }
            guard shortcuts else { return blendColumns(range.lowerBound, range.upperBound) }
            // Columns of no coverage keep whatever run they are in; stretches of full coverage by
            // an opaque colour become solid runs (blend would write the colour itself there).
            let opaque = color.a == 1
            var x = range.lowerBound
            let end = range.upperBound
            while x < end {
                // `!(c > 0)`, not `c == 0`: a NaN coverage (from geometry no bound caught) must
                // count as none, or neither loop advances and this one never ends.
                while x < end && !(coverageRow[x] > 0) { x += 1 }
                var blendFrom = x
                while x < end && coverageRow[x] > 0 {
                    guard opaque && coverageRow[x] == 1 else { x += 1; continue }
                    var full = x
                    while full < end && coverageRow[full] == 1 { full += 1 }
                    if full - x >= Band.shortestSolidRun {
                        blendColumns(blendFrom, x)
                        setSolid(r, x, full, SIMD4(color.r, color.g, color.b, 1))
                        blendFrom = full
                    }
                    x = full
                }
                blendColumns(blendFrom, x)
            }
        }
        guard let full else { return evaluate(columns) }
        // Opaque and certainly covered: blend's result is the colour itself, written as a run.
        let filled = full.columns(within: columns)
        evaluate(columns.lowerBound..<filled.lowerBound)
        setSolid(r, filled.lowerBound, filled.upperBound, SIMD4(color.r, color.g, color.b, 1))
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

    /// Quantises the band into the output rows (SPEC §0, `resolvePixel`): a solid run's bytes
    /// once, repeated; the accumulators pixel by pixel. Every output byte is written exactly once.
    func resolve(into out: UnsafeMutablePointer<UInt8>) {
        for r in 0..<(y1 - y0) {
            let rowOut = out + (y0 + r) * width * 4
            let slots = runSlots + r * runCapacity
            var x = 0
            for i in 0..<Int(runCounts[r]) {
                let run = slots[i]
                quantise(r, x, Int(run.lo), rowOut)
                let bytes = resolvePixel(run.value[0], run.value[1], run.value[2], run.value[3])
                let pattern = (UInt32(bytes.0) | UInt32(bytes.1) << 8 | UInt32(bytes.2) << 16 | UInt32(bytes.3) << 24).littleEndian
                fill(rowOut + Int(run.lo) * 4, count: Int(run.hi - run.lo), with: pattern)
                x = Int(run.hi)
            }
            quantise(r, x, width, rowOut)
        }
    }

    /// Writes `count` copies of a pixel's four bytes (as one little-endian word), eight at a time.
    @inline(__always)
    func fill(_ out: UnsafeMutablePointer<UInt8>, count: Int, with pattern: UInt32) {
        let raw = UnsafeMutableRawPointer(out)
        let eight = SIMD8<UInt32>(repeating: pattern)
        var i = 0
        while i + 8 <= count {
            raw.storeBytes(of: eight, toByteOffset: i * 4, as: SIMD8<UInt32>.self)
            i += 8
        }
        while i < count {
            raw.storeBytes(of: pattern, toByteOffset: i * 4, as: UInt32.self)
            i += 1
        }
    }

    /// Quantises the accumulators of columns [a, b) of band row `r` into `rowOut`.
    @inline(__always)
    func quantise(_ r: Int, _ a: Int, _ b: Int, _ rowOut: UnsafeMutablePointer<UInt8>) {
        guard a < b else { return }
        var p = accum + (r * width + a) * 4
        var o = rowOut + a * 4
        // Flat colour is the common case: a pixel equal to its left neighbour reuses its bytes.
        var last: (Float, Float, Float, Float) = (.nan, 0, 0, 0)
        var bytes: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        for _ in a..<b {
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

extension QuadInstance {
    /// The columns of the row whose pixel centres lie at `py` where the box can have coverage:
    /// a superset of the pixels with |qx| < halfX + ½ and |qy| < halfY + ½ in the box's frame
    /// (roundedBoxDistance ≥ max(|qx| − halfX, |qy| − halfY), so coverage is 0 outside).
    @inline(__always)
    func rowColumns(_ py: Float, cos c: Float, sin s: Float) -> Range<Int> {
        // Parallel to the row, |dx·slope| < 0.01 on any canvas: an edge then counts as crossing.
        guard let (lo, hi) = offsets(py, reachX: halfX + 0.75, reachY: halfY + 0.75, cos: c, sin: s, parallelSlack: 0.01) else {
            return 0..<0
        }
        // Pixel x has its centre at x + ½; one more column each side absorbs rounding.
        let first = Int(max((centerX + lo - 0.5).rounded(.down) - 1, -1))
        let last = Int(min((centerX + hi - 0.5).rounded(.up) + 1, Float(Int32.max)))
        // A row of the box can lie wholly left of the canvas (a long tilted tick near the edge):
        // then it is empty, not an inverted range.
        return first ..< max(first, last + 1)
    }

    /// Pixel-centre x values of the row at `py` where the box certainly covers (coverage exactly
    /// 1): inside the box shrunk by max(cornerRadius, ½) and 0.05 px more. There |qx| ≤ halfX −
    /// cornerRadius and |qy| ≤ halfY − cornerRadius, so roundedBoxDistance is max(|qx| − halfX,
    /// |qy| − halfY) ≤ −½ − 0.05; the margin dwarfs the rounding of qx, qy and of this interval.
    @inline(__always)
    fileprivate func certainlyCovered(_ py: Float, cos c: Float, sin s: Float) -> SolidSpan {
        let inset = max(cornerRadius, 0.5) + 0.05
        // Parallel to the row, |dx·slope| < 0.02 on any canvas: the row must clear the edge by that.
        guard halfX > inset, halfY > inset,
              let (lo, hi) = offsets(py, reachX: halfX - inset, reachY: halfY - inset, cos: c, sin: s, parallelSlack: -0.02) else {
            return .empty
        }
        return SolidSpan(lo: centerX + lo, hi: centerX + hi)
    }

    /// The offsets dx from the centre, along the row at `py`, with |dx·c + dy·s| < reachX and
    /// |−dx·s + dy·c| < reachY (dy = py − centerY): an interval, nil when empty. A constraint
    /// parallel to the row holds for all dx or none, judged with `parallelSlack` added to its reach.
    @inline(__always)
    private func offsets(_ py: Float, reachX: Float, reachY: Float, cos c: Float, sin s: Float,
                         parallelSlack: Float) -> (Float, Float)? {
        let dy = py - centerY
        var lo = -Float.infinity, hi = Float.infinity
        /// Narrows [lo, hi] to the dx with |dx·slope + offset| < reach; false when none is left.
        @inline(__always) func narrow(_ slope: Float, _ offset: Float, _ reach: Float) -> Bool {
            if abs(slope) < 1e-6 { return abs(offset) < reach + parallelSlack }
            let a = (-reach - offset) / slope, b = (reach - offset) / slope
            lo = max(lo, min(a, b))
            hi = min(hi, max(a, b))
            return lo < hi
        }
        guard narrow(c, dy * s, reachX), narrow(-s, dy * c, reachY), lo < hi else { return nil }
        return (lo, hi)
    }
}
