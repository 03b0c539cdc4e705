import ThrobberCPU
import ThrobberPNG

/// What one `Benchmark.run()` measured: one sample set.
struct SampleSet {
    /// Milliseconds per frame, one entry per sample.
    var samples: [Double]
    /// Of what the work produced (bytes, a pixel of each frame…), so it cannot be optimised away.
    var checksum: UInt64
    /// CPU time of the whole process while the work ran (user + system, every thread), in ms,
    /// over `frames` frames; nil where the stage does not report it.
    var cpuMs: Double? = nil
    /// The frames `cpuMs` covers.
    var frames: Int = 0
    /// With the CPU renderer: the row bands it painted and considered while the work ran.
    var bands: PaintedBands? = nil
    /// With a PNG encoder in a sequence: the rows it compressed and the rows it encoded (the
    /// others it took from the frame before, `PNGSequence`).
    var compressedRows: (compressed: Int, total: Int)? = nil
    /// With a PNG encoder: what wrote the frames, and why when `auto` chose it.
    var pngChoice: PNGChoice? = nil
    /// The ceiling sampled right before this set alone, in ms per frame, where the stage sets
    /// each repeat against its own ceiling sample (the pipeline: the machine's drift between
    /// repeats then cancels out of the ratio).
    var ceilingMs: Double? = nil
}

/// How many row bands the CPU renderer painted, of all it considered, between two readings of its
/// statistics.
struct PaintedBands {
    /// Bands painted.
    var painted: Int
    /// Bands painted, kept or copied.
    var total: Int

    /// The bands of `renderer` while `body` ran.
    static func during<T>(_ renderer: CPURenderer, _ body: () throws -> T) rethrows -> (PaintedBands, T) {
        let before = renderer.reuseStatistics
        let result = try body()
        let after = renderer.reuseStatistics
        let painted = after.paintedBands - before.paintedBands
        let total = painted + after.keptBands - before.keptBands + after.copiedBands - before.copiedBands
        return (PaintedBands(painted: painted, total: total), result)
    }

    /// The bands of two readings together.
    static func + (a: PaintedBands, b: PaintedBands) -> PaintedBands {
        PaintedBands(painted: a.painted + b.painted, total: a.total + b.total)
    }

    /// The share painted; nil when no band was rendered.
    var share: Double? { total > 0 ? Double(painted) / Double(total) : nil }
}
