import Foundation

/// SVProgressHUD whole (SPEC §7, seed 004): the spinner, the progress ring, the success, error
/// and info glyphs or text alone, with a status under them that the HUD grows around, optionally
/// on a screen behind a mask, popping in at 1.3× and fading out.
///
/// Here its parameters, timing and relations; where the HUD and its status lie in HUD+Layout
/// (`HUDLayout` the frame's arithmetic), its status as text in HUD+Text, its items in HUD+Drawing.
public struct HUD: BuiltInScene {
    public static let id = "hud"
    public static let summary = "SVProgressHUD: ring, progress, success, error, info or text with a status, on a screen behind a mask, shown and dismissed"

    /// What the HUD shows, as SVProgressHUD's calls do.
    public enum State: String, CaseIterable, Sendable {
        case ring, progress, success, error, info, text
    }

    public var state = "ring"
    /// The status under the content; empty: none.
    public var status = ""
    public var style = "light"
    /// The ring's radius without a status, and with one.
    public var radius = 24.0
    public var statusRadius = 18.0
    public var thickness = 2.0
    public var hudCornerRadius = 14.0
    /// `nil`: the style's colour.
    public var ringColor: RGBA?
    public var hudColor: RGBA?
    public var textColor: RGBA?
    public var fontSize = 15.0
    /// The success, error and info image's side (0: no image).
    public var imageSize = 28.0
    public var minimumSize: NumberPair? = NumberPair(0, 0)
    public var progress = 0.45
    public var progressEnd: Double?
    public var progressDuration = 1.0
    /// The screen the HUD sits on, W × H pt; nil: a canvas just around the HUD.
    public var screen: NumberPair?
    /// The HUD's offset from its place on the screen (SVProgressHUD's offsetFromCenter).
    public var offset: NumberPair? = NumberPair(0, 0)
    /// Transparent space around the HUD (without a screen).
    public var margin = 0.0
    public var mask = "none"
    /// `nil`: (0, 0, 0, 0.4), what mask=custom paints unless told.
    public var maskColor: RGBA?
    public var showAt: Double?
    /// A time in seconds, `auto` (the original's reading time), or nil: never dismissed.
    public var dismissAt: String?
    public var fadeIn = 0.15
    public var fadeOut = 0.15
    /// Font files for the status, `PATH` or `PATH#FACE`; empty for the defaults (SPEC §6).
    public var uiFont = ""
    public var cjkFont = ""
    public var speeds = PartSpeeds()
    /// The status as the text module wrapped and measured it (`SceneWithText.measuring`): what the
    /// HUD's size and the lines' places come from.
    public var measuredStatus: MeasuredText?

    public init() {}

    /// The masks (SPEC §7 "Mask").
    public static let masks = ["none", "clear", "black", "custom", "gradient"]
    /// The most status lines after wrapping.
    public static let maximumStatusLines = 16
    /// The scale a HUD pops in from; it dismisses to its reciprocal.
    public static let popScale = 1.3
    /// What `mask=black` paints, and `mask=custom` without a `maskColor`.
    public static let blackMask = RGBA(0, 0, 0, 0.4)
    /// The gradient mask's alpha at and beyond its reach.
    public static let gradientAlpha = 0.75

    public static var parameters: [SceneParameter<HUD>] {
        [
            .init("state", .choice(\.state, State.allCases.map(\.rawValue)),
                  "ring (show), progress (showProgress), success, error, info (show…WithStatus) or text (showImage:nil)"),
            .init("status", .text(\.status, .optionalLines), "the status under the content, wrapped at 200 pt (empty: none)"),
            .init("style", .choice(\.style, RingStyle.allCases.map(\.rawValue)), "light or dark: the default ring, HUD and text colours"),
            .init("radius", .number(\.radius, Limits.lengthRange), unit: "pt", "ring radius without a status",
                  sampling: .logarithmic(0, 300, from: 1)),
            .init("statusRadius", .number(\.statusRadius, Limits.lengthRange), unit: "pt", "ring radius with a status",
                  sampling: .logarithmic(0, 300, from: 1)),
            .init("thickness", .number(\.thickness, Limits.lengthRange), unit: "pt", "ring stroke width",
                  sampling: .logarithmic(0, 60, from: 0.05)),
            .init("hudCornerRadius", .number(\.hudCornerRadius, Limits.lengthRange), unit: "pt",
                  "HUD corner radius (at most half the HUD's shorter side is drawn)", sampling: .logarithmic(0, 200, from: 0.1)),
            .init("ringColor", .optionalColor(\.ringColor, unsetMeaning: "style"), "ring and glyph colour (default: black for light, white for dark)"),
            .init("hudColor", .optionalColor(\.hudColor, unsetMeaning: "style"), "HUD colour (default: the style's flat blur stand-in)"),
            .init("textColor", .optionalColor(\.textColor, unsetMeaning: "style"), "status colour (default: black for light, white for dark)"),
            .init("fontSize", .number(\.fontSize, Limits.textSizeRange), unit: "pt", "the status's size (ui font)",
                  sampling: .logarithmic(1, 60, from: 1)),
            .init("imageSize", .number(\.imageSize, Limits.lengthRange), unit: "pt", "side of the success, error and info image (0: none)",
                  sampling: .logarithmic(0, 300, from: 1)),
            .init("minimumSize", .pair(\.minimumSize, Limits.lengthRange, .size, unsetMeaning: nil), unit: "pt",
                  "the HUD's least size W×H", sampling: .logarithmic(0, 400, from: 1)),
            .init("progress", .number(\.progress, .closed(0, 1)), unit: "fraction", "progress at t = 0 (state=progress)"),
            .init("progressEnd", .optionalNumber(\.progressEnd, .closed(0, 1), unsetMeaning: "none"), unit: "fraction",
                  "progress reached at t = progressDuration (default: stays at progress)"),
            .init("progressDuration", .number(\.progressDuration, Limits.periodRange), unit: "s", "time from progress to progressEnd",
                  sampling: .logarithmic(0.01, 100, from: 0.01)),
            .init("screen", .pair(\.screen, Limits.positiveLengthRange, .size, unsetMeaning: "none"), unit: "pt",
                  "a screen W×H the HUD sits on at 45 % of its height (default: a canvas just around the HUD)",
                  sampling: .logarithmic(1, 1000, from: 1)),
            .init("offset", .pair(\.offset, .atLeastAtMost(-Limits.length, Limits.length), .offset, unsetMeaning: nil), unit: "pt",
                  "the HUD's offset X,Y from its place on the screen (needs screen)", sampling: .logarithmic(-300, 300, from: 0.1)),
            .init("margin", .number(\.margin, Limits.lengthRange), unit: "pt", "transparent space around the HUD (without screen)",
                  sampling: .logarithmic(0, 200, from: 0.1)),
            .init("mask", .choice(\.mask, HUD.masks), "what covers the canvas behind the HUD: none, clear, black, custom (maskColor) or gradient"),
            .init("maskColor", .optionalColor(\.maskColor, unsetMeaning: "0,0,0,0.4"), "the mask=custom colour"),
            .init("showAt", .optionalNumber(\.showAt, Limits.timeRange, unsetMeaning: "none"), unit: "s",
                  "when the HUD is shown, popping in from 1.3× (default: shown throughout)", sampling: .logarithmic(0, 20, from: 0.01)),
            .init("dismissAt", .numberOrKeyword(\.dismissAt, Limits.timeRange, keywords: ["auto"], unsetMeaning: "none"), unit: "s",
                  "when it is dismissed, or auto: after showAt + fadeIn + max(0.06 × status length + 0.5, 5) s (needs showAt)",
                  sampling: .logarithmic(0, 40, from: 0.01)),
            .init("fadeIn", .number(\.fadeIn, Limits.timeRange), unit: "s", "the show animation's length (0: a step)",
                  sampling: .logarithmic(0, 2, from: 0.001)),
            .init("fadeOut", .number(\.fadeOut, Limits.timeRange), unit: "s", "the dismiss animation's length (0: a step)",
                  sampling: .logarithmic(0, 2, from: 0.001)),
            .init("uiFont", .text(\.uiFont, .fontFile), "the status's font file (default Roboto Regular)"),
            .init("cjkFont", .text(\.cjkFont, .fontFile), "the fallback font file (default Noto Sans CJK SC, face 2)"),
        ]
    }

    // MARK: - Colours and content

    var resolvedStyle: RingStyle { RingStyle(rawValue: style) ?? .light }
    /// The ring's and the glyphs' colour.
    public var resolvedRingColor: RGBA { ringColor ?? resolvedStyle.ringColor }
    public var resolvedHudColor: RGBA { hudColor ?? resolvedStyle.hudColor }
    /// The status's colour: light (0, 0, 0, 1), dark (1, 1, 1, 1).
    public var resolvedTextColor: RGBA { textColor ?? resolvedStyle.ringColor }
    var resolvedState: State { State(rawValue: state) ?? .ring }
    var hasStatus: Bool { !status.isEmpty }

    /// What sits above the status (SPEC §7 "Layout" 1).
    public var content: HUDLayout.Content {
        switch resolvedState {
        case .ring, .progress: .ring(radius: hasStatus ? statusRadius : radius, thickness: thickness)
        case .success, .error, .info: .image(size: imageSize)
        case .text: .none
        }
    }

    // MARK: - Timing

    /// When the HUD dismisses (SPEC §7 "Animation"): `auto` is t0 + fadeIn + max(0.06·n + 0.5, 5),
    /// n the status's UTF-16 length; nil: never.
    public var dismissTime: Double? {
        guard let dismissAt, let showAt else { return nil }
        if dismissAt == "auto" { return showAt + fadeIn + max(0.06 * Double(status.utf16.count) + 0.5, 5) }
        return Double(dismissAt)
    }

    /// The animation state of one frame.
    public struct FrameState: Sendable, Equatable {
        /// Whether anything but the background is painted.
        public var visible: Bool
        /// α: what every element's alpha is multiplied by.
        public var alpha: Double
        /// The HUD's scale about its centre.
        public var hudScale: Double
        /// The spinner's phase u in [0, 1).
        public var turn: Double
        /// p(t), the progress ring's fraction.
        public var progress: Double
    }

    public var periodicParts: [PeriodicPart] { resolvedState == .ring ? [PeriodicPart("turn", period: 1)] : [] }

    public var loopDuration: Double? { resolvedState == .ring ? 1 : nil }

    /// Periodic once shown (and never once a dismissal is coming); a progress ramp never is.
    public var periodicFrom: Double? {
        if dismissAt != nil { return nil }
        if resolvedState == .progress, let end = progressEnd, end != progress { return nil }
        return showAt.map { $0 + fadeIn } ?? 0
    }

    /// SPEC §7's relations kept (`relations`): an offset only on a screen and a margin only
    /// without one, a maskColor only with mask=custom, a dismissal only after a show and no
    /// earlier than its end (a drawn dismissAt before it is taken as a delay after it).
    public func reconciledForSampling() -> HUD {
        var hud = self
        if hud.screen == nil { hud.offset = NumberPair(0, 0) } else { hud.margin = 0 }
        if hud.mask != "custom" { hud.maskColor = nil }
        if let showAt = hud.showAt {
            if let text = hud.dismissAt, let t1 = Double(text), t1 < showAt + hud.fadeIn {
                hud.dismissAt = formatNumber(showAt + hud.fadeIn + t1)
            }
        } else {
            hud.dismissAt = nil
        }
        return hud
    }

    /// The end of the dismissal's fade (SPEC §7 "Animation"), when the HUD is dismissed.
    public var endsAt: Double? { dismissTime.map { $0 + fadeOut } }

    /// The show to the end of the dismissal (or a second after the show), else the ring's turn or
    /// the progress ramp.
    public var previewDuration: Double {
        if let showAt {
            return (dismissTime.map { $0 + fadeOut } ?? showAt + fadeIn + 1) + 0.1
        }
        if resolvedState == .progress, progressEnd != nil { return progressDuration }
        return 1
    }

    /// SPEC §5: p(t) = progress + (progressEnd − progress)·clamp(t / progressDuration, 0, 1), at the absolute t.
    public func progress(at t: Double) -> Double {
        ProgressRing.progress(at: t, from: progress, to: progressEnd, over: progressDuration)
    }

    /// The fade's x = clamp((t − start)/length, 0, 1); a length of 0 is a step at `start`.
    static func fadeProgress(_ t: Double, from start: Double, over length: Double) -> Double {
        length > 0 ? min(max((t - start) / length, 0), 1) : (t >= start ? 1 : 0)
    }

    public func frameState(at t: Double) -> FrameState {
        var visible = true, alpha = 1.0, hudScale = 1.0
        var clock = t
        if let t0 = showAt {
            clock = t - t0
            if t < t0 {
                visible = false
            } else if let t1 = dismissTime, t >= t1 {
                let e = UIKitTiming.easeInOut(HUD.fadeProgress(t, from: t1, over: fadeOut))
                alpha = 1 - e
                hudScale = 1 - (1 - 1 / HUD.popScale) * e
                visible = alpha > 0
            } else {
                let e = UIKitTiming.easeInOut(HUD.fadeProgress(t, from: t0, over: fadeIn))
                alpha = e
                hudScale = HUD.popScale - (HUD.popScale - 1) * e
                visible = alpha > 0
            }
        }
        let turns = speeds.time("turn", clock)
        return FrameState(visible: visible, alpha: alpha, hudScale: visible ? hudScale : 1, turn: turns - turns.rounded(.down),
                          progress: progress(at: t))
    }

    // MARK: - Relations

    public static var relations: [String] {
        [
            "dismissAt needs showAt, and a time no earlier than showAt + fadeIn",
            "screen holds the HUD: W ≥ the HUD's width and H ≥ its height",
            "offset needs screen; margin is without screen",
            "maskColor needs mask=custom",
            "status wraps to at most \(maximumStatusLines) lines at 200 pt",
        ]
    }

    public func validateRelations() throws {
        if let dismissAt {
            guard let showAt else {
                throw ThrobberError.invalid("dismissAt", dismissAt, allowed: "only with showAt (a HUD is dismissed after it is shown)")
            }
            if let t1 = Double(dismissAt), t1 < showAt + fadeIn {
                throw ThrobberError.invalid("dismissAt", dismissAt,
                                            allowed: "at least showAt + fadeIn = \(formatNumber(showAt + fadeIn)) s, or auto")
            }
        }
        if maskColor != nil, mask != "custom" {
            throw ThrobberError.invalid("maskColor", maskColor!.description, allowed: "only with mask=custom (mask is \(mask))")
        }
        if let offset, offset != NumberPair(0, 0), screen == nil {
            throw ThrobberError.invalid("offset", offset.text(.offset), allowed: "0,0 without screen (an offset moves the HUD on a screen)")
        }
        if let screen {
            if margin != 0 {
                throw ThrobberError.invalid("margin", formatNumber(margin), allowed: "0 with screen (the screen is the canvas)")
            }
            // Before the status is measured the HUD is known only without it: the check runs
            // again, whole, once it is (`layingOutText`).
            let hud = layout
            if screen.first < hud.width || screen.second < hud.height {
                throw ThrobberError.invalid("screen", screen.text(.size),
                                            allowed: "at least the HUD's \(formatNumber(hud.width))x\(formatNumber(hud.height)) pt")
            }
        }
    }
}
