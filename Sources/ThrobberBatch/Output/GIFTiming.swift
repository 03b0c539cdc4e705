import Foundation

/// Frame delays of a GIF, which counts time in whole centiseconds.
///
/// Frame k is shown from t(k) = round(k · 100 / fps) cs (halves rounded up) until t(k + 1), so
/// the delays are the differences of rounded times rather than rounded differences: their sum
/// is exactly t(frames), the clip's duration whenever that is a whole number of centiseconds,
/// and no rounding error accumulates.
public enum GIFTiming {
    /// The highest frame rate a GIF can hold: above it two frames would share a centisecond.
    public static let maximumFPS = 100.0

    /// The longest delay a GIF frame can have: its Graphic Control Extension holds the delay in
    /// 16 bits of centiseconds (655.35 s).
    public static let longestDelay = 65_535

    /// The lowest frame rate a GIF can hold: 100 / 65,535 frames/s, a frame every 655.35 s
    /// (slower, a delay would not fit its 16 bits).
    public static let minimumFPS = 100.0 / Double(longestDelay)

    /// The factor frame indices are multiplied by, in centiseconds per frame.
    ///
    /// ffmpeg's `setpts` multiplies by this same double (written with `%.17g`, which reads back
    /// exactly), so the times it gives frames are bit for bit those `centiseconds` computes.
    static func step(fps: Double) -> Double { 100 / fps }

    /// t(k): when frame `k` starts, in centiseconds.
    public static func centiseconds(frame k: Int, fps: Double) -> Int {
        Int((Double(k) * step(fps: fps)).rounded(.toNearestOrAwayFromZero))
    }

    /// The delay of frame `k`: t(k + 1) − t(k).
    public static func delay(frame k: Int, fps: Double) -> Int {
        centiseconds(frame: k + 1, fps: fps) - centiseconds(frame: k, fps: fps)
    }

    /// How many of a clip's `frames` delays are under 2 cs, which browsers show as 10 cs.
    static func shortDelays(frames: Int, fps: Double) -> Int {
        // Delays are ⌊100/fps⌋ or ⌈100/fps⌉: from 50 fps down every one is at least 2 cs.
        guard step(fps: fps) < 2 else { return 0 }
        return (0..<frames).lazy.filter { delay(frame: $0, fps: fps) < 2 }.count
    }
}
