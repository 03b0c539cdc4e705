import ThrobberBatch
import ThrobberGL
import ThrobberRender

/// Which benchmark times each stage `--stages` names, and the order the bench runs them in: the
/// one place a stage meets its type.
///
/// Order matters beyond the report's: the CPU renderer keeps rows between frames, so what ran
/// before on the same renderer is part of a stage's conditions.
enum StageRegistry {
    /// The ceilings measured first in every case: a frame's memcpy, then each GL backend's
    /// clear + readback.
    static func floors(_ bench: BenchCase, renderers: [FrameRenderer]) -> [any CeilingBenchmark] {
        [MemcpyCeiling(bench)] + renderers.compactMap { renderer in
            renderer.glRenderer.map { ClearReadbackCeiling($0, backend: renderer.backend.rawValue, bench) }
        }
    }

    /// Whether the encode ceiling is sampled on its own, before the stages: with the encode stage
    /// but no pipeline, which otherwise samples it right before each of its repeats.
    static func samplesEncodeCeilingAlone(_ stages: Set<BenchStage>) -> Bool {
        stages.contains(.encode) && !stages.contains(.pipeline)
    }

    /// The stages that need no renderer (they work on the reference frames), in run order.
    static func frameStages(_ stages: Set<BenchStage>, _ bench: BenchCase) -> [any StageBenchmark] {
        var benchmarks: [any StageBenchmark] = []
        if stages.contains(.encode) { benchmarks.append(EncodeStage(bench)) }
        if stages.contains(.hash) { benchmarks += HashStage.Input.allCases.map { HashStage(of: $0, bench) } }
        if stages.contains(.write) { benchmarks.append(WriteStage(bench)) }
        return benchmarks
    }

    /// The GL backends' stages, in run order.
    private static var glStages: [(BenchStage, (GLRenderer, String, BenchCase) -> any StageBenchmark)] { [
        (.render, GLRenderStage.init),
        (.readback, GLReadbackStage.init),
        (.frame, GLFrameStage.init),
        (.frame1, GLSingleFrameStage.init),
        (.async, GLAsyncStage.init),
    ] }

    /// One renderer's stages, in run order; the pipeline, then the sheet and the preview, last.
    static func rendererStages(_ stages: Set<BenchStage>, _ renderer: FrameRenderer, _ bench: BenchCase,
                               encodeCeiling: EncodeCeiling) throws -> [any StageBenchmark] {
        let backend = renderer.backend.rawValue
        var benchmarks: [any StageBenchmark] = []
        // The CPU renderer writes straight into memory: its render and frame are one measurement.
        let cpuStages = [BenchStage.render, .frame].filter(stages.contains)
        if let gl = renderer.glRenderer {
            benchmarks += glStages.filter { stages.contains($0.0) }.map { $0.1(gl, backend, bench) }
        } else if let cpu = renderer.cpuRenderer, !cpuStages.isEmpty {
            benchmarks.append(CPURenderStage(cpu, backend: backend, stages: cpuStages, bench))
        }
        if stages.contains(.pipeline) {
            // The CPU renderer's frame as the pipeline renders it (for the budget) is timed only
            // beside its render or frame stage: a run of the pipeline alone times the pipeline alone.
            benchmarks.append(PipelineStage(renderer, bench, encodeCeiling: encodeCeiling, measuresRenderCost: !cpuStages.isEmpty))
        }
        if stages.contains(.sheet) { benchmarks.append(try SheetStage(renderer, bench)) }
        if stages.contains(.preview) { benchmarks.append(try PreviewStage(renderer, bench)) }
        return benchmarks
    }
}
