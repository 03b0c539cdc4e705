import Foundation

/// HcdProcessView's water-wave progress ball with its tick ring (SPEC §1, seed 000).
public struct WaveBall: BuiltInScene, SceneWithText {
    public static let id = "wave-ball"
    public static let summary = "HcdProcessView: tick ring, lit progress ticks, a disc filled with two waves"

    /// Side of the square canvas.
    public var size = 300.0
    public var tickCount = 100
    public var tickLength = 10.0
    public var tickWidth = 2.0
    public var scaleMargin = 30.0
    public var waveMargin = 18.0
    public var waveLength = 180.0
    public var amplitude = 10.0
    /// Target fill level in [0, 1].
    public var progress = 0.45
    /// Fill level at t = 0; the water then moves towards `progress` at 50 pt/s.
    public var fillFrom = 0.0
    public var waterBackground = RGBA(0.259, 0.329, 0.506, 1)
    public var frontWater = RGBA(0.325, 0.392, 0.729, 1)
    public var backWater = RGBA(0.322, 0.514, 0.831, 1)
    public var tickBackground = RGBA(0.694, 0.745, 0.867, 1)
    public var tickLit = RGBA(0.969, 0.937, 0.227, 1)
    /// The percentage and caption in the ball (SPEC §8): `on` or `off`.
    public var label = "off"
    public var caption = "汽车当前电量"
    public var labelColor = RGBA(1, 1, 1, 1)
    public var numberSize = 60.0
    public var percentSize = 30.0
    public var captionSize = 14.0
    /// Font files for the roles, `PATH` or `PATH#FACE`; empty for the defaults (SPEC §6).
    public var uiFont = ""
    public var thinFont = ""
    public var cjkFont = ""
    public var speeds = PartSpeeds()

    public init() {}

    public static var parameters: [SceneParameter<WaveBall>] {
        [
            .init("size", .number(\.size, Limits.positiveLengthRange), unit: "pt", "side of the square canvas",
                  sampling: .logarithmic(1, 2000, from: 20),
                  // The disc needs room (validateRelations); random cases give it at least 1 pt.
                  within: { (2 * $0.discInset + 1)...Double.infinity }),
            .init("tickCount", .integer(\.tickCount, 1...10_000), "ticks in the ring"),
            .init("tickLength", .number(\.tickLength, Limits.lengthRange), unit: "pt", "radial length of a tick",
                  sampling: .logarithmic(0, 60, from: 0.05)),
            .init("tickWidth", .number(\.tickWidth, Limits.lengthRange), unit: "pt", "width of a tick",
                  sampling: .logarithmic(0, 30, from: 0.05)),
            .init("scaleMargin", .number(\.scaleMargin, Limits.lengthRange), unit: "pt", "canvas edge to the tick ring",
                  sampling: .logarithmic(0, 150, from: 0.1)),
            .init("waveMargin", .number(\.waveMargin, Limits.lengthRange), unit: "pt", "tick ring to the water disc",
                  sampling: .logarithmic(0, 150, from: 0.1)),
            .init("waveLength", .number(\.waveLength, Limits.positiveLengthRange), unit: "pt", "wavelength λ of both waves",
                  sampling: .logarithmic(0.5, 4000, from: 0.5)),
            .init("amplitude", .number(\.amplitude, Limits.lengthRange), unit: "pt", "wave amplitude A (breathes ×1…1.5)",
                  sampling: .logarithmic(0, 300, from: 0.01)),
            .init("progress", .number(\.progress, .closed(0, 1)), unit: "fraction", "target fill level"),
            .init("fillFrom", .number(\.fillFrom, .closed(0, 1)), unit: "fraction",
                  "fill level at t = 0, moving to progress at 50 pt/s"),
            .init("waterBackground", .color(\.waterBackground), "the empty part of the disc"),
            .init("frontWater", .color(\.frontWater), "front (sine) wave"),
            .init("backWater", .color(\.backWater), "back (cosine) wave, painted over the front one"),
            .init("tickBackground", .color(\.tickBackground), "unlit ticks and the thin circle"),
            .init("tickLit", .color(\.tickLit), "lit progress ticks"),
            .init("label", .choice(\.label, ["off", "on"]), "the target percentage and a caption, between the waves and the ticks"),
            .init("caption", .text(\.caption, .lines), "the label's caption under the percentage (CJK through the fallback font)"),
            .init("labelColor", .color(\.labelColor), "the label's text"),
            .init("numberSize", .number(\.numberSize, Limits.textSizeRange), unit: "pt", "the percentage's digits (thin font)",
                  sampling: .logarithmic(1, 120, from: 1)),
            .init("percentSize", .number(\.percentSize, Limits.textSizeRange), unit: "pt", "the '%' after the digits",
                  sampling: .logarithmic(1, 120, from: 1)),
            .init("captionSize", .number(\.captionSize, Limits.textSizeRange), unit: "pt", "the caption (ui font)",
                  sampling: .logarithmic(1, 60, from: 1)),
            .init("uiFont", .text(\.uiFont, .fontFile), "the ui role's font file (default Roboto Regular)"),
            .init("thinFont", .text(\.thinFont, .fontFile), "the thin role's font file (default Roboto Thin)"),
            .init("cjkFont", .text(\.cjkFont, .fontFile), "the fallback font file (default Noto Sans CJK SC, face 2)"),
        ]
    }

    public var canvasSize: (width: Double, height: Double) { (size, size) }
    public var boxParameterNames: [String] { ["tickCount", "tickLength", "tickWidth"] }
    public var defaultBackground: RGBA { .clear }
    /// The amplitude's 2 s period, or the time the water takes to reach its level if longer.
    public var previewDuration: Double { max(2, abs(progress - fillFrom) * discDiameter / 50) }

    /// The water disc's inset from the canvas edge: scaleMargin + waveMargin + tickLength.
    public var discInset: Double { scaleMargin + waveMargin + tickLength }
    /// The water disc's diameter D.
    public var discDiameter: Double { size - 2 * discInset }

    public static var relations: [String] { ["size > 2 × (scaleMargin + waveMargin + tickLength): the water disc has room"] }

    public func validateRelations() throws {
        guard discDiameter > 0 else {
            throw ThrobberError.invalid(
                "size", formatNumber(size),
                allowed: "greater than 2 × (scaleMargin + waveMargin + tickLength) = \(formatNumber(2 * discInset)) pt, so the water disc has room")
        }
    }

    /// The animation state of one frame (SPEC §1 "Time").
    public struct FrameState: Sendable, Equatable {
        /// a(t): the amplitude factor, 1.5 → 1.0 → 1.5 every 2 s.
        public var amplitudeFactor: Double
        /// φF in radians, unreduced.
        public var frontPhase: Double
        /// φB in radians, unreduced.
        public var backPhase: Double
        /// The water level in disc-box points, y down from the disc's top.
        public var level: Double
        /// q(t): the filled fraction of the disc's height.
        public var filled: Double
        /// How many ticks are lit on each side, the bottom tick included.
        public var litCount: Int
    }

    /// The amplitude breathes every 2 s; the phases turn at 0.4·50/π and 0.3·50/π rad/s.
    public var periodicParts: [PeriodicPart] {
        [PeriodicPart("amplitude", period: 2), PeriodicPart("frontPhase", period: 2 * .pi / (0.4 * 50 / .pi)),
         PeriodicPart("backPhase", period: 2 * .pi / (0.3 * 50 / .pi))]
    }

    /// When the water has reached its level.
    public var periodicFrom: Double? { abs(progress - fillFrom) * discDiameter / 50 }

    public func frameState(at t: Double) -> FrameState {
        // SPEC §1: the original's 50 Hz timer becomes a real-valued tick count n = 50·t; each
        // periodic part reads its own (possibly retimed) clock.
        let amplitudeFactor = 1 + 0.01 * abs((50 * speeds.time("amplitude", t)).truncatingRemainder(dividingBy: 100) - 50)
        let d = discDiameter
        let startLevel = d * (1 - fillFrom)
        let targetLevel = d * (1 - progress)
        let travelled = 50 * t
        let level = startLevel + min(max(targetLevel - startLevel, -travelled), travelled)
        let filled = (d - level) / d
        let litCount = Int((Double(tickCount) / 2 + 1) * filled + 1e-9)
        return FrameState(amplitudeFactor: amplitudeFactor, frontPhase: 0.4 * 50 * speeds.time("frontPhase", t) / .pi,
                          backPhase: 0.3 * 50 * speeds.time("backPhase", t) / .pi,
                          level: level, filled: filled, litCount: max(0, litCount))
    }

    /// The clock positions θ of the lit ticks, bottom first, alternating sides, each once.
    public func litTickAngles(count: Int) -> [Double] {
        let step = 2 * Double.pi / Double(tickCount)
        return litTickSlots(count: count).map { .pi / 2 + Double($0) * step }
    }

    /// The lit ticks as steps of 2π/N from the bottom one (SPEC §1), in paint order: 0, then
    /// +j and −j for j = 1 … count − 1, the top tick (2j = N) once.
    public func litTickSlots(count: Int) -> [Int] {
        var slots: [Int] = []
        for j in 0..<count {
            slots.append(j)
            // j = 0 is the bottom tick itself; 2j = N is the top tick reached from both sides.
            if j > 0 && 2 * j != tickCount { slots.append(-j) }
        }
        return slots
    }

    public func drawItems(for state: FrameState, scale s: Double, width: Int, height: Int) -> [DrawItem] {
        let c = size / 2
        let r = discDiameter / 2
        let ringWidth = size - 2 * scaleMargin
        let boxLeft = c - r
        let boxTop = c - r
        let waveAmplitude = state.amplitudeFactor * amplitude * s
        let k = 2 * Double.pi / (waveLength * s)
        let baseline = (boxTop + state.level) * s

        func wave(_ id: ItemID, phase: Double, color: RGBA) -> DrawItem {
            DrawItem(id, Wave(originX: boxLeft * s, amplitude: waveAmplitude, k: k, phase: phase, baseline: baseline,
                              clipCenterX: c * s, clipCenterY: c * s, clipRadius: r * s, color: color,
                              width: width, height: height))
        }
        // The tick at angle θ: centre c + r·(cos θ, sin θ), its x axis along the radius.
        // Both rings turn one tick about the centre: the background from 3 o'clock, the lit
        // ticks from the bottom (off the background's steps unless N is a multiple of 4).
        let tickRadius = (ringWidth / 2 - tickLength / 2) * s
        func ring(from theta: Double, slots: [Int], color: RGBA) -> BoxRing {
            BoxRing(centerX: c * s, centerY: c * s, offsetX: tickRadius, offsetY: 0, halfX: tickLength / 2 * s,
                    halfY: tickWidth / 2 * s, boxRotation: 0, cornerRadius: 0, start: theta, steps: tickCount, slots: slots,
                    colors: [color], width: width, height: height)
        }

        // SPEC §1 paint order.
        var items: [DrawItem] = [
            DrawItem("disc", Disc(centerX: c * s, centerY: c * s, radius: r * s, color: waterBackground, width: width, height: height)),
            wave("front-wave", phase: state.frontPhase, color: frontWater),
            // cos(x) = sin(x + π/2): the back wave is the same primitive a quarter period on.
            wave("back-wave", phase: state.backPhase + .pi / 2, color: backWater),
            DrawItem("ticks", ring(from: 0, slots: Array(0..<tickCount), color: tickBackground)),
            DrawItem("inner-circle", Arc(centerX: c * s, centerY: c * s, radius: max(0, ringWidth / 2 - tickLength - 3) * s,
                                         lineWidth: 0.5 * s, start: 0, sweep: 2 * .pi, color: tickBackground, width: width, height: height)),
        ]
        if state.litCount > 0 {
            items.append(DrawItem("lit-ticks", ring(from: .pi / 2, slots: litTickSlots(count: state.litCount), color: tickLit)))
        }
        return items
    }

    public func drawItems(for state: FrameState, scale: Double, width: Int, height: Int, text: LaidOutText?) -> [DrawItem] {
        var items = drawItems(for: state, scale: scale, width: width, height: height)
        // SPEC §8: drawRect paints the label after the back wave, before the ticks.
        if let text, let label = text.item(WaveBall.labelID, color: labelColor, width: width, height: height) {
            items.insert(label, at: 3)
        }
        return items
    }

    /// The label's item identity.
    public static let labelID: ItemID = "label"

    /// The label's number: N = trunc(100·p) of the *target* progress, in double (SPEC §8: the
    /// original's quirk, 0.29 → 28).
    public var labelNumber: Int { Int((100 * progress).rounded(.towardZero)) }

    /// The label (SPEC §8): the number line (digits at numberSize, "%" at percentSize, thin) over
    /// the caption's lines (ui), the block centred on the canvas centre; nil while `label` is off.
    public func textRequest(scale: Double) -> TextRequest? {
        guard label == "on" else { return nil }
        let number: [TextPiece] = [
            TextPiece(String(labelNumber), role: .thin, size: numberSize, textField: "progress", sizeField: "numberSize"),
            TextPiece("%", role: .thin, size: percentSize, textField: "label", sizeField: "percentSize"),
        ]
        let captionLines = caption.split(separator: "\n", omittingEmptySubsequences: false).map {
            [TextPiece(String($0), role: .ui, size: captionSize, textField: "caption", sizeField: "captionSize")]
        }
        var fonts: [FontRole: FontSource] = [:]
        for (role, path) in [(FontRole.ui, uiFont), (.thin, thinFont), (.cjk, cjkFont)] where !path.isEmpty {
            fonts[role] = try? FontSource(parsing: path, field: "\(role.rawValue)Font")
        }
        return TextRequest(blocks: [TextBlock(WaveBall.labelID, lines: [number] + captionLines, centreX: size / 2, centreY: size / 2)],
                           fonts: fonts, scale: scale)
    }
}
