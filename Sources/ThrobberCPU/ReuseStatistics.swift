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
