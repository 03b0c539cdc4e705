import Foundation
import ThrobberBatch
import ThrobberCPU
import ThrobberRender

/// `pipeline`: the real thing, `throbber batch` on a job of the case's frames (render, PNG with
/// tEXt chunks, SHA-256 of the file, atomic write, manifest) with the bench's encoder. Its rows
/// say what share of row bands the CPU renderer painted and of rows the encoder compressed.
///
/// Each set is one job, set against the encode ceiling sampled right before it, so drift in the
/// machine's speed hits both alike.
final class PipelineStage: StageBenchmark {
    let backend: String
    let stages = [BenchStage.pipeline]
    var ceiling: String? { EncodeCeiling.name }
    private(set) var budgetRenderCpuMs: Double?
    private let renderer: FrameRenderer
    private let bench: BenchCase
    private let encodeCeiling: EncodeCeiling
    private let measuresRenderCost: Bool
    private var setIndex = 0

    /// The stage on `renderer`, sampling `encodeCeiling` before each set.
    ///
    /// - Parameter measuresRenderCost: with the CPU renderer, first time a frame on the threads
    ///   the pipeline gives it, for the budget.
    init(_ renderer: FrameRenderer, _ bench: BenchCase, encodeCeiling: EncodeCeiling, measuresRenderCost: Bool) {
        self.renderer = renderer
        backend = renderer.backend.rawValue
        self.bench = bench
        self.encodeCeiling = encodeCeiling
        self.measuresRenderCost = measuresRenderCost
    }

    func setUp() throws {
        // The pipeline renders on fewer threads (its encoders keep the cores busy); its budget
        // takes the CPU time a frame costs that way.
        let threads = CPURenderer.renderThreads(encoders: UsableCPUs.current.usable)
        guard measuresRenderCost, let cpu = renderer.cpuRenderer, threads != cpu.threadCount else { return }
        // No checksum: no row reports this, and the renderer keeps each frame's rows for the next.
        budgetRenderCpuMs = Stopwatch.cpuMilliseconds {
            for list in bench.lists { _ = cpu.render(list, threads: threads) }
        } / Double(bench.lists.count)
    }

    func run() throws -> SampleSet {
        let ceilingMs = encodeCeiling.sample()
        let frames = bench.settings.frames
        let directory = bench.scratch.appendingPathComponent("pipeline-\(backend)-\(bench.id)-\(bench.size)-\(setIndex)")
        setIndex += 1
        try AtomicFile.prepareDirectory(directory)
        let png = bench.settings.png
        // The job as `batch` reads one, made in the time: its clip lays out the scene's text
        // (fonts opened, shaped, rasterised into the atlas) once, as a real job's does.
        func execute() throws -> BatchRun.Summary {
            let clip = try Clip(scene: bench.unlaidScene, frames: frames, fps: 60, outputs: [
                // The bench's encoder itself (`auto` stays auto: the batch chooses from the clip's first frames, as
                // the ceiling's `bench.png` did).
                .png(pattern: FramePattern(literalPrefix: directory.appendingPathComponent("f/").path, width: 5, suffix: ".png"),
                     encoder: png),
            ])
            let job = try Job(name: "bench \(bench.id) \(bench.size) px", clips: [clip])
            let run = BatchRun(job: job, backend: renderer.backend,
                               manifestPath: directory.appendingPathComponent("job.manifest.json").path,
                               manifestSource: .commandLine)
            return try run.execute(renderer: renderer)
        }
        var sample = 0.0
        var bands: PaintedBands?
        var summary: BatchRun.Summary?
        let cpu = try Stopwatch.cpuMilliseconds {
            if let cpuRenderer = renderer.cpuRenderer {
                (bands, sample) = try PaintedBands.during(cpuRenderer) { try Stopwatch.milliseconds { summary = try execute() } }
            } else {
                sample = try Stopwatch.milliseconds { summary = try execute() }
            }
        }
        // The files stay until the end: deleting them here would make the next set pay for it
        // (ext4 without a journal scans recently freed inodes on every file it creates: 4 % of a
        // run in `perf`). The checksum is the bytes the job wrote (frames and manifest), looked at untimed.
        return SampleSet(samples: [sample / Double(frames)], checksum: try Self.bytes(in: directory), cpuMs: cpu, frames: frames,
                         bands: bands, compressedRows: summary?.pngRows, pngChoice: summary?.pngChoices.first?.choice,
                         ceilingMs: ceilingMs)
    }

    /// The sizes of the files in `directory`, summed.
    static func bytes(in directory: URL) throws -> UInt64 {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).reduce(0) { total, name in
            let size = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.size] as? NSNumber
            return total &+ (size?.uint64Value ?? 0)
        }
    }
}
