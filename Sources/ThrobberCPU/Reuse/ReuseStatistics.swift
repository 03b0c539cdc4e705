import Foundation

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

/// Where a renderer and the workers made like it count what became of their bands, so that the
/// figures cover every frame drawn for a run, on whichever thread.
final class ReuseCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var counted = ReuseStatistics()

    func count(_ outcomes: UnsafeBufferPointer<BandOutcome>, recycled: Bool, duplicated: Bool) {
        var painted = 0, kept = 0, copied = 0
        for outcome in outcomes {
            switch outcome {
            case .painted: painted += 1
            case .kept: kept += 1
            case .copied: copied += 1
            }
        }
        lock.withLock {
            counted.paintedBands += painted
            counted.keptBands += kept
            counted.copiedBands += copied
            if recycled { counted.recycledFrames += 1 }
            if duplicated { counted.duplicatedFrames += 1 }
        }
    }

    var statistics: ReuseStatistics { lock.withLock { counted } }
}
