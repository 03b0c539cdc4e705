import Throbber
import ThrobberCPU

/// The CPU renderer's `render` and `frame`, one measurement: it writes straight into memory, so
/// there is no readback to tell them apart. Its rows say what share of row bands it painted.
final class CPURenderStage: StageBenchmark {
    let backend: String
    let stages: [BenchStage]
    private let cpu: CPURenderer
    private let bench: BenchCase

    /// The stage on `cpu`, reported as `backend` in a row for each of `stages` (render, frame).
    init(_ cpu: CPURenderer, backend: String, stages: [BenchStage], _ bench: BenchCase) {
        self.cpu = cpu
        self.backend = backend
        self.stages = stages
        self.bench = bench
    }

    func run() throws -> SampleSet {
        var samples: [Double] = []
        var checksum: UInt64 = 0
        var cpuTime = 0.0
        let (bands, _) = PaintedBands.during(cpu) {
            cpuTime = Stopwatch.cpuMilliseconds {
                for list in bench.lists {
                    var image: Image?
                    samples.append(Stopwatch.milliseconds { image = cpu.render(list) })
                    // One row, as for GL: a whole-image checksum would cost more CPU than the render.
                    checksum &+= FrameChecksum.of(image!)
                }
            }
        }
        return SampleSet(samples: samples, checksum: checksum, cpuMs: cpuTime, frames: samples.count, bands: bands)
    }
}
