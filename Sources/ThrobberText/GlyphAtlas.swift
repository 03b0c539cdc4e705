import Foundation
import Throbber

/// Where one glyph's bitmap lies in an atlas, and how it hangs from its pen.
public struct AtlasSlot: Sendable, Equatable {
    /// The bitmap's top-left texel in the atlas.
    public var x: Int
    public var y: Int
    public var width: Int
    public var rows: Int
    /// FreeType's bitmap_left and bitmap_top: the bitmap's top-left pixel is `left` right of
    /// and `top` above the pen.
    public var left: Int
    public var top: Int
}

/// A glyph as painted: its bitmap's top-left pixel on the canvas and where the bitmap lies in
/// the atlas. What both renderers draw (SPEC §6 "Atlas and painting").
public struct GlyphQuad: Sendable, Equatable {
    public var x: Int
    public var y: Int
    public var slot: AtlasSlot
}

/// One 8-bit coverage atlas for a clip's glyphs (SPEC §6): each (font, face, glyph, size,
/// quarter shift) rasterised once and packed into shelves, in an order fixed by the keys alone,
/// so the same glyphs make the same bytes whatever order a scene asks for them in.
public struct GlyphAtlas: Sendable {
    /// The coverage both renderers read (a `DrawResources` atlas).
    public let atlas: CoverageAtlas
    /// Every glyph's place; a glyph with an empty bitmap (a space) has a 0 × 0 slot.
    public let slots: [GlyphKey: AtlasSlot]

    /// The longest side an atlas may have: every GL 3.3 driver takes textures this large
    /// (GL_MAX_TEXTURE_SIZE ≥ 4096 on every driver we run on, llvmpipe's is 16384).
    public static let maximumSide = 4096

    /// Rasterises `keys` (duplicates once) with `rasterizer` and packs them.
    ///
    /// - Parameter revision: the atlas's revision (`CoverageAtlas`); nil for a digest of its size
    ///   and bytes, so that atlases of different glyphs under one resource identity (the scenes a
    ///   renderer draws one after another) never share a revision.
    /// - Throws: a usage error when the glyphs do not fit an atlas of `maximumSide` a side (text
    ///   too long or too large), or a glyph cannot be rendered.
    public init(keys: some Sequence<GlyphKey>, rasterizer: GlyphRasterizer, revision: Int? = nil) throws {
        let unique = Set(keys).sorted(by: GlyphAtlas.packingOrder)
        let bitmaps = try unique.map { try rasterizer.bitmap($0) }
        // Tallest first fills shelves evenly; the width is about the square root of the area,
        // at least the widest glyph.
        let order = bitmaps.indices.sorted { bitmaps[$0].rows != bitmaps[$1].rows ? bitmaps[$0].rows > bitmaps[$1].rows : $0 < $1 }
        let area = bitmaps.reduce(0) { $0 + $1.width * $1.rows }
        let widest = bitmaps.map(\.width).max() ?? 0
        let width = min(GlyphAtlas.maximumSide, max(1, widest, Int(Double(area).squareRoot().rounded(.up))))
        var slots: [GlyphKey: AtlasSlot] = [:]
        var shelfTop = 0, shelfHeight = 0, x = 0
        var placed: [(index: Int, x: Int, y: Int)] = []
        for index in order {
            let bitmap = bitmaps[index]
            guard bitmap.width > 0, bitmap.rows > 0 else {
                slots[unique[index]] = AtlasSlot(x: 0, y: 0, width: 0, rows: 0, left: bitmap.left, top: bitmap.top)
                continue
            }
            if x + bitmap.width > width {
                shelfTop += shelfHeight
                shelfHeight = 0
                x = 0
            }
            guard bitmap.width <= width, shelfTop + bitmap.rows <= GlyphAtlas.maximumSide else {
                throw ThrobberError("invalid text: its glyphs (\(unique.count), \(area) px of coverage) do not fit one "
                                    + "\(GlyphAtlas.maximumSide) × \(GlyphAtlas.maximumSide) px atlas; use shorter text, "
                                    + "smaller sizes or a smaller scale", kind: .usage)
            }
            placed.append((index, x, shelfTop))
            slots[unique[index]] = AtlasSlot(x: x, y: shelfTop, width: bitmap.width, rows: bitmap.rows,
                                             left: bitmap.left, top: bitmap.top)
            x += bitmap.width
            shelfHeight = max(shelfHeight, bitmap.rows)
        }
        let height = max(1, shelfTop + shelfHeight)
        var coverage = [UInt8](repeating: 0, count: width * height)
        for (index, x, y) in placed {
            let bitmap = bitmaps[index]
            for row in 0..<bitmap.rows {
                coverage.replaceSubrange((y + row) * width + x..<(y + row) * width + x + bitmap.width,
                                         with: bitmap.coverage[row * bitmap.width..<(row + 1) * bitmap.width])
            }
        }
        // Each placed bitmap's outline, for writers of vector files (SPEC §6 "Outlines"): once per
        // atlas, as the bitmaps are.
        var outlines: [CoverageAtlas.Position: PathGeometry] = [:]
        for (index, x, y) in placed { outlines[CoverageAtlas.Position(x: x, y: y)] = try rasterizer.outline(unique[index]) }
        atlas = CoverageAtlas(width: width, height: height, coverage: coverage,
                              revision: revision ?? GlyphAtlas.digest(width: width, height: height, coverage), outlines: outlines)
        self.slots = slots
    }

    /// The quads of `glyphs` that paint anything, in text order.
    ///
    /// - Precondition: every glyph's key is in the atlas.
    public func quads(_ glyphs: [PlacedGlyph]) -> [GlyphQuad] {
        glyphs.compactMap { glyph in
            guard let slot = slots[glyph.key] else { preconditionFailure("glyph \(glyph.key.glyph) is not in the atlas") }
            guard slot.width > 0, slot.rows > 0 else { return nil }
            return GlyphQuad(x: glyph.x + slot.left, y: glyph.y - slot.top, slot: slot)
        }
    }

    /// FNV-1a (64 bits) of the size and the bytes: a revision that differs wherever the contents do.
    static func digest(width: Int, height: Int, _ bytes: [UInt8]) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        for value in [width, height] { for shift in stride(from: 0, to: 64, by: 8) { mix(UInt8(truncatingIfNeeded: value >> shift)) } }
        for byte in bytes { mix(byte) }
        return Int(truncatingIfNeeded: hash)
    }

    /// An order of keys that depends on nothing but the keys.
    static func packingOrder(_ a: GlyphKey, _ b: GlyphKey) -> Bool {
        (a.font.path, a.font.face, a.size64, a.glyph, a.quarter) < (b.font.path, b.font.face, b.size64, b.glyph, b.quarter)
    }
}
