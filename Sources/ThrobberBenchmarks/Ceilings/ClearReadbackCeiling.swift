import ThrobberGL

/// `<backend> clear+readback`: a GL backend's own floor, a clear and a readback with no drawing,
/// which its frame stages are set against.
final class ClearReadbackCeiling: CeilingBenchmark {
    /// The ceiling's name in the report for the GL backend called `backend`.
    static func name(_ backend: String) -> String { "\(backend) clear+readback" }
    let name: String
    private let gl: GLRenderer
    private let bench: BenchCase
    private var buffer: [UInt8] = []

    /// The ceiling of `gl`, reported for `backend`.
    init(_ gl: GLRenderer, backend: String, _ bench: BenchCase) {
        self.gl = gl
        name = Self.name(backend)
        self.bench = bench
    }

    func setUp() throws { buffer = [UInt8](repeating: 0, count: bench.width * bench.height * 4) }

    func run() throws -> SampleSet {
        var samples: [Double] = []
        let (width, height) = (bench.width, bench.height)
        for _ in bench.lists {
            samples.append(try Stopwatch.milliseconds {
                try buffer.withUnsafeMutableBytes { try gl.clearAndReadBack(width: width, height: height, into: $0.baseAddress!) }
            })
        }
        return SampleSet(samples: samples, checksum: 0)
    }

    func tearDown() { buffer = [] }
}
