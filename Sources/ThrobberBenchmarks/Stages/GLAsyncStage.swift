import ThrobberGL

/// GL `async`: render + readback through a ring of pixel-buffer objects mapped a frame late; a
/// sample is a whole set's time per frame, since a frame's readback finishes during the next.
final class GLAsyncStage: GLStage, StageBenchmark {
    let stages = [BenchStage.async]
    var ceiling: String? { ClearReadbackCeiling.name(backend) }

    func run() throws -> SampleSet {
        var checksum: UInt64 = 0
        let lists = bench.lists
        let sample = try Stopwatch.milliseconds {
            for list in lists {
                if let image = try gl.renderPipelined(list) { checksum &+= FrameChecksum.of(image) }
            }
            for image in try gl.drainPipelined() { checksum &+= FrameChecksum.of(image) }
        } / Double(lists.count)
        return SampleSet(samples: [sample], checksum: checksum)
    }
}
