import Foundation

/// SVProgressHUD's indefinite ring (SPEC §5): an arc with round caps under an angle mask, the whole
/// picture turning clockwise once a second.
public struct Ring: BuiltInScene {
    public static let id = "ring"
    public static let summary = "SVProgressHUD indefinite ring: a masked arc turning once a second on the HUD"

    public var hud = RingHUD()
    public var speeds = PartSpeeds()

    public init() {}

    public static var parameters: [SceneParameter<Ring>] { RingHUD.parameters(\.hud) }

    public var canvasSize: (width: Double, height: Double) { (hud.canvasSide, hud.canvasSide) }
    public var defaultBackground: RGBA { .clear }
    public var loopDuration: Double? { 1 }

    public static var relations: [String] { RingHUD.relations }

    public func validateRelations() throws { try hud.validateRelations() }

    /// The animation state of one frame.
    public struct FrameState: Sendable, Equatable {
        /// u = frac(t / 1 s).
        public var turn: Double
    }

    /// SPEC §5: u = frac(t / 1 s).
    /// One turn a second.
    public var periodicParts: [PeriodicPart] { [PeriodicPart("turn", period: 1)] }

    public func frameState(at t: Double) -> FrameState {
        let turns = speeds.time("turn", t)
        return FrameState(turn: turns - turns.rounded(.down))
    }

    public func drawItems(for state: FrameState, scale s: Double, width w: Int, height h: Int) -> [DrawItem] {
        let spinner = Ring.spinnerArc(turn: state.turn)
        return [
            hud.hud(scale: s, width: w, height: h),
            hud.arc("ring", start: spinner.start, sweep: spinner.sweep, maskRotation: spinner.maskRotation,
                    color: hud.resolvedRingColor, scale: s, width: w, height: h),
        ]
    }

    /// SPEC §5's spinner at phase u, shared with the `hud` scene's ring state: the arc from
    /// 10.8° + 360°·u to 349.2° + 360°·u (clock angles, radians), under the angle mask
    /// x = ((ψ − 360°·u) mod 360°) / 360°.
    public static func spinnerArc(turn u: Double) -> (start: Double, sweep: Double, maskRotation: Double) {
        let degree = Double.pi / 180
        let rotation = 2 * Double.pi * u
        return (10.8 * degree + rotation, (349.2 - 10.8) * degree, rotation)
    }
}
