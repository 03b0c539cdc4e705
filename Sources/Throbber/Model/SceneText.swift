/// Text a scene paints, as the scene states it: blocks of lines in points, each line pieces of
/// one role and size (SPEC §6 "Blocks of lines"). The core only states it: the text module shapes
/// and rasterises it once per scene (`LaidOutText`), and the scene's draw lists carry the result.
public struct TextRequest: Sendable, Hashable {
    /// The blocks, in paint order of the items they become.
    public var blocks: [TextBlock]
    /// A file for each role not to use its default (`FontRole.defaultSource`).
    public var fonts: [FontRole: FontSource]
    /// Pixels per point.
    public var scale: Double

    public init(blocks: [TextBlock], fonts: [FontRole: FontSource] = [:], scale: Double) {
        self.blocks = blocks
        self.fonts = fonts
        self.scale = scale
    }
}

/// Lines of text: stacked one under another with the block centred on a point and each line on
/// its x (the wave ball's label), or each line set where the scene places it (the HUD's status,
/// whose pitch SPEC §7 fixes whatever fonts a line falls back to).
public struct TextBlock: Sendable, Hashable {
    /// The draw item the block becomes.
    public var id: ItemID
    public var lines: [[TextPiece]]
    /// The point the block is centred on (pt).
    public var centreX: Double
    public var centreY: Double
    /// Each line's pen start and baseline (pt), when the scene places the lines itself; nil: centred.
    public var pens: [TextPen]?

    public init(_ id: ItemID, lines: [[TextPiece]], centreX: Double, centreY: Double) {
        self.id = id
        self.lines = lines
        self.centreX = centreX
        self.centreY = centreY
    }

    /// Lines set with their pens at `pens` (one per line).
    public init(_ id: ItemID, lines: [[TextPiece]], pens: [TextPen]) {
        precondition(lines.count == pens.count, "one pen per line")
        self.init(id, lines: lines, centreX: 0, centreY: 0)
        self.pens = pens
    }
}

/// Where a line's pen starts and its baseline lies (pt).
public struct TextPen: Sendable, Hashable {
    public var x: Double
    public var baseline: Double

    public init(x: Double, baseline: Double) {
        self.x = x
        self.baseline = baseline
    }
}

/// Text whose shaped lines a scene needs before it knows its own layout (the HUD grows around
/// its status): one paragraph in one role and size, wrapped at `maxWidth` (SPEC §6 "Line
/// breaking"), measured by the text module (`MeasuredText`).
public struct TextMeasureRequest: Sendable, Hashable {
    public var text: String
    public var role: FontRole
    /// Size in pt.
    public var size: Double
    /// The width lines wrap at (pt).
    public var maxWidth: Double
    /// The most lines allowed after wrapping: more is a usage error naming `textField`.
    public var maximumLines: Int
    public var fonts: [FontRole: FontSource]
    /// The parameters the text and the size come from, for messages.
    public var textField: String
    public var sizeField: String

    public init(_ text: String, role: FontRole, size: Double, maxWidth: Double, maximumLines: Int,
                fonts: [FontRole: FontSource] = [:], textField: String, sizeField: String) {
        self.text = text
        self.role = role
        self.size = size
        self.maxWidth = maxWidth
        self.maximumLines = maximumLines
        self.fonts = fonts
        self.textField = textField
        self.sizeField = sizeField
    }
}

/// The text module's answer to a `TextMeasureRequest`: each line as it was wrapped, with its
/// advance width in pt.
public struct MeasuredText: Sendable, Hashable {
    public var request: TextMeasureRequest
    public var lines: [Line]

    public struct Line: Sendable, Hashable {
        public var text: String
        public var width: Double

        public init(text: String, width: Double) {
            self.text = text
            self.width = width
        }
    }

    public init(request: TextMeasureRequest, lines: [Line]) {
        self.request = request
        self.lines = lines
    }
}

/// Lays out text a frame paints beyond its scene's own (the HUD's status while the HUD scales
/// in or out, its glyphs rasterised at each frame's size): the text module's, which `Scene`
/// holds once its text is laid out. Safe to call from any renderer thread.
public protocol TextLayoutEngine: Sendable {
    /// `request` laid out.
    ///
    /// - Throws: as the text module's layout (a size too large, a font that cannot be opened).
    func layOut(_ request: TextRequest) throws -> LaidOutText
}

/// A piece of a line: text set in one role at one size, after the pieces before it on the line.
public struct TextPiece: Sendable, Hashable {
    public var text: String
    public var role: FontRole
    /// Size in pt.
    public var size: Double
    /// The parameters the text and the size come from, for messages (`caption`, `captionSize`).
    public var textField: String
    public var sizeField: String

    public init(_ text: String, role: FontRole, size: Double, textField: String, sizeField: String) {
        self.text = text
        self.role = role
        self.size = size
        self.textField = textField
        self.sizeField = sizeField
    }
}

/// A scene's text laid out (by the text module): the atlas its glyphs live in and each block's
/// glyph quads in pixels, for the request it answers.
public struct LaidOutText: Sendable, Equatable {
    /// What was laid out: a scene whose request differs has to be laid out again.
    public var request: TextRequest
    /// The glyphs' coverage, shared by every block (a `DrawResources` atlas named `atlasID`).
    public var atlas: CoverageAtlas
    /// Each block's glyphs in text order, by the block's item identity.
    public var quads: [ItemID: [Glyphs.Quad]]
    /// The font files the glyphs came from, each once, in the order first used.
    public var fonts: [FontSource]

    /// The resource name of the atlas in draw lists.
    public static let atlasID: ResourceID = "text.atlas"

    public init(request: TextRequest, atlas: CoverageAtlas, quads: [ItemID: [Glyphs.Quad]], fonts: [FontSource]) {
        self.request = request
        self.atlas = atlas
        self.quads = quads
        self.fonts = fonts
    }

    /// The item painting block `id` in `color`, on a `width` × `height` px canvas; nil when the
    /// block has no quads (nothing to paint).
    public func item(_ id: ItemID, color: RGBA, width: Int, height: Int) -> DrawItem? {
        guard let quads = quads[id], !quads.isEmpty else { return nil }
        return DrawItem(id, Glyphs(quads, atlas: LaidOutText.atlasID, revision: atlas.revision, color: color, width: width, height: height))
    }
}
