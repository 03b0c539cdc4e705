import Foundation
import Throbber

/// An output that takes a clip's frames in order, on one serial queue: sprite sheets, raw and
/// Y4M streams, ffmpeg videos. Nothing appears under the output's name until `finish`.
protocol OrderedSink: AnyObject {
    /// Takes frame `index` (frames arrive in order).
    func add(_ image: Image, index: Int) throws
    /// Writes what is left and moves the files into place.
    func finish(overwrite: Bool) throws -> [Manifest.Artifact]
    /// Removes every temporary file.
    func abort()
    /// What the output came to, for the run's report, once finished (a sheet's pages and memory).
    var note: String? { get }
}

extension OrderedSink {
    var note: String? { nil }
}

/// Makes the sink for one ordered output of a clip.
///
/// - Parameters:
///   - text: the clip's provenance, which a sheet and its atlas carry.
///   - threads: how many threads a sheet page's PNG is compressed on.
func makeSink(_ output: Output, clip: Clip, width: Int, height: Int, text: FrameText,
              cancellation: CancellationSource = NotCancelled(), threads: Int = 1) throws -> OrderedSink {
    switch output {
    case .png: preconditionFailure("PNG frames are not an ordered output")
    case .lottie: preconditionFailure("a Lottie is exported from the scene, not drawn from frames")
    case .sheet(let settings):
        return resampled(SheetSink(settings: settings, clip: clip, timing: output.resampling(in: clip), width: width, height: height, text: text,
                                   cancellation: cancellation, threads: threads), output, clip)
    case .rgba(let path, _):
        return resampled(RawStreamSink(file: try StreamFile(path: path), clip: clip, type: "rgba") { image in image.pixels }, output, clip)
    case .y4m(let path, let alpha, let matte, _):
        let file = try StreamFile(path: path)
        try file.write(Y4M.header(width: width, height: height, fps: output.playbackFPS(clipFPS: clip.fps), alpha: alpha))
        let background = VideoSettings.bytes(matte)
        return resampled(RawStreamSink(file: file, clip: clip, type: "y4m") { image in Array(Y4M.frame(image, alpha: alpha, matte: background)) },
                         output, clip)
    case .video(let path, let settings):
        return resampled(try FFmpegSink(path: path, settings: settings, clip: clip, timing: output.resampling(in: clip), width: width, height: height,
                                        cancellation: cancellation), output, clip)
    }
}

/// `sink` fed through a `ResamplingSink` when the output has a frame rate of its own.
private func resampled(_ sink: OrderedSink, _ output: Output, _ clip: Clip) -> OrderedSink {
    let timing = output.resampling(in: clip)
    return timing.isIdentity ? sink : ResamplingSink(sink, timing: timing)
}

/// The ordered sinks of one clip, used only from the clip's serial queue.
final class SinkBox: @unchecked Sendable {
    private let sinks: [OrderedSink]
    private var finished = false

    init(_ sinks: [OrderedSink]) { self.sinks = sinks }

    func add(_ image: Image, index: Int) throws {
        for sink in sinks { try sink.add(image, index: index) }
    }

    /// Finishes every sink: their artifacts, and what each came to for the run's report.
    func finish(overwrite: Bool) throws -> (artifacts: [Manifest.Artifact], notes: [String]) {
        var artifacts: [Manifest.Artifact] = []
        for sink in sinks { artifacts += try sink.finish(overwrite: overwrite) }
        finished = true
        return (artifacts, sinks.compactMap(\.note))
    }

    func abortUnfinished() {
        if !finished { sinks.forEach { $0.abort() } }
    }
}
