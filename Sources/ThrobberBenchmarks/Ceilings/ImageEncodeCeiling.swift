import Throbber
import ThrobberPNG
import ThrobberRender

/// `sheet encode, all cores` and `preview encode, all cores`: the images a sheet or a preview
/// stage writes (a sheet's pages, a preview's one sheet), composed once from the case's frames and
/// encoded with the same settings on every core (the encoder's segments) and nothing else. The
/// ceiling of the stage, which also renders the frames, composes and writes them.
///
/// Each sample is in ms per frame on the images (their encode time over the frames they hold), so
/// it reads beside the stage's own. The stage samples it right before each of its sets and keeps
/// the samples here; they are reported once, after the case's stages.
final class ImageEncodeCeiling: CeilingBenchmark {
    let name: String
    /// Every sample taken, one set each.
    private(set) var taken: [SampleSet] = []
    private let images: [Image]
    private let frames: Int
    private let png: PNGEncoder

    /// The ceiling named `name` over `images`, which hold `frames` frames of `bench`, with the
    /// sheets' encoder as a sheet of `bench`'s scene and the first image's size resolves it.
    init(name: String, images: [Image], frames: Int, bench: BenchCase) throws {
        self.name = name
        self.images = images
        self.frames = max(1, frames)
        // `auto` chooses from the sheet itself, as a sheet output does.
        png = try bench.settings.sheetPNG.choice(for: images[0]).encoder
    }

    func run() throws -> SampleSet {
        _ = try sample()
        return taken.last!
    }

    /// Takes one sample, keeps it, and returns its ms per frame.
    func sample() throws -> Double {
        let threads = UsableCPUs.current.usable
        var wall = 0.0, bytes = 0
        let cpu = try Stopwatch.cpuMilliseconds {
            wall = try Stopwatch.milliseconds {
                for image in images { bytes += try png.encode(image, threads: threads).count }
            }
        }
        let ms = wall / Double(frames)
        taken.append(SampleSet(samples: [ms], checksum: UInt64(bytes), cpuMs: cpu, frames: frames))
        return ms
    }
}

/// A renderer's stage that samples its own ``ImageEncodeCeiling`` right before each of its sets
/// (sheet, preview); the report lists the samples as that ceiling's.
protocol OwnCeilingStage: StageBenchmark {
    var encodeCeiling: ImageEncodeCeiling { get }
}

extension OwnCeilingStage {
    var ceiling: String? { encodeCeiling.name }
}
