import Foundation

/// The article's double wave (SPEC §2, seed 001, final version): a sine and a cosine wave across a
/// strip, phase advancing, amplitude breathing between two bounds.
public struct DoubleWave: BuiltInScene {
    public static let id = "double-wave"
    public static let summary = "two superposed waves across a strip, phase advancing, amplitude breathing"

    public var width = 375.0
    public var height = 200.0
    /// The waves' centre line, from the canvas top.
    public var baseline = 70.0
    /// Where the wave fills end, from the canvas top (anti-aliased edge).
    public var bottom = 100.0
    /// Wavelength; `nil` means the canvas width.
    public var waveLength: Double?
    public var amplitudeMin = 4.0
    public var amplitudeMax = 12.0
    public var amplitudeRate = 2.4
    public var phaseSpeed = 3.0
    /// δ between the two waves; π/2 puts the second's crests on the first's troughs.
    public var phaseShift = Double.pi / 2
    public var firstWave = RGBA(0.667, 0.667, 0.667, 1)
    public var secondWave = RGBA(1, 1, 1, 1)
    public var background = RGBA(0.2235, 0.2627, 0.3490, 1)
    public var speeds = PartSpeeds()

    public init() {}

    public static var parameters: [SceneParameter<DoubleWave>] {
        [
            .init("width", .number(\.width, Limits.positiveLengthRange), unit: "pt", "canvas width",
                  sampling: .logarithmic(1, 2000, from: 20)),
            .init("height", .number(\.height, Limits.positiveLengthRange), unit: "pt", "canvas height",
                  sampling: .logarithmic(1, 2000, from: 20)),
            .init("baseline", .number(\.baseline, Limits.lengthRange), unit: "pt", "the waves' centre line, from the top",
                  sampling: .logarithmic(0, 1000, from: 1)),
            .init("bottom", .number(\.bottom, Limits.lengthRange), unit: "pt", "lower edge of the wave fills, from the top",
                  sampling: .logarithmic(0, 1000, from: 1)),
            .init("waveLength", .optionalNumber(\.waveLength, Limits.positiveLengthRange, unsetMeaning: "width"), unit: "pt",
                  "wavelength (default: the canvas width)", sampling: .logarithmic(0.5, 4000, from: 0.5)),
            .init("amplitudeMin", .number(\.amplitudeMin, Limits.lengthRange), unit: "pt", "lower bound of the breathing amplitude",
                  sampling: .logarithmic(0, 300, from: 0.01), within: { 0...$0.amplitudeMax }),
            .init("amplitudeMax", .number(\.amplitudeMax, Limits.lengthRange), unit: "pt", "upper bound of the breathing amplitude",
                  sampling: .logarithmic(0, 300, from: 0.01), within: { $0.amplitudeMin...Double.infinity }),
            .init("amplitudeRate", .number(\.amplitudeRate, .atLeastAtMost(0, Limits.rate)), unit: "pt/s", "how fast the amplitude changes",
                  sampling: .logarithmic(0, 500, from: 0.01)),
            .init("phaseSpeed", .number(\.phaseSpeed, .atLeastAtMost(0, Limits.rate)), unit: "rad/s", "how fast the waves flow",
                  sampling: .logarithmic(0, 200, from: 0.01)),
            .init("phaseShift", .number(\.phaseShift, .atLeastAtMost(-Limits.phase, Limits.phase)), unit: "rad",
                  "δ of the second wave; −width/4 mod 2π reproduces the original code's unit slip",
                  sampling: .logarithmic(-10_000, 10_000, from: 0.01)),
            .init("firstWave", .color(\.firstWave), "the sine wave, painted first"),
            .init("secondWave", .color(\.secondWave), "the cosine wave, painted on top"),
            .init("background", .color(\.background), "canvas colour, or none (transparent)"),
        ]
    }

    public var canvasSize: (width: Double, height: Double) { (width, height) }
    public var defaultBackground: RGBA { background }
    /// One period of the breathing amplitude, 2·(max − min)/rate (6.667 s by default).
    public var previewDuration: Double {
        let span = amplitudeMax - amplitudeMin
        return span > 0 && amplitudeRate > 0 ? 2 * span / amplitudeRate : 2 * Double.pi / max(phaseSpeed, 1e-9)
    }

    public static var relations: [String] { ["amplitudeMin ≤ amplitudeMax"] }

    public func validateRelations() throws {
        guard amplitudeMin <= amplitudeMax else {
            throw ThrobberError.invalid("amplitudeMin", formatNumber(amplitudeMin),
                                        allowed: "at most amplitudeMax (\(formatNumber(amplitudeMax)))")
        }
    }

    /// The breathing amplitude at `t` (SPEC §2): a triangle wave that starts at the midpoint of
    /// [amplitudeMin, amplitudeMax], rises at amplitudeRate to the maximum, falls to the minimum,
    /// and so on.
    public func amplitude(at t: Double) -> Double {
        let span = amplitudeMax - amplitudeMin
        guard span > 0 else { return amplitudeMin }
        let travelled = (amplitudeRate * t + span / 2).truncatingRemainder(dividingBy: 2 * span)
        // A retimed clock so fast that rate × t overflows has no position on the triangle.
        guard travelled.isFinite else { return amplitudeMin }
        return amplitudeMin + (travelled <= span ? travelled : 2 * span - travelled)
    }

    /// The animation state of one frame.
    public struct FrameState: Sendable, Equatable {
        /// A in pt.
        public var amplitude: Double
        /// φ in radians, unreduced.
        public var phase: Double
    }

    /// The amplitude's triangle (when it moves) and the flowing phase.
    public var periodicParts: [PeriodicPart] {
        var parts: [PeriodicPart] = []
        let span = amplitudeMax - amplitudeMin
        if span > 0 && amplitudeRate > 0 { parts.append(PeriodicPart("amplitude", period: 2 * span / amplitudeRate)) }
        if phaseSpeed > 0 { parts.append(PeriodicPart("phase", period: 2 * .pi / phaseSpeed)) }
        return parts
    }

    public func frameState(at t: Double) -> FrameState {
        FrameState(amplitude: amplitude(at: speeds.time("amplitude", t)), phase: phaseSpeed * speeds.time("phase", t))
    }

    public func drawItems(for state: FrameState, scale s: Double, width w: Int, height h: Int) -> [DrawItem] {
        let k = 2 * Double.pi / ((waveLength ?? width) * s)
        func wave(_ id: ItemID, _ phase: Double, _ color: RGBA) -> DrawItem {
            DrawItem(id, Wave(originX: 0, amplitude: state.amplitude * s, k: k, phase: phase, baseline: baseline * s,
                              bottom: bottom * s, color: color, width: w, height: h))
        }
        // SPEC §2: y1 = A·sin(kx + φ) + baseline first, then y2 = A·cos(kx + φ + δ) + baseline on top
        // (cos x = sin(x + π/2)).
        return [wave("first-wave", state.phase, firstWave), wave("second-wave", state.phase + phaseShift + .pi / 2, secondWave)]
    }
}
