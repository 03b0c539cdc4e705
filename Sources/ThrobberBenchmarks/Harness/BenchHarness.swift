import ThrobberRender

/// The one loop every benchmark goes through — set up, a sample set per repeat, tear down — and
/// the report's rows made from what it measured (swift-nio's `measureAndPrint(desc:benchmark:)`).
struct BenchHarness {
    /// Sample sets per benchmark (`--repeat`).
    let repeats: Int
    /// Frames rendered on each renderer before its stages are timed (`--warmup`).
    let warmup: Int

    /// Takes `repeats` sample sets of `benchmark`.
    func measure(_ benchmark: any Benchmark) throws -> Measurement {
        try benchmark.setUp()
        defer { benchmark.tearDown() }
        var sets: [SampleSet] = []
        for _ in 0..<repeats { sets.append(try benchmark.run()) }
        return Measurement(sets: sets)
    }

    /// Renders the first frames of `bench` on `renderer`, untimed, so its stages do not pay for
    /// first use (shader compilation, allocation of its buffers).
    func warmUp(_ renderer: FrameRenderer, _ bench: BenchCase) throws {
        for list in bench.lists.prefix(warmup) { _ = try renderer.render(list) }
    }

    /// Measures `stage` and makes its rows, set against `ceilings` (frames/s by name) where the
    /// stage names one.
    func rows(_ stage: any StageBenchmark, _ bench: BenchCase, ceilings: [String: Double]) throws -> [BenchReport.Row] {
        let measurement = try measure(stage)
        let summary = measurement.summary
        let fps = 1000 / summary.median
        let ratio = measurement.ratioToOwnCeilingSamples ?? stage.ceiling.flatMap { ceilings[$0] }.map { fps / $0 }
        return stage.stages.map { name in
            BenchReport.Row(scene: bench.id, size: bench.size, width: bench.width, height: bench.height, megapixels: bench.megapixels,
                            backend: stage.backend, stage: name.rawValue, ms: summary, framesPerSecond: fps,
                            megapixelsPerSecond: fps * bench.megapixels, ceiling: ratio == nil ? nil : stage.ceiling,
                            ratioToCeiling: ratio, cpuMs: measurement.cpuMsPerFrame, paintedBands: measurement.paintedShare,
                            compressedRows: measurement.compressedShare,
                            pngSetting: measurement.pngChoice?.encoder.setting,
                            pngReason: measurement.pngChoice?.reason,
                            checksum: measurement.checksum, repeatMedians: measurement.repeatMedians)
        }
    }

    /// Measures `ceiling` and makes its entry.
    func ceiling(_ ceiling: any CeilingBenchmark, _ bench: BenchCase) throws -> BenchReport.Ceiling {
        entry(ceiling.name, try measure(ceiling), bench)
    }

    /// The entry of a ceiling measured as `measurement`.
    func entry(_ name: String, _ measurement: Measurement, _ bench: BenchCase) -> BenchReport.Ceiling {
        let summary = measurement.summary
        return BenchReport.Ceiling(name: name, size: bench.size, width: bench.width, height: bench.height, ms: summary,
                                   framesPerSecond: 1000 / summary.median, cpuMs: measurement.cpuMsPerFrame)
    }
}
