import Foundation
import ThrobberDigest

/// `hash`: SHA-256 on one thread, of each frame's PNG file as the manifest records it, or of its
/// pixels as manifests recorded before; a row each, so the two can be compared.
final class HashStage: StageBenchmark {
    /// What is hashed.
    enum Input: CaseIterable {
        /// The PNG file (the manifest's "sha256").
        case file
        /// The frame's pixels.
        case pixels
    }

    let stages = [BenchStage.hash]
    var backend: String { input == .file ? "sha256" : "sha256 pixels" }
    private let input: Input
    private let bench: BenchCase
    private var inputs: [Data] = []

    /// The stage hashing `input` of `bench`'s reference frames.
    init(of input: Input, _ bench: BenchCase) {
        self.input = input
        self.bench = bench
    }

    func setUp() throws {
        inputs = input == .file ? try bench.encodedFrames()
            : BenchCase.repeating(bench.reference.prefix(bench.distinctReferenceFrames).map { Data($0.pixels) }, count: bench.reference.count)
    }

    func run() throws -> SampleSet {
        var samples: [Double] = []
        var checksum: UInt64 = 0
        let cpu = Stopwatch.cpuMilliseconds {
            for data in inputs {
                var digest = ""
                samples.append(Stopwatch.milliseconds { digest = SHA256.hex(data) })
                checksum &+= UInt64(digest.utf8.first ?? 0)
            }
        }
        return SampleSet(samples: samples, checksum: checksum, cpuMs: cpu, frames: samples.count)
    }

    func tearDown() { inputs = [] }
}
