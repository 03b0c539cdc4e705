import Foundation

/// Buffers lent to band workers and returned, so frames reuse warm memory.
final class ScratchPool: @unchecked Sendable {
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
