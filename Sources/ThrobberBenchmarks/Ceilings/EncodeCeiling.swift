import Dispatch
import Throbber
import ThrobberPNG

/// `png encode, all cores`: the bench's encoder alone on every core over the reference frames,
/// doing nothing else — the pipeline's ceiling. Each sample encodes the frames as one sequence,
/// as the pipeline does (`PNGSequence`).
///
/// The pipeline samples it right before each of its sets (`sample()`); without a pipeline the
/// harness samples it on its own. Either way every sample is kept here and reported once, after
/// the case's stages.
final class EncodeCeiling: CeilingBenchmark {
    /// The ceiling's name in the report.
    static let name = "png encode, all cores"
    var name: String { Self.name }
    /// Every sample taken, one set each.
    private(set) var taken: [SampleSet] = []
    private let images: [Image]
    private let png: PNGEncoder

    /// The ceiling of `png` over `images`.
    init(images: [Image], png: PNGEncoder) {
        self.images = images
        self.png = png
    }

    func run() throws -> SampleSet {
        _ = sample()
        return taken.last!
    }

    /// Takes one sample, keeps it, and returns its ms per frame.
    func sample() -> Double {
        let (images, png, sequence) = (self.images, self.png, PNGSequence())
        var wall = 0.0
        let cpu = Stopwatch.cpuMilliseconds {
            wall = Stopwatch.milliseconds {
                DispatchQueue.concurrentPerform(iterations: images.count) { index in
                    _ = try? png.encode(images[index], sequence: sequence)
                }
            }
        }
        let ms = wall / Double(images.count)
        taken.append(SampleSet(samples: [ms], checksum: 0, cpuMs: cpu, frames: images.count))
        return ms
    }
}
