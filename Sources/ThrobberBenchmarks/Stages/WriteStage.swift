import Foundation
import ThrobberBatch

/// `write`: each PNG file written as a batch makes a new one, unnamed (O_TMPFILE) then linked to
/// its final name. Its checksum is the bytes written.
final class WriteStage: StageBenchmark {
    let backend = "file"
    let stages = [BenchStage.write]
    private let bench: BenchCase
    private var files: [Data] = []
    /// Every set writes new names: overwriting would time another operation.
    private var setIndex = 0

    /// The stage on `bench`'s reference frames, encoded.
    init(_ bench: BenchCase) { self.bench = bench }

    func setUp() throws { files = try bench.encodedFrames() }

    func run() throws -> SampleSet {
        var samples: [Double] = []
        let (id, size, repeatIndex) = (bench.id, bench.size, setIndex)
        let cpu = try Stopwatch.cpuMilliseconds {
            for (index, data) in files.enumerated() {
                let file = bench.scratch.appendingPathComponent("w-\(id)-\(size)-\(repeatIndex)-\(index).png")
                samples.append(try Stopwatch.milliseconds { try AtomicFile.write(data, to: file, overwrite: false) })
            }
        }
        setIndex += 1
        return SampleSet(samples: samples, checksum: UInt64(files.map(\.count).reduce(0, +)), cpuMs: cpu, frames: samples.count)
    }

    func tearDown() { files = [] }
}
