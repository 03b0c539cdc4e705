import Foundation
import ThrobberPNG

/// `encode`: PNG encoding of the reference frames on one thread, with the bench's encoder. Its
/// checksum is the bytes it wrote; its last set's files are what hash and write then use.
///
/// Each set encodes the frames in order as one sequence, as a batch does (`PNGSequence`: rows a
/// frame shares with the one before are taken, not compressed); its rows say what share of rows
/// was compressed. A set starts a new sequence, so its first frame is compressed whole.
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
        let sequence = PNGSequence()
        var rows = (compressed: 0, total: 0)
        let cpu = try Stopwatch.cpuMilliseconds {
            for image in bench.reference {
                var result = (data: Data(), reusedRows: 0)
                samples.append(try Stopwatch.milliseconds { result = try png.encodeCounting(image, sequence: sequence) })
                checksum &+= UInt64(result.data.count)
                encoded.append(result.data)
                rows.compressed += image.height - result.reusedRows
                rows.total += image.height
            }
        }
        bench.encoded = encoded
        return SampleSet(samples: samples, checksum: checksum, cpuMs: cpu, frames: samples.count, compressedRows: rows,
                         pngChoice: bench.pngChoice)
    }
}
