import Foundation
import Throbber

/// The reference renderer: pure Swift, evaluating the same SPEC formulas as the shaders on the
/// same draw list, spread over the threads it is given.
///
/// Deterministic whatever the thread count: every pixel is computed by exactly one thread,
/// painting the items in list order, so the bytes never depend on how rows are split.
public struct CPURenderer: Sendable {
    /// How many threads share the rows; at least 1.
    public var threadCount: Int
    /// Whether flat stretches of a row (the background, opaque full coverage) are kept as solid
    /// runs instead of per-pixel accumulators, runs certainly covered by an opaque colour are
    /// written without evaluating coverage per pixel, and tilted boxes visit only the columns they
    /// can touch. Off, every pixel is blended and quantised one by one, its coverage from the
    /// plain twins of common.glsl's functions (`itemCoverage`, `boxCoverage`) with no cache. The
    /// bytes are the same either way (a test renders every scene both ways); off is slower.
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
    private let memory: FrameMemory
    /// What the last frame's items were prepared into, by identity.
    private let prepared = PreparedItems()
    /// What became of the bands of every frame drawn by this renderer and the workers made like it.
    let counter: ReuseCounter

    /// Creates a renderer using `threadCount` threads.
    ///
    /// The default is one thread: how many CPUs the process may use (its affinity mask, its
    /// cgroup's quota) is for the caller to find out, since this target reads no files; the
    /// render library's `UsableCPUs` does, and `FrameRenderer` passes its count here.
    ///
    /// - Parameter threadCount: threads sharing the rows (at least 1); it also sets how many
    ///   frames are kept at first (`keptFrames`: twice as many, plus 4).
    public init(threadCount: Int = 1) {
        self.init(threadCount: threadCount, counter: ReuseCounter())
    }

    init(threadCount: Int, counter: ReuseCounter) {
        self.threadCount = max(1, threadCount)
        memory = FrameMemory(capacity: 2 * self.threadCount + 4)
        self.counter = counter
    }

    /// A renderer of the same settings with memory of its own, counting into this one's
    /// `reuseStatistics`: for drawing whole frames on another thread at once.
    public func worker(threadCount: Int = 1) -> CPURenderer {
        var fresh = CPURenderer(threadCount: threadCount, counter: counter)
        fresh.shortcuts = shortcuts
        fresh.solidRunsPerRow = solidRunsPerRow
        fresh.reusesUnchangedRows = reusesUnchangedRows
        return fresh
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
        render(list, threads: threads, stopping: nil)!
    }

    /// Renders one frame as ``render(_:threads:)`` does, giving it up once `stopping` says so:
    /// it is asked before each band of rows and every ``itemsBetweenStopChecks`` items within a
    /// band, so that one heavy frame (thousands of translucent boxes, seconds a frame) does not
    /// hold up a run that was asked to stop. What `stopping` looks at (a signal, a flag) is the
    /// caller's; it must be cheap.
    ///
    /// - Returns: the frame, or nil when it was given up (nothing of it is kept: the renderer
    ///   remembers only whole frames).
    public func render(_ list: DrawList, threads: Int, stopping: (@Sendable () -> Bool)?) -> Image? {
        let threadCount = max(1, min(threads, list.width * list.height / Self.pixelsPerThread))
        let width = list.width, height = list.height
        guard width > 0, height > 0 else { return Image(width: width, height: height) }
        // The renderer's own data for every item: kept from the last frame where an item is unchanged.
        let items = prepared.prepare(list, shortcuts: shortcuts)
        // Bands of a few rows: small enough to balance the load; the result does not depend on
        // how rows are split.
        let bandHeight = CPURenderer.bandHeight(height: height, threads: threadCount)
        let bands = (height + bandHeight - 1) / bandHeight
        let byteCount = width * height * 4
        let runCapacity = max(1, solidRunsPerRow)
        let reuse = shortcuts && reusesUnchangedRows
        var lent = reuse ? memory.lend(byteCount: byteCount) : FrameMemory.Lent()
        // How each earlier frame's items stand to this one's, worked out once for every band. Of
        // the oldest frame only its items and row stamps are read, not its pixels: a second
        // reference to them would make drawing into that memory copy it first.
        let latest = FrameMatch(lent.latest, list, items)
        let kept = FrameMatch(lent.oldest, list, items)
                let outcomes = UnsafeMutableBufferPointer<BandOutcome>.allocate(capacity: bands)
        outcomes.initialize(repeating: .painted)
        defer { outcomes.deallocate() }
        let record = SharedOutcomes(outcomes)
        let abandoned = AbandonFlag()
        /// Whether the frame is given up: asked once, then remembered for every band.
        let givesUp: @Sendable () -> Bool = {
            guard let stopping else { return false }
            if abandoned.isSet { return true }
            if stopping() { abandoned.set(); return true }
            return false
        }
        // Each row's stamp (RowStamps): a painted band's rows a new one, a kept or copied band's
        // rows those of the frame whose bytes they hold.
        var stamps = [UInt64](repeating: 0, count: height)
        let latestPixels = lent.latest?.pixels

        /// Draws every band into `out`, which holds the frame `kept` was rendered from (recycled
        /// memory) or nothing yet (fresh memory, `kept` nil).
        func draw(into out: SharedBuffer, stamps rowStamps: SharedStamps) {
            let work: @Sendable (Int) -> Void = { band in
                if givesUp() { return }
                let y0 = band * bandHeight, y1 = min(height, y0 + bandHeight)
                if let kept, kept.paintsTheSame(rows: y0..<y1) {
                    record.buffer[band] = .kept
                    for y in y0..<y1 { rowStamps.buffer[y] = kept.earlierStamps[y] }
                    return
                }
                if let latest, let latestPixels, latest.paintsTheSame(rows: y0..<y1) {
                    let start = y0 * width * 4
                    latestPixels.withUnsafeBufferPointer { (out.pointer + start).update(from: $0.baseAddress! + start, count: (y1 - y0) * width * 4) }
                    record.buffer[band] = .copied
                    for y in y0..<y1 { rowStamps.buffer[y] = latest.earlierStamps[y] }
                    return
                }
                let stamp = RowStamps.fresh()
                for y in y0..<y1 { rowStamps.buffer[y] = stamp }
                let storage = scratch.take(byteCount: Band.byteCount(width: width, rows: bandHeight, runCapacity: runCapacity))
                let band = Band(width: width, y0: y0, y1: y1, background: list.background, shortcuts: shortcuts,
                                runCapacity: runCapacity, storage: storage)
                for (number, item) in items.enumerated() {
                    if number % CPURenderer.itemsBetweenStopChecks == CPURenderer.itemsBetweenStopChecks - 1 && givesUp() { break }
                    if shortcuts { item.paint(band) } else { item.paintReference(band) }
                }
                if !abandoned.isSet { band.resolve(into: out.pointer) }
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
                stamps.withUnsafeMutableBufferPointer { draw(into: SharedBuffer(buffer.baseAddress!), stamps: SharedStamps(buffer: $0)) }
            }
            output = recycled
        } else {
            // Not zeroed first: the bands write every byte (a zeroing pass cost ~0.2 ms of a
            // 512×512 frame in the batch pipeline's profile).
            output = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
                stamps.withUnsafeMutableBufferPointer { draw(into: SharedBuffer(buffer.baseAddress!), stamps: SharedStamps(buffer: $0)) }
                initialized = byteCount
            }
        }
        if abandoned.isSet { return nil }
        if reuse { memory.keep(FrameMemory.Frame(list: list, prepared: items, pixels: output, stamps: stamps)) }
        counter.count(UnsafeBufferPointer(outcomes), recycled: recycling, duplicated: duplicated)
        return Image(width: width, height: height, pixels: output).promising(RowStamps(stamps))
    }

    /// What `reusesUnchangedRows` has done over this renderer's life, and its workers' (shared
    /// by its copies).
    public var reuseStatistics: ReuseStatistics { counter.statistics }
}

/// Whether a frame was given up (`CPURenderer.render(_:threads:stopping:)`), seen by every band.
private final class AbandonFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

extension CPURenderer {
    /// How many items a band paints between two looks at `stopping`: a look costs a lock or two,
    /// an item at least a span of pixels.
    public static let itemsBetweenStopChecks = 32

    /// Rows per band for a frame `height` rows tall on `threads` threads: at most 16, at least
    /// 4 bands per thread (to balance the load), and at least 8 bands in all, so that a small
    /// frame keeps the rows that did not change since the last frame (the top and bottom of a
    /// 64 px wave ball: tick ring only) instead of painting them again (bench/small-frames.sh:
    /// 64×64 sequences ~16 % faster with 8-row bands than with 16).
    static func bandHeight(height: Int, threads: Int) -> Int {
        max(1, min(16, height / (threads * 4), height / 8))
    }
}
