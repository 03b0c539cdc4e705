import Foundation

/// SVProgressHUD's frame around its content and status (SPEC §7 "Layout", after SVProgressHUD.m
/// `updateHUDFrame`), in pt with the origin at the HUD's top-left: what the `hud` scene sizes
/// its body, places its ring or glyph and sets its status lines by.
///
/// The status's lines come shaped (their widths at `fontSize`, wrapped at `wrapWidth`), since the
/// HUD grows around the text it holds.
public struct HUDLayout: Sendable, Equatable {
    /// What sits above the status.
    public enum Content: Sendable, Equatable {
        /// The spinner or progress ring of radius `radius` (pt) and stroke `thickness`.
        case ring(radius: Double, thickness: Double)
        /// A success, error or info glyph in a square image box of side `size` (0: none).
        case image(size: Double)
        /// Nothing (the `text` state).
        case none
    }

    /// The status's line pitch and first baseline, per pt of font size (Roboto's iOS line metrics,
    /// SPEC §6).
    public static let lineHeight = 1.193359375
    public static let ascent = 0.9521484375
    /// The width status lines wrap at (SVProgressHUD's 200 pt label).
    public static let wrapWidth = 200.0
    /// The HUD's inset around its content and status, and the gap between the two.
    public static let padding = 12.0
    public static let gap = 8.0

    /// The HUD's size.
    public var width: Double, height: Double
    /// The content's box and its centre.
    public var contentWidth: Double, contentHeight: Double
    public var contentCenterX: Double, contentCenterY: Double
    /// The status's box as text fills it (widest line × lines · pitch), and its centre.
    public var labelWidth: Double, labelHeight: Double
    public var labelCenterY: Double
    /// Each status line's pen start and baseline.
    public var lines: [Line]

    /// One status line's placement.
    public struct Line: Sendable, Equatable {
        public var penX: Double
        public var baseline: Double
    }

    /// The layout of `content` over status lines of `lineWidths` pt at `fontSize`, in a HUD at least
    /// `minimumWidth` × `minimumHeight`. No lines: no status.
    public init(content: Content, lineWidths: [Double], fontSize: Double, minimumWidth: Double = 0, minimumHeight: Double = 0) {
        switch content {
        case let .ring(radius, thickness): contentWidth = 2 * (radius + thickness / 2 + 5); contentHeight = contentWidth
        case let .image(size): contentWidth = size; contentHeight = size
        case .none: contentWidth = 0; contentHeight = 0
        }
        let hasStatus = !lineWidths.isEmpty
        labelWidth = lineWidths.max() ?? 0
        labelHeight = Double(lineWidths.count) * Self.lineHeight * fontSize
        // The label's frame in whole points, as UIKit's boundingRect is rounded up.
        let roundedWidth = hasStatus ? (labelWidth - 1e-9).rounded(.up) : 0
        let roundedHeight = hasStatus ? (labelHeight - 1e-9).rounded(.up) : 0
        let gap = hasStatus && contentHeight > 0 ? Self.gap : 0
        width = max(minimumWidth, 2 * Self.padding + max(roundedWidth, contentWidth))
        height = max(minimumHeight, 2 * Self.padding + roundedHeight + contentHeight + gap)
        contentCenterX = width / 2
        contentCenterY = hasStatus
            ? max(Self.padding, (minimumHeight - contentHeight - Self.gap - roundedHeight) / 2) + contentHeight / 2
            : height / 2
        labelCenterY = contentHeight > 0 ? contentCenterY + contentHeight / 2 + Self.gap + roundedHeight / 2 : height / 2
        let top = labelCenterY - labelHeight / 2, centreX = width / 2
        lines = lineWidths.enumerated().map { k, lineWidth in
            Line(penX: centreX - lineWidth / 2, baseline: top + Double(k) * Self.lineHeight * fontSize + Self.ascent * fontSize)
        }
    }
}
