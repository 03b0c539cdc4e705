/// One thing the bench times, in the shape of swift-nio's `NIOPerformanceTester`: set up once,
/// run once per sample set (`--repeat`), torn down once; the harness does the rest.
///
/// `run()` times its own samples (a frame, a stack of frames or a whole job each, whichever the
/// stage is about) because only the stage knows which part of its loop is the work and which is
/// bookkeeping; it returns them with a checksum of what the work produced, which the harness
/// folds into the report so the work cannot be optimised away.
protocol Benchmark: AnyObject {
    /// Prepares what every sample set uses; not timed.
    func setUp() throws
    /// Takes one sample set.
    ///
    /// - Returns: the samples in ms per frame, the checksum, and what else this stage measures.
    func run() throws -> SampleSet
    /// Releases what `setUp` made.
    func tearDown()
}

extension Benchmark {
    /// Nothing to prepare.
    func setUp() throws {}
    /// Nothing to release.
    func tearDown() {}
}

/// A benchmark whose samples fill rows of the report.
protocol StageBenchmark: Benchmark {
    /// The row's backend column: the renderer, or what a backend-independent stage exercises
    /// (`png`, `sha256`, `file`).
    var backend: String { get }
    /// The stages whose rows these samples fill: one, except where one measurement is two stages
    /// (the CPU renderer's render and frame).
    var stages: [BenchStage] { get }
    /// The ceiling this stage's frames/s is set against, by name, if any.
    var ceiling: String? { get }
    /// For the pipeline's budget: the CPU time per frame of rendering as the pipeline renders,
    /// where that differs from the frame stage's (measured in `setUp`); nil elsewhere.
    var budgetRenderCpuMs: Double? { get }
}

extension StageBenchmark {
    /// Most stages stand alone.
    var ceiling: String? { nil }
    /// Most stages feed no budget.
    var budgetRenderCpuMs: Double? { nil }
}

/// A benchmark that is a limit the stages are judged against: a row of the report's ceilings.
///
/// Its checksum is 0 and goes nowhere (a ceiling's entry has none): what a ceiling writes lands in
/// memory it owns or goes through a C library, neither of which the optimiser can drop.
protocol CeilingBenchmark: Benchmark {
    /// The ceiling's name, as the stages' `ceiling` refers to it.
    var name: String { get }
}
