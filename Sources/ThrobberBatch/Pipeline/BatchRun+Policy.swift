import Foundation
import Synchronization
import Throbber
import ThrobberDigest
import ThrobberPNG
import ThrobberRender

/// How a run spends memory and time on its frames: the frame budget, frames in flight, the
/// encoding of one frame, and the loop's provenance text.
extension BatchRun {
    /// Frames of at least this many pixels are encoded, by libpng or libdeflate (one call for
    /// the whole frame), on a thread of their own that a stopping run does not wait for
    /// (``Cancellable``): 2²² px, 2048 × 2048, tens of milliseconds at libdeflate 1 and seconds
    /// at the smallest settings; a smaller frame lands whole well within a second.
    public static let cancellableFramePixels = 1 << 22

    /// Encodes one frame of a clip; a large one through ``Cancellable``, so that a first signal
    /// ends the run within a second whatever encoder is at work (the frame is then not written).
    ///
    /// - Parameter threads: how many threads the frame's segments may be compressed on
    ///   (``threadsPerFrame(threads:inFlight:frames:)``).
    static func encode(_ image: Image, encoder: PNGEncoder, text: [(String, String)], sequence: PNGSequence,
                       cancellation: CancellationSource, threads: Int = 1) throws -> (Data, Int) {
        // igzip and zlib take a frame's unchanged segments from the one their thread encoded
        // before: they stay on the pool's thread (and compress in ~128 KiB segments, each quick).
        let segmented = switch encoder {
        case .isal, .zlib: true
        default: false
        }
        guard image.width * image.height >= cancellableFramePixels, !segmented else {
            return try encoder.encodeCounting(image, text: text, sequence: sequence, threads: threads)
        }
        return try Cancellable.run(cancellation, while: "a \(image.width)×\(image.height) px frame was being compressed") {
            try encoder.encodeCounting(image, text: text, sequence: sequence)
        }
    }

    /// How many threads one frame of a clip is compressed on: the run's threads shared among the
    /// frames that can be encoding at once, the fewer of the frames in flight and the clip's
    /// frames. A clip of many small frames keeps every thread on a frame of its own (1); a
    /// clip of a few big frames, or of frames so big that the budget holds two in flight (a
    /// 4096 px frame is 64 MiB), splits each across the threads left idle (igzip's and zlib's
    /// segments; the bytes are the same either way).
    public static func threadsPerFrame(threads: Int, inFlight: Int, frames: Int) -> Int {
        max(1, threads / max(1, min(inFlight, frames)))
    }

    /// Bytes of frame pixels a run holds at most by default: 256 MiB, 64 frames of 1024 × 1024 px.
    public static let defaultFrameBudget = 256 << 20

    /// How many encode jobs (frames, or groups of small frames drawn one at a time) a run keeps
    /// queued or running: twice the threads, so that none waits for the next frame, unless
    /// `budget` bytes of pixels hold fewer; and at least 2, so that rendering and encoding still
    /// overlap when a single frame is larger than the budget.
    ///
    /// Each frame in flight counts twice: beside it, the renderer keeps memory to draw into (the
    /// frames it recycles when this thread renders; the frame memory of each worker when the
    /// encode jobs draw their own), so the pixels held stay near `budget` whatever the threads.
    ///
    /// - Parameters:
    ///   - threads: the run's encoding threads.
    ///   - frameBytes: bytes of the largest frame (width × height × 4).
    ///   - budget: bytes of pixels in flight at most.
    public static func framesInFlight(threads: Int, frameBytes: Int, budget: Int = defaultFrameBudget) -> Int {
        let fitting = budget / max(1, 2 * frameBytes)
        return max(2, min(2 * max(1, threads), fitting))
    }

    /// The loop as values, for the `Throbber:loop` tEXt chunk: `seconds=4 frames=240
    /// choice=search maxSpeedChange=2%: amplitude cycles=2 speed=+0.00%, frontPhase cycles=4
    /// speed=-1.30%, …` (`no part retimed` when the scene has no periodic part).
    public static func loopText(_ loop: LoopPlan) -> String {
        "seconds=\(formatNumber(loop.duration)) frames=\(loop.frames) choice=\(loop.choice.rawValue)"
            + (loop.maxSpeedChange.map { " maxSpeedChange=\(formatNumber($0))%" } ?? "") + ": \(loop.changesText)"
    }
}
