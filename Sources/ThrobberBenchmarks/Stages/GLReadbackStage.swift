import ThrobberGL

/// GL `readback`: `glReadPixels` of a frame drawn (untimed) just before, against memcpy.
final class GLReadbackStage: GLStage, StageBenchmark {
    let stages = [BenchStage.readback]
    var ceiling: String? { MemcpyCeiling.name }
    private var buffer: [UInt8] = []

    func setUp() throws { buffer = [UInt8](repeating: 0, count: bench.width * bench.height * 4) }

    func run() throws -> SampleSet {
        var samples: [Double] = []
        var checksum: UInt64 = 0
        for list in bench.lists {
            try gl.draw(list)
            gl.finish()
            samples.append(Stopwatch.milliseconds { buffer.withUnsafeMutableBytes { gl.readBack(into: $0.baseAddress!) } })
            checksum &+= FrameChecksum.of(buffer, width: bench.width, height: bench.height)
        }
        return SampleSet(samples: samples, checksum: checksum)
    }

    func tearDown() { buffer = [] }
}
