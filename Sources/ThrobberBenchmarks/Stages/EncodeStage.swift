import Foundation

/// `encode`: PNG encoding of the reference frames on one thread, with the bench's encoder. Its
/// checksum is the bytes it wrote; its last set's files are what hash and write then use.
final class EncodeStage: StageBenchmark {
    let backend = "png"
    let stages = [BenchStage.encode]
    private let bench: BenchCase

    /// The stage on `bench`'s reference frames.
    init(_ bench: BenchCase) { self.bench = bench }

    func run() throws -> SampleSet {
        var samples: [Double] = []
        var checksum: UInt64 = 0
        var encoded: [Data] = []
        let png = bench.png
        let cpu = try Stopwatch.cpuMilliseconds {
            for image in bench.reference {
                var data = Data()
                samples.append(try Stopwatch.milliseconds { data = try png.encode(image) })
                checksum &+= UInt64(data.count)
                encoded.append(data)
            }
        }
        bench.encoded = encoded
        return SampleSet(samples: samples, checksum: checksum, cpuMs: cpu, frames: samples.count)
    }
}
