import Foundation

/// HHPullToRefreshWave's pull-to-refresh strip (SPEC §3): two waves whose height and amplitude
/// grow with the distance pulled.
public struct PullWave: BuiltInScene {
    public static let id = "pull-wave"
    public static let summary = "HHPullToRefreshWave: a double-wave strip whose height follows the pull distance"

    public var width = 375.0
    /// Canvas height: room for the tallest strip (22.4 pt) in whole pixels at integer scales.
    public var height = 24.0
    /// Distance pulled; below 0 counts as 0.
    public var pull = 60.0
    public var phaseShift = Double.pi / 2
    public var underWave = RGBA(0.667, 0.667, 0.667, 1)
    public var overWave = RGBA(1, 1, 1, 1)
    public var background = RGBA(0.2235, 0.2627, 0.3490, 1)
    public var speeds = PartSpeeds()

    public init() {}

    public static var parameters: [SceneParameter<PullWave>] {
        [
            .init("width", .number(\.width, Limits.positiveLengthRange), unit: "pt", "canvas width (one wavelength)",
                  sampling: .logarithmic(1, 2000, from: 20)),
            .init("height", .number(\.height, Limits.positiveLengthRange), unit: "pt", "canvas height; the strip sits on its bottom edge",
                  sampling: .logarithmic(0.5, 400, from: 5)),
            // Linear, so negative pulls, 0 and each 10 pt step of `times` up to its cap all come up.
            .init("pull", .number(\.pull, .atLeastAtMost(-Limits.length, Limits.length)), unit: "pt", "distance pulled (< 0 counts as 0)",
                  sampling: .linear(-30, 100)),
            .init("phaseShift", .number(\.phaseShift, .atLeastAtMost(-Limits.phase, Limits.phase)), unit: "rad", "δ of the over wave",
                  sampling: .logarithmic(-10_000, 10_000, from: 0.01)),
            .init("underWave", .color(\.underWave), "the sine wave, painted first"),
            .init("overWave", .color(\.overWave), "the cosine wave, painted on top"),
            .init("background", .color(\.background), "canvas colour, or none (transparent)"),
        ]
    }

    public var canvasSize: (width: Double, height: Double) { (width, height) }
    public var defaultBackground: RGBA { background }
    /// One period of the breathing amplitude: 4 s.
    public var previewDuration: Double { 4 }

    /// SPEC §3: times = min(floor(pull / 10) + 1, 7), pull < 0 counting as 0.
    public var times: Int { Int(min((max(pull, 0) / 10).rounded(.down), 6)) + 1 }

    /// The strip's height h = 3.2 · times.
    public var stripHeight: Double { 3.2 * Double(times) }

    /// The animation state of one frame.
    public struct FrameState: Sendable, Equatable {
        /// v(t): 1.6 → 1.0 → 1.6 every 4 s.
        public var breathing: Double
        /// A = v · times, in pt.
        public var amplitude: Double
        /// φ in radians, unreduced.
        public var phase: Double
    }

    /// The breathing amplitude (4 s) and the phase (0.4·30/π rad/s).
    public var periodicParts: [PeriodicPart] {
        [PeriodicPart("breathing", period: 4), PeriodicPart("phase", period: 2 * .pi / (0.4 * 30 / .pi))]
    }

    public func frameState(at t: Double) -> FrameState {
        // SPEC §3: the 30 Hz timer becomes n = 30·t.
        let v = 1 + 0.01 * abs((30 * speeds.time("breathing", t)).truncatingRemainder(dividingBy: 120) - 60)
        return FrameState(breathing: v, amplitude: v * Double(times), phase: 0.4 / .pi * 30 * speeds.time("phase", t))
    }

    public func drawItems(for state: FrameState, scale s: Double, width w: Int, height h: Int) -> [DrawItem] {
        // The strip's baseline h − A in strip coordinates is (height − h) + h − A on the canvas.
        let baseline = (height - state.amplitude) * s
        let k = 2 * Double.pi / (width * s)
        func wave(_ id: ItemID, _ phase: Double, _ color: RGBA) -> DrawItem {
            // No bottom edge: the fill runs to the canvas edge.
            DrawItem(id, Wave(originX: 0, amplitude: state.amplitude * s, k: k, phase: phase, baseline: baseline,
                              bottom: nil, color: color, width: w, height: h))
        }
        return [wave("under-wave", state.phase, underWave), wave("over-wave", state.phase + phaseShift + .pi / 2, overWave)]
    }
}
