import Throbber
import ThrobberGL

/// GL `frame`: render + readback as render and batch draw frames, a stack of frames per draw and
/// per readback; a sample is a stack's time per frame.
final class GLFrameStage: GLStage, StageBenchmark {
    let stages = [BenchStage.frame]
    var ceiling: String? { ClearReadbackCeiling.name(backend) }
    private var stack = 1

    func setUp() throws { stack = gl.framesPerDraw(width: bench.lists[0].width, height: bench.lists[0].height) }

    func run() throws -> SampleSet {
        var samples: [Double] = []
        var checksum: UInt64 = 0
        var frames = 0
        let lists = bench.lists
        let cpu = try Stopwatch.cpuMilliseconds {
            for first in stride(from: 0, to: lists.count, by: stack) {
                let chunk = Array(lists[first..<min(lists.count, first + stack)])
                var images: [Image] = []
                samples.append(try Stopwatch.milliseconds { images = try gl.render(chunk) } / Double(chunk.count))
                for image in images { checksum &+= FrameChecksum.of(image) }
                frames += chunk.count
            }
        }
        return SampleSet(samples: samples, checksum: checksum, cpuMs: cpu, frames: frames)
    }
}
