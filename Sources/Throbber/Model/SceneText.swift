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

/// Lines stacked one under another, the block centred on a point and each line on its x.
public struct TextBlock: Sendable, Hashable {
    /// The draw item the block becomes.
    public var id: ItemID
    public var lines: [[TextPiece]]
    /// The point the block is centred on (pt).
    public var centreX: Double
    public var centreY: Double

    public init(_ id: ItemID, lines: [[TextPiece]], centreX: Double, centreY: Double) {
        self.id = id
        self.lines = lines
        self.centreX = centreX
        self.centreY = centreY
    }
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
