import Foundation
import Throbber

/// The latest frames a renderer drew, oldest first, lent to later renders.
final class FrameMemory: @unchecked Sendable {
    struct Frame: Sendable {
        let list: DrawList
        /// Its items as they were painted (`PreparedItems`).
        let prepared: [any CPUItem]
        let pixels: [UInt8]
        /// Its `Image.rowStamps`.
        let stamps: [UInt64]
    }

    /// What a render borrows: the oldest frame (taken away, to draw into) once as many frames as
    /// kept are there, and the latest (still kept, read only).
    struct Lent {
        var oldest: Frame?
        var latest: Frame?
    }

    private let lock = NSLock()
    private var frames: [Frame] = []
    private var capacityValue: Int

    /// - Parameter capacity: frames kept, at least 2.
    init(capacity: Int) { capacityValue = max(2, capacity) }

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

    func keep(_ frame: Frame) {
        lock.withLock {
            frames.append(frame)
            while frames.count > limit(byteCount: frame.pixels.count) { frames.removeFirst() }
        }
    }
}
