import Foundation
import Throbber
import ThrobberBatch
import ThrobberPNG
import ThrobberRender

/// `preview`: what `throbber preview` does — the case's scene at ``frameCount(width:height:)``
/// frames over its preview loop, rendered, composed on a labelled contact sheet and encoded with
/// the sheets' encoder (`compact` unless `--png-encoder` names one) on every core — in ms per
/// frame. Its ceiling encodes the same sheet, composed once, on every core, sampled right before
/// each set. Nothing is written: the file adds one `write` of the sheet, which `write` measures.
final class PreviewStage: OwnCeilingStage {
    let backend: String
    let stages = [BenchStage.preview]
    let encodeCeiling: ImageEncodeCeiling
    private let renderer: FrameRenderer
    private let bench: BenchCase
    private let times: [Double]
    private let columns: Int

    /// The frames of a case's preview: 16 (4 × 4, `preview --frames 16 --columns 4`), or the
    /// largest square count whose sheet fits the sheet limits at this frame size.
    static func frameCount(width: Int, height: Int) -> Int {
        var side = 4
        while side > 1, (try? ContactSheet.checkSize(frames: side * side, frameWidth: width, frameHeight: height, columns: side)) == nil {
            side -= 1
        }
        return side * side
    }

    init(_ renderer: FrameRenderer, _ bench: BenchCase) throws {
        self.renderer = renderer
        backend = renderer.backend.rawValue
        self.bench = bench
        let count = Self.frameCount(width: bench.width, height: bench.height)
        columns = Int(Double(count).squareRoot().rounded(.up))
        times = Preview.times(frames: count, duration: bench.scene.model.previewDuration, start: 0)
        let sheet = try Preview.sheet(bench.scene, times: times, columns: columns, renderer: renderer)
        encodeCeiling = try ImageEncodeCeiling(name: "preview encode, all cores", images: [sheet], frames: count, bench: bench)
    }

    func run() throws -> SampleSet {
        let ceilingMs = try encodeCeiling.sample()
        var bytes = 0
        var sample = 0.0
        let cpu = try Stopwatch.cpuMilliseconds {
            sample = try Stopwatch.milliseconds {
                let sheet = try Preview.sheet(bench.scene, times: times, columns: columns, renderer: renderer)
                bytes = try Preview.png(sheet, scene: bench.scene, times: times, columns: columns, renderer: renderer,
                                        encoder: bench.settings.sheetPNG, threads: UsableCPUs.current.usable).data.count
            }
        }
        return SampleSet(samples: [sample / Double(times.count)], checksum: UInt64(bytes), cpuMs: cpu, frames: times.count,
                         ceilingMs: ceilingMs)
    }
}
