/// `memcpy`: copying a frame's bytes in memory, the floor a readback is set against.
final class MemcpyCeiling: CeilingBenchmark {
    /// The ceiling's name in the report.
    static let name = "memcpy"
    var name: String { Self.name }
    private let bench: BenchCase
    private var buffer: [UInt8] = []
    private var source: [UInt8] = []
    private var copies = 0

    /// The ceiling at `bench`'s frame size.
    init(_ bench: BenchCase) { self.bench = bench }

    func setUp() throws {
        buffer = [UInt8](repeating: 0, count: bench.width * bench.height * 4)
        source = [UInt8](repeating: 7, count: buffer.count)
    }

    func run() throws -> SampleSet {
        var samples: [Double] = []
        for _ in bench.lists {
            samples.append(Stopwatch.milliseconds { buffer.withUnsafeMutableBytes { out in source.withUnsafeBytes { out.copyMemory(from: $0) } } })
            copies += 1
            // A different source each time, so no copy can be skipped as a repeat of the last.
            source[copies % source.count] &+= 1
        }
        return SampleSet(samples: samples, checksum: 0)
    }

    func tearDown() { buffer = []; source = [] }
}
