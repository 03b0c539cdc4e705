import Foundation
import Throbber

/// An ordered output at a frame rate of its own: each clip frame, as it arrives, is handed on as
/// every output frame that shows it (`Resampling`), numbered as the output's own.
final class ResamplingSink: OrderedSink {
    let inner: OrderedSink
    let timing: Resampling
    private var next = 0

    init(_ inner: OrderedSink, timing: Resampling) {
        self.inner = inner
        self.timing = timing
    }

    func add(_ image: Image, index: Int) throws {
        while next < timing.frames && timing.clipFrame(next) == index {
            try inner.add(image, index: next)
            next += 1
        }
    }

    func finish(overwrite: Bool) throws -> [Manifest.Artifact] {
        precondition(next == timing.frames, "a resampled output finished with \(next) of \(timing.frames) frames")
        return try inner.finish(overwrite: overwrite)
    }

    func abort() { inner.abort() }

    var note: String? { inner.note }
}
