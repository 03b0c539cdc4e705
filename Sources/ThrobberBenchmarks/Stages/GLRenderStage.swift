import ThrobberGL

/// GL `render`: drawing a frame until the driver is done with it, without reading it back.
final class GLRenderStage: StageBenchmark {
    let backend: String
    let stages = [BenchStage.render]
    private let gl: GLRenderer
    private let bench: BenchCase

    /// The stage on `gl`, reported as `backend`.
    init(_ gl: GLRenderer, backend: String, _ bench: BenchCase) {
        self.gl = gl
        self.backend = backend
        self.bench = bench
    }

    func run() throws -> SampleSet {
        var samples: [Double] = []
        for list in bench.lists { samples.append(try Stopwatch.milliseconds { try gl.draw(list); gl.finish() }) }
        // Nothing comes back to checksum: `finish` is what makes the driver do the work.
        return SampleSet(samples: samples, checksum: 0)
    }
}
