import Foundation

/// The wave ball's tick rings, built once for each geometry and lit count and shared.
///
/// A tick ring is the same for every frame of a clip — the background ring always, the lit ring
/// while the lit count holds — yet building one costs a cosine and a sine per tick in double
/// precision, plus each box's bounds: at 64×64 px that was a quarter of a frame's CPU time,
/// more than painting it. The key holds every number the batch is computed from, so a hit is
/// exactly the batch the computation would give (SPEC §1 is unchanged); a clip needs two or a
/// few entries, and the table is emptied when it grows past `capacity`.
final class TickRingCache: @unchecked Sendable {
    /// Everything a ring's batch depends on.
    struct Key: Hashable {
        var center: Double
        var radius: Double
        var halfX: Double
        var halfY: Double
        /// The angle of step 0 (0 for the background ring, π/2 for the lit one).
        var start: Double
        var tickCount: Int
        /// How many ticks are lit on each side; -1 for the background ring (every step).
        var litCount: Int
        var color: RGBA
        var width: Int
        var height: Int
    }

    static let shared = TickRingCache()
    /// Distinct rings kept at once: far more than a clip uses, little memory.
    static let capacity = 64

    private let lock = NSLock()
    private var batches: [Key: QuadBatch] = [:]

    /// The batch for `key`, made by `make` the first time.
    func batch(_ key: Key, make: () -> QuadBatch) -> QuadBatch {
        if let hit = lock.withLock({ batches[key] }) { return hit }
        let made = make()
        lock.withLock {
            if batches.count >= Self.capacity { batches.removeAll(keepingCapacity: true) }
            batches[key] = made
        }
        return made
    }
}
