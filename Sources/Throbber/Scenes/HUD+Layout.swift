import Foundation

/// Where the HUD lies: its frame around the content and the measured status (SPEC §7 "Layout"),
/// the canvas around it, and its place on a screen (SPEC §7 "Placement").
extension HUD {
    /// The status's measured lines, when measured for the status the model holds.
    var statusLines: [MeasuredText.Line] {
        guard let measuredStatus, measuredStatus.request == textToMeasure else { return [] }
        return measuredStatus.lines
    }

    /// The HUD's frame around its content and status (SPEC §7 "Layout"); before the status is
    /// measured (`hasMeasuredText` false), the frame without it.
    public var layout: HUDLayout {
        HUDLayout(content: content, lineWidths: statusLines.map(\.width), fontSize: fontSize,
                  minimumWidth: minimumSize?.first ?? 0, minimumHeight: minimumSize?.second ?? 0)
    }

    public var canvasSize: (width: Double, height: Double) {
        if let screen { return (screen.first, screen.second) }
        let hud = layout
        return (hud.width + 2 * margin, hud.height + 2 * margin)
    }

    /// The HUD's centre on the canvas (pt, SPEC §7 "Placement"): on a screen at 45 % of its height.
    public func hudCenter(_ hud: HUDLayout) -> (x: Double, y: Double) {
        guard let screen else { return (margin + hud.width / 2, margin + hud.height / 2) }
        return (screen.first / 2 + (offset?.first ?? 0), (0.45 * screen.second + 1e-9).rounded(.down) + (offset?.second ?? 0))
    }

    public var defaultBackground: RGBA { .clear }
    public var boxParameterNames: [String] { ["screen", "minimumSize", "margin"] }
}
