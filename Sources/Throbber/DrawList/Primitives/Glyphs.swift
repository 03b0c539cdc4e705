/// Glyphs painted from a coverage atlas (SPEC §6 "The atlas"): each quad's colour with the
/// atlas's coverage over its bitmap's pixels, source-over, in text order. One instanced quad per
/// glyph in GL, the same arithmetic on the CPU; both read the same atlas bytes.
public struct Glyphs: Primitive {
    public static let kind = "Glyphs"
    public static let noun = (one: "glyph", many: "glyphs")
    public var pixelWork: PixelWork { PixelWork(bounds: quadBounds) }

    /// One glyph: its bitmap's top-left pixel on the canvas and where the bitmap lies in the atlas.
    public struct Quad: Sendable, Equatable {
        public var x: Int
        public var y: Int
        public var atlasX: Int
        public var atlasY: Int
        public var width: Int
        public var rows: Int

        public init(x: Int, y: Int, atlasX: Int, atlasY: Int, width: Int, rows: Int) {
            self.x = x
            self.y = y
            self.atlasX = atlasX
            self.atlasY = atlasY
            self.width = width
            self.rows = rows
        }

        /// The canvas pixels it paints, clipped to a `width` × `height` canvas.
        public func bounds(width canvasWidth: Int, height canvasHeight: Int) -> PixelRect {
            PixelRect(x0: min(max(x, 0), canvasWidth), y0: min(max(y, 0), canvasHeight),
                      x1: min(max(x + width, 0), canvasWidth), y1: min(max(y + rows, 0), canvasHeight))
        }
    }

    /// The atlas of the draw list's resources the quads read.
    public var atlas: ResourceID
    /// Its revision when the quads were placed: equal glyphs of an equal atlas paint the same.
    public var atlasRevision: Int
    public var quads: [Quad]
    public var color: PaintColor
    /// Each quad's pixels on the canvas.
    public let quadBounds: [PixelRect]
    public let bounds: PixelRect

    /// `quads` from the atlas `atlas` (at `revision`), painted in `color` on a `width` × `height` canvas.
    public init(_ quads: [Quad], atlas: ResourceID, revision: Int, color: RGBA, width: Int, height: Int) {
        self.atlas = atlas
        atlasRevision = revision
        self.quads = quads
        self.color = PaintColor(color)
        quadBounds = quads.map { $0.bounds(width: width, height: height) }
        bounds = PixelRect.union(quadBounds)
    }

    public static func == (a: Glyphs, b: Glyphs) -> Bool {
        a.atlas == b.atlas && a.atlasRevision == b.atlasRevision && a.quads == b.quads && a.color == b.color
            && a.quadBounds == b.quadBounds
    }
}
