import Foundation

/// SVProgressHUD's determinate progress ring (SPEC §5): a progress arc from 12 o'clock, then the
/// faint full background ring on top.
public struct ProgressRing: BuiltInScene {
    public static let id = "progress-ring"
    public static let summary = "SVProgressHUD progress ring: an arc from 12 o'clock under a faint full ring"

    public var hud = RingHUD()
    public var progress = 0.45
    /// When set, progress moves linearly from `progress` to this over `progressDuration`.
    public var progressEnd: Double?
    public var progressDuration = 1.0
    public var speeds = PartSpeeds()

    public init() {}

    public static var parameters: [SceneParameter<ProgressRing>] {
        RingHUD.parameters(\.hud) + [
            .init("progress", .number(\.progress, .closed(0, 1)), unit: "fraction", "progress at t = 0"),
            .init("progressEnd", .optionalNumber(\.progressEnd, .closed(0, 1), unsetMeaning: "none"), unit: "fraction",
                  "progress reached at t = progressDuration (default: stays at progress)"),
            .init("progressDuration", .number(\.progressDuration, Limits.periodRange), unit: "s", "time from progress to progressEnd",
                  sampling: .logarithmic(0.01, 100, from: 0.01)),
        ]
    }

    public var canvasSize: (width: Double, height: Double) { (hud.canvasSide, hud.canvasSide) }
    public var defaultBackground: RGBA { .clear }
    /// The progress ramp when there is one.
    public var previewDuration: Double { progressEnd == nil ? 1 : progressDuration }

    public static var relations: [String] { RingHUD.relations }

    public func validateRelations() throws { try hud.validateRelations() }

    /// SPEC §5: p(t) = progress + (progressEnd − progress)·clamp(t / progressDuration, 0, 1).
    public func progress(at t: Double) -> Double {
        ProgressRing.progress(at: t, from: progress, to: progressEnd, over: progressDuration)
    }

    /// SPEC §5's ramp, shared with the `hud` scene's progress state: `start` moving linearly to
    /// `end` over `duration` from t = 0; `start` throughout without an end.
    public static func progress(at t: Double, from start: Double, to end: Double?, over duration: Double) -> Double {
        guard let end else { return start }
        return start + (end - start) * min(max(t / duration, 0), 1)
    }

    /// The animation state of one frame.
    public struct FrameState: Sendable, Equatable {
        public var progress: Double
    }

    /// Nothing repeats: the ring is still, or ramps once.
    public var periodicParts: [PeriodicPart] { [] }

    /// A still ring loops from the start; a ramp never repeats.
    public var periodicFrom: Double? { progressEnd == nil || progressEnd == progress ? 0 : nil }

    public func frameState(at t: Double) -> FrameState { FrameState(progress: progress(at: t)) }

    public func drawItems(for state: FrameState, scale s: Double, width w: Int, height h: Int) -> [DrawItem] {
        var items = [hud.hud(scale: s, width: w, height: h)]
        let p = min(max(state.progress, 0), 1)
        if p > 0 {
            items.append(hud.arc("progress", start: 0, sweep: 2 * .pi * p, color: hud.resolvedRingColor, scale: s, width: w, height: h))
        }
        // The full background ring in ringColor at alpha 0.1, on top (the original's order).
        items.append(hud.arc("track", start: 0, sweep: 2 * .pi, color: hud.resolvedRingColor.withAlpha(0.1), scale: s, width: w, height: h))
        return items
    }
}
