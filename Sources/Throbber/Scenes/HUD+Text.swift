import Foundation

/// The HUD's status as text (SPEC §6, §7): measured before the HUD knows its size, laid out at
/// rest, and rasterised again at each frame's HUD scale while it pops in or dismisses.
extension HUD: SceneWithText {
    var fonts: [FontRole: FontSource] {
        var fonts: [FontRole: FontSource] = [:]
        for (role, path) in [(FontRole.ui, uiFont), (.cjk, cjkFont)] where !path.isEmpty {
            fonts[role] = try? FontSource(parsing: path, field: "\(role.rawValue)Font")
        }
        return fonts
    }

    public var textToMeasure: TextMeasureRequest? {
        guard hasStatus else { return nil }
        return TextMeasureRequest(status, role: .ui, size: fontSize, maxWidth: HUDLayout.wrapWidth, maximumLines: HUD.maximumStatusLines,
                                  fonts: fonts, textField: "status", sizeField: "fontSize")
    }

    public var hasMeasuredText: Bool { !hasStatus || measuredStatus?.request == textToMeasure }

    public func measuring(_ measured: MeasuredText) -> HUD {
        var copy = self
        copy.measuredStatus = measured
        return copy
    }

    /// The status item's identity.
    public static let statusID: ItemID = "status"

    /// The status's lines at HUD scale `hudScale` about the HUD's centre: glyphs at
    /// fontSize · hudScale pt, each line's pen and baseline scaled with the HUD (SPEC §7 "Animation").
    func statusRequest(hudScale: Double, scale: Double) -> TextRequest? {
        let lines = statusLines
        guard !lines.isEmpty else { return nil }
        let hud = layout
        let centre = hudCenter(hud)
        let pieces = lines.map { [TextPiece($0.text, role: .ui, size: fontSize * hudScale, textField: "status", sizeField: "fontSize")] }
        let pens = hud.lines.map { line in
            TextPen(x: centre.x + hudScale * (line.penX - hud.width / 2), baseline: centre.y + hudScale * (line.baseline - hud.height / 2))
        }
        return TextRequest(blocks: [TextBlock(HUD.statusID, lines: pieces, pens: pens)], fonts: fonts, scale: scale)
    }

    public func textRequest(scale: Double) -> TextRequest? { statusRequest(hudScale: 1, scale: scale) }

    public func textRequest(for state: FrameState, scale: Double) -> TextRequest? {
        guard state.visible, state.hudScale != 1 else { return nil }
        return statusRequest(hudScale: state.hudScale, scale: scale)
    }

    /// The show animation's first frame paints the largest status (1.3×).
    public var textCheckTimes: [Double] { showAt.map { [$0] } ?? [] }
}
