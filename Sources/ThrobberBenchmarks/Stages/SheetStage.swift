import Foundation
import Throbber
import ThrobberBatch
import ThrobberPNG
import ThrobberRender

/// `sheet`: `throbber batch` on a job of the case's frames into one sprite sheet (its pages at the
/// default `maxSize`, each with its atlas), with the sheets' encoder (`compact` unless
/// `--png-encoder` names one). Its ceiling encodes the same pages, composed once from the
/// reference frames, on every core, sampled right before each set.
final class SheetStage: OwnCeilingStage {
    let backend: String
    let stages = [BenchStage.sheet]
    let encodeCeiling: ImageEncodeCeiling
    private let renderer: FrameRenderer
    private let bench: BenchCase
    private var setIndex = 0

    init(_ renderer: FrameRenderer, _ bench: BenchCase) throws {
        self.renderer = renderer
        backend = renderer.backend.rawValue
        self.bench = bench
        // The pages of the distinct reference frames (at most 256 MB of them), so a long run at
        // 4096 px does not hold gigabytes of pages; the ceiling is per frame either way.
        let pages = SpriteSheet.pages(frameCount: bench.distinctReferenceFrames, frameWidth: bench.width, frameHeight: bench.height,
                                      columns: nil, maxSize: SpriteSheet.defaultMaxSize)
        let images = pages.map { SpriteSheet.Builder.sheet(of: bench.reference[$0.frames], columns: $0.columns, rows: $0.rows) }
        encodeCeiling = try ImageEncodeCeiling(name: "sheet encode, all cores", images: images, frames: bench.distinctReferenceFrames, bench: bench)
    }

    func run() throws -> SampleSet {
        let ceilingMs = try encodeCeiling.sample()
        let frames = bench.settings.frames
        let directory = bench.scratch.appendingPathComponent("sheet-\(backend)-\(bench.id)-\(bench.size)-\(setIndex)")
        setIndex += 1
        try AtomicFile.prepareDirectory(directory)
        var sample = 0.0
        let cpu = try Stopwatch.cpuMilliseconds {
            sample = try Stopwatch.milliseconds {
                let path = directory.appendingPathComponent("sheet.png").path
                let clip = try Clip(scene: bench.unlaidScene, frames: frames, fps: 60, outputs: [
                    .sheet(path: path, json: directory.appendingPathComponent("sheet.json").path, columns: nil,
                           encoder: bench.settings.sheetPNG),
                ])
                let job = try Job(name: "bench sheet \(bench.id) \(bench.size) px", clips: [clip])
                let run = BatchRun(job: job, backend: renderer.backend,
                                   manifestPath: directory.appendingPathComponent("job.manifest.json").path,
                                   manifestSource: .commandLine)
                try run.execute(renderer: renderer)
            }
        }
        return SampleSet(samples: [sample / Double(frames)], checksum: try PipelineStage.bytes(in: directory), cpuMs: cpu,
                         frames: frames, ceilingMs: ceilingMs)
    }
}
