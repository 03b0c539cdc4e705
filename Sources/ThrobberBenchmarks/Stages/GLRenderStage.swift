import ThrobberGL

/// GL `render`: drawing a frame until the driver is done with it, without reading it back.
final class GLRenderStage: GLStage, StageBenchmark {
    let stages = [BenchStage.render]
    private var buffer: [UInt8] = []

    func setUp() throws { buffer = [UInt8](repeating: 0, count: bench.width * bench.height * 4) }

    func run() throws -> SampleSet {
        var samples: [Double] = []
        for list in bench.lists { samples.append(try Stopwatch.milliseconds { try gl.draw(list); gl.finish() }) }
        // `finish` is what makes the driver do the work; the set's last frame, read back untimed
        // once the samples are taken, is what the checksum consumes.
        buffer.withUnsafeMutableBytes { gl.readBack(into: $0.baseAddress!) }
        return SampleSet(samples: samples, checksum: FrameChecksum.of(buffer, width: bench.width, height: bench.height))
    }

    func tearDown() { buffer = [] }
}
