import Foundation

/// The Core Graphics clone of UIActivityIndicatorView (SPEC §4, seed 003): a rounded-square HUD
/// with 12 leaves whose brightness steps round once a loop.
public struct Activity: BuiltInScene {
    public static let id = "activity"
    public static let summary = "activity spinner: 12 leaves of falling brightness on a rounded HUD, one turn a second"

    public var size = 240.0
    public var leafColor = RGBA(1, 1, 1, 1)
    public var hudColor = RGBA(170.0 / 255, 169.0 / 255, 169.0 / 255, 0.5)
    public var secondsPerLoop = 1.0
    public var leafCornerRadius = 0.0
    public var speeds = PartSpeeds()

    public init() {}

    public static var parameters: [SceneParameter<Activity>] {
        [
            .init("size", .number(\.size, Limits.positiveLengthRange), unit: "pt", "side of the square canvas and HUD",
                  sampling: .logarithmic(1, 2000, from: 20)),
            .init("leafColor", .color(\.leafColor), "hue, saturation and alpha of the leaves"),
            .init("hudColor", .color(\.hudColor), "the rounded-square HUD"),
            .init("secondsPerLoop", .number(\.secondsPerLoop, Limits.periodRange), unit: "s", "one full turn",
                  sampling: .logarithmic(0.01, 100, from: 0.01)),
            .init("leafCornerRadius", .number(\.leafCornerRadius, Limits.lengthRange), unit: "pt",
                  "corner radius of a leaf (at most 0.0125 × size)",
                  sampling: .logarithmic(0, 25, from: 0.01), within: { 0...(0.0125 * $0.size) }),
        ]
    }

    public var canvasSize: (width: Double, height: Double) { (size, size) }
    public var defaultBackground: RGBA { .clear }
    public var loopDuration: Double? { secondsPerLoop }

    public static var relations: [String] { ["leafCornerRadius ≤ 0.0125 × size: half a leaf's width"] }

    public func validateRelations() throws {
        // A corner radius is at most half the shorter side of its box (SPEC §0): 0.025·s / 2.
        guard leafCornerRadius <= 0.0125 * size + 1e-12 else {
            throw ThrobberError.invalid("leafCornerRadius", formatNumber(leafCornerRadius),
                                        allowed: "a number in [0, \(formatNumber(0.0125 * size))] (half a leaf's width)")
        }
    }

    /// SPEC §4: tick(t) = floor(t·12 / secondsPerLoop + 1e-9) mod 12.
    public func tick(at t: Double) -> Int {
        let steps = (t * 12 / secondsPerLoop + 1e-9).rounded(.down)
        let wrapped = steps.truncatingRemainder(dividingBy: 12)
        // A time beyond what Float-free arithmetic can step through (t·12/secondsPerLoop
        // overflowing) has no meaningful step; 0 rather than a trap.
        guard wrapped.isFinite else { return 0 }
        return Int(wrapped < 0 ? wrapped + 12 : wrapped)
    }

    /// The colour of leaf `i` at step `tick`: leafColor's hue and saturation, brightness
    /// clamp(1 − 0.1·((i + tick) mod 12), 0, 1), leafColor's alpha.
    public func colorOfLeaf(_ i: Int, tick: Int) -> RGBA {
        let (hue, saturation, _) = leafColor.hsb
        let brightness = min(max(1 - 0.1 * Double((i + tick) % 12), 0), 1)
        return RGBA.hsb(hue, saturation, brightness, leafColor.a)
    }

    /// The animation state of one frame.
    public struct FrameState: Sendable, Equatable {
        public var tick: Int
    }

    /// One turn per secondsPerLoop.
    public var periodicParts: [PeriodicPart] { [PeriodicPart("spin", period: secondsPerLoop)] }

    public func frameState(at t: Double) -> FrameState { FrameState(tick: tick(at: speeds.time("spin", t))) }

    public func drawItems(for state: FrameState, scale s: Double, width w: Int, height h: Int) -> [DrawItem] {
        let side = size * s
        let c = side / 2
        let hud = QuadInstance(centerX: c, centerY: c, halfX: c, halfY: c, rotation: 0, cornerRadius: side / 6, color: hudColor)
        // Leaf i: centre = c + R(−i·π/6)·(0.0125·s, −0.18335·s), its x axis pointing outwards:
        // leaf 0 turned by −i steps of a twelfth of a turn.
        let leaves = BoxRing(centerX: c, centerY: c, offsetX: 0.0125 * side, offsetY: -0.18335 * side,
                             halfX: 0.06665 * side, halfY: 0.0125 * side, boxRotation: -Double.pi / 2,
                             cornerRadius: leafCornerRadius * s, start: 0, steps: 12, slots: (0..<12).map { -$0 },
                             colors: (0..<12).map { colorOfLeaf($0, tick: state.tick) }, width: w, height: h)
        return [DrawItem("hud", Boxes([hud], width: w, height: h)), DrawItem("leaves", leaves)]
    }
}
