import Foundation
import Throbber

/// Frame delays in whole ticks (centiseconds for a GIF, milliseconds for an APNG, a WebP or an
/// atlas's `duration`), as browsers and engines play them.
///
/// Frame j starts at t(j) = round(j · ticksPerSecond / fps) ticks (halves rounded up) and shows
/// until t(j + 1): the delays are the differences of rounded times rather than rounded
/// differences, so their sum is exactly t(frames), the output's length whenever that is a whole
/// number of ticks, and no rounding error accumulates. At 60 fps in milliseconds the delays run
/// 17, 16, 17, 17, 16, 17 … and 60 of them add up to 1,000 ms (delays of exactly 1/60 s are cut to
/// 16 ms each by Chromium, which plays such a loop 4 % fast).
public struct FrameClock: Sendable, Equatable {
    /// Ticks per second: 100 for a GIF, 1,000 for milliseconds.
    public var ticksPerSecond: Int
    /// The frames per second of the output.
    public var fps: Double

    public init(ticksPerSecond: Int, fps: Double) {
        self.ticksPerSecond = ticksPerSecond
        self.fps = fps
    }

    /// A GIF's clock, in centiseconds.
    public static func centiseconds(fps: Double) -> FrameClock { FrameClock(ticksPerSecond: 100, fps: fps) }
    /// An APNG's, a WebP's or an atlas's clock, in milliseconds.
    public static func milliseconds(fps: Double) -> FrameClock { FrameClock(ticksPerSecond: 1000, fps: fps) }

    /// The factor frame indices are multiplied by, in ticks per frame.
    ///
    /// ffmpeg's `setpts` multiplies by this same double (written with `%.17g`, which reads back
    /// exactly), so the times it gives frames are bit for bit those `start(frame:)` computes.
    var step: Double { Double(ticksPerSecond) / fps }

    /// t(j): when frame `j` starts, in ticks.
    public func start(frame j: Int) -> Int {
        Int((Double(j) * step).rounded(.toNearestOrAwayFromZero))
    }

    /// The delay of frame `j`: t(j + 1) − t(j).
    public func delay(frame j: Int) -> Int { start(frame: j + 1) - start(frame: j) }

    /// The shortest and longest delay of `frames` frames: ⌊step⌋ or ⌈step⌉ (one value when
    /// step is whole).
    public func delayRange(frames: Int) -> ClosedRange<Int> {
        // Only ⌊step⌋ and ⌈step⌉ occur: look until both have (a long period, such as 59.94 fps
        // in milliseconds, may need many frames), or every frame was seen.
        let low = Int(step.rounded(.down)), high = Int(step.rounded(.up))
        var least = Int.max, most = Int.min
        for j in 0..<max(frames, 1) {
            let d = delay(frame: j)
            least = min(least, d)
            most = max(most, d)
            if least == low && most == high { break }
        }
        return least...most
    }

    /// The ffmpeg filter that stamps frame N with t(N) in a 1/ticksPerSecond time base.
    var ffmpegFilter: String {
        "settb=1/\(ticksPerSecond),setpts=round(N*\(String(format: "%.17g", step)))"
    }
}

/// What a GIF can hold, and what browsers play.
public enum GIFTiming {
    /// The highest frame rate a GIF plays at in a browser: every delay is then at least 2 cs
    /// (Chromium, Firefox and Safari show a delay under 2 cs as 10 cs). A clip faster than this
    /// is resampled to it for a GIF unless the output's `fps` says otherwise.
    public static let maximumFPS = 50.0

    /// The longest delay a GIF frame can have: its Graphic Control Extension holds the delay in
    /// 16 bits of centiseconds (655.35 s).
    public static let longestDelay = 65_535

    /// The lowest frame rate a GIF can hold: 100 / 65,535 frames/s, a frame every 655.35 s
    /// (slower, a delay would not fit its 16 bits).
    public static let minimumFPS = 100.0 / Double(longestDelay)
}

/// How an ordered output takes its frames from its clip when it has a frame rate of its own:
/// output frame j, shown at j / fps on the clip's timeline, is the clip frame on screen then,
/// k(j) = ⌊j · clipFPS / fps⌋. The output lasts as long as the clip (`frames` = round(clip
/// frames · fps / clipFPS)); frames are taken or repeated, never retimed.
public struct Resampling: Sendable, Equatable {
    /// The clip's frame count and rate.
    public var clipFrames: Int, clipFPS: Double
    /// The output's frame rate.
    public var fps: Double

    public init(clipFrames: Int, clipFPS: Double, fps: Double) {
        self.clipFrames = clipFrames
        self.clipFPS = clipFPS
        self.fps = fps
    }

    /// Whether the output takes every clip frame once, at the clip's rate.
    public var isIdentity: Bool { fps == clipFPS }

    /// The output's frame count: at least 1.
    public var frames: Int {
        isIdentity ? clipFrames : max(1, Int((Double(clipFrames) * fps / clipFPS).rounded()))
    }

    /// k(j): the clip frame output frame `j` shows.
    public func clipFrame(_ j: Int) -> Int {
        guard !isIdentity else { return j }
        // The epsilon keeps a product that is whole in exact arithmetic (60 → 30 fps) from
        // landing just under its integer.
        return min(clipFrames - 1, Int((Double(j) * clipFPS / fps + 1e-9).rounded(.down)))
    }

    /// The output's length in seconds: frames / fps.
    public var seconds: Double { Double(frames) / fps }
}
