import ThrobberGL

/// GL `render`: drawing a frame until the driver is done with it, without reading it back.
final class GLRenderStage: GLStage, StageBenchmark {
    let stages = [BenchStage.render]

    func run() throws -> SampleSet {
        var samples: [Double] = []
        for list in bench.lists { samples.append(try Stopwatch.milliseconds { try gl.draw(list); gl.finish() }) }
        // Nothing comes back to checksum: `finish` is what makes the driver do the work.
        return SampleSet(samples: samples, checksum: 0)
    }
}
