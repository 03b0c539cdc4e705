import ThrobberGL

/// GL `frame1`: render + readback, one frame per draw.
final class GLSingleFrameStage: GLStage, StageBenchmark {
    let stages = [BenchStage.frame1]
    var ceiling: String? { ClearReadbackCeiling.name(backend) }
    private var buffer: [UInt8] = []

    func setUp() throws { buffer = [UInt8](repeating: 0, count: bench.width * bench.height * 4) }

    func run() throws -> SampleSet {
        var samples: [Double] = []
        var checksum: UInt64 = 0
        let cpu = try Stopwatch.cpuMilliseconds {
            for list in bench.lists {
                samples.append(try Stopwatch.milliseconds { try buffer.withUnsafeMutableBytes { try gl.render(list, into: $0.baseAddress!) } })
                checksum &+= FrameChecksum.of(buffer, width: bench.width, height: bench.height)
            }
        }
        return SampleSet(samples: samples, checksum: checksum, cpuMs: cpu, frames: samples.count)
    }

    func tearDown() { buffer = [] }
}
