/// SVProgressHUD's `light` and `dark` styles (SPEC §5): the default ring and HUD colours.
public enum RingStyle: String, CaseIterable, Sendable {
    case light
    case dark

    /// The ring's colour when `ringColor` is not set.
    public var ringColor: RGBA { self == .light ? RGBA(0, 0, 0, 1) : RGBA(1, 1, 1, 1) }

    /// The HUD's colour when `hudColor` is not set: a flat stand-in for UIKit's blur.
    public var hudColor: RGBA { self == .light ? RGBA(0.949, 0.961, 0.965, 1) : RGBA(0.122, 0.131, 0.142, 1) }
}

/// The parameters `ring` and `progress-ring` share (SPEC §5).
public struct RingHUD: Sendable, Equatable {
    public var style = "light"
    public var radius = 24.0
    public var thickness = 2.0
    public var hudSize = 84.0
    public var hudCornerRadius = 14.0
    /// `nil`: the style's colour.
    public var ringColor: RGBA?
    /// `nil`: the style's colour.
    public var hudColor: RGBA?
    /// Transparent space around the HUD.
    public var margin = 0.0

    public init() {}

    /// The effective ring colour.
    public var resolvedRingColor: RGBA { ringColor ?? (RingStyle(rawValue: style) ?? .light).ringColor }
    /// The effective HUD colour.
    public var resolvedHudColor: RGBA { hudColor ?? (RingStyle(rawValue: style) ?? .light).hudColor }

    /// The canvas side: hudSize + 2·margin.
    public var canvasSide: Double { hudSize + 2 * margin }

    /// The shared parameters, bound through `path` into the scene that holds them.
    static func parameters<Model>(_ path: WritableKeyPath<Model, RingHUD>) -> [SceneParameter<Model>] {
        [
            .init("style", .choice(path.appending(path: \.style), RingStyle.allCases.map(\.rawValue)),
                  "light or dark: the default ring and HUD colours"),
            .init("radius", .number(path.appending(path: \.radius), Limits.lengthRange), unit: "pt", "ring radius",
                  sampling: .logarithmic(0, 1000, from: 1)),
            .init("thickness", .number(path.appending(path: \.thickness), Limits.lengthRange), unit: "pt", "ring stroke width",
                  sampling: .logarithmic(0, 200, from: 0.05)),
            .init("hudSize", .number(path.appending(path: \.hudSize), Limits.positiveLengthRange), unit: "pt", "side of the HUD square",
                  sampling: .logarithmic(1, 1600, from: 20)),
            .init("hudCornerRadius", .number(path.appending(path: \.hudCornerRadius), Limits.lengthRange), unit: "pt",
                  "HUD corner radius (at most hudSize / 2)", sampling: .logarithmic(0, 800, from: 0.1),
                  within: { 0...($0[keyPath: path].hudSize / 2) }),
            .init("ringColor", .optionalColor(path.appending(path: \.ringColor), unsetMeaning: "style"),
                  "ring colour (default: black for light, white for dark)"),
            .init("hudColor", .optionalColor(path.appending(path: \.hudColor), unsetMeaning: "style"),
                  "HUD colour (default: the style's flat blur stand-in)"),
            .init("margin", .number(path.appending(path: \.margin), Limits.lengthRange), unit: "pt", "transparent space around the HUD",
                  sampling: .logarithmic(0, 200, from: 0.1)),
        ]
    }

    /// What `validateRelations` checks, in words.
    static let relations = ["hudCornerRadius ≤ hudSize / 2"]

    func validateRelations() throws {
        guard hudCornerRadius <= hudSize / 2 else {
            throw ThrobberError.invalid("hudCornerRadius", formatNumber(hudCornerRadius),
                                        allowed: "a number in [0, \(formatNumber(hudSize / 2))] (half of hudSize)")
        }
    }

    /// The HUD as one rounded box, centred on the canvas.
    func hud(scale s: Double, width: Int, height: Int) -> DrawItem {
        let c = canvasSide / 2 * s
        let half = hudSize / 2 * s
        return DrawItem("hud", Boxes([QuadInstance(centerX: c, centerY: c, halfX: half, halfY: half, rotation: 0,
                                                   cornerRadius: hudCornerRadius * s, color: resolvedHudColor)],
                                     width: width, height: height))
    }

    /// A stroke of the ring from clock angle `start` through `sweep`, centred on the HUD.
    func arc(_ id: ItemID, start: Double, sweep: Double, maskRotation: Double? = nil, color: RGBA, scale s: Double,
             width: Int, height: Int) -> DrawItem {
        let c = canvasSide / 2 * s
        return DrawItem(id, Arc(centerX: c, centerY: c, radius: radius * s, lineWidth: thickness * s, start: start, sweep: sweep,
                                maskRotation: maskRotation, color: color, width: width, height: height))
    }
}
