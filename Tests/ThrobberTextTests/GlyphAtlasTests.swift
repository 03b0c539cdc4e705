import Foundation
import Testing
import Throbber
import ThrobberText

/// The label's layout against SPEC §6 "Blocks of lines" check values, and the atlas both renderers read.
struct GlyphAtlasTests {
    /// The wave ball's label at S = 300, p = 0.45: "45" at 60 pt and "%" at 30 pt (thin), then
    /// the caption at 14 pt (ui, through the CJK fallback).
    static func label(_ shaper: TextShaper, number: String = "45", caption: String = "汽车当前电量") throws -> CentredLines {
        CentredLines([BlockLine([try shaper.shape(number, role: .thin, size: 60), try shaper.shape("%", role: .thin, size: 30)]),
                      BlockLine([try shaper.shape(caption, role: .ui, size: 14)])])
    }

    /// SPEC §6 "Blocks of lines": number top-left (105.9741, 105.3765), baseline 163.3965; caption top-left
    /// (108, 177.9165), baseline 191.2466.
    @Test func theLabelLandsWhereTheSpecSays() throws {
        let at = try GlyphAtlasTests.label(TextShaper()).placements(centreX: 150, centreY: 150)
        let expected = [(105.9741, 105.3765, 163.3965), (108.0, 177.9165, 191.2466)]
        #expect(at.count == 2)
        for (line, value) in zip(at, expected) {
            #expect(abs(line.penX - value.0) < 1e-4 && abs(line.top - value.1) < 1e-4 && abs(line.baseline - value.2) < 1e-4,
                    "\(line)")
        }
    }

    /// Every glyph's bitmap lies in its slot byte for byte, slots do not overlap, and the same
    /// glyphs asked for in another order (or twice) make the same atlas.
    @Test(arguments: [1.0, 2.0, 3.0, 0.37])
    func glyphsArePackedOnceAndExactly(scale: Double) throws {
        let shaper = try TextShaper(), rasterizer = try GlyphRasterizer()
        let glyphs = try GlyphAtlasTests.label(shaper).placedGlyphs(centreX: 150, centreY: 150, scale: scale)
            + placeGlyphs(BlockLine([try shaper.shape("Loading… Great Success!", role: .ui, size: 15)]), penX: 3.3, baseline: 20.6, scale: scale)
        let atlas = try GlyphAtlas(keys: glyphs.map(\.key), rasterizer: rasterizer)
        let again = try GlyphAtlas(keys: (glyphs + glyphs).map(\.key).reversed(), rasterizer: rasterizer)
        #expect(atlas.atlas.coverage == again.atlas.coverage && atlas.slots == again.slots)
        var owner = [Int](repeating: -1, count: atlas.atlas.width * atlas.atlas.height)
        for (n, (key, slot)) in atlas.slots.enumerated() {
            let bitmap = try rasterizer.bitmap(key)
            #expect(slot.width == bitmap.width && slot.rows == bitmap.rows && slot.left == bitmap.left && slot.top == bitmap.top)
            #expect(slot.x >= 0 && slot.y >= 0 && slot.x + slot.width <= atlas.atlas.width && slot.y + slot.rows <= atlas.atlas.height)
            for row in 0..<slot.rows {
                for column in 0..<slot.width {
                    let texel = (slot.y + row) * atlas.atlas.width + slot.x + column
                    #expect(owner[texel] == -1, "slots overlap at texel \(texel)")
                    owner[texel] = n
                    #expect(atlas.atlas.coverage[texel] == bitmap.coverage[row * bitmap.width + column])
                }
            }
        }
        // The label's four distinct digits-and-percent glyphs and six CJK ones, at least.
        #expect(atlas.slots.count >= 10)
        let quads = atlas.quads(glyphs)
        #expect(quads.count == glyphs.filter { (atlas.slots[$0.key]?.width ?? 0) > 0 }.count)
    }

    /// Each quad's bitmap sits at (X + left, Y − top) of its pen (SPEC §6), inside the canvas for
    /// the label, and on the number line's rows above the caption's.
    @Test func quadsHangFromTheirPens() throws {
        let shaper = try TextShaper()
        let label = try GlyphAtlasTests.label(shaper)
        let glyphs = label.placedGlyphs(centreX: 150, centreY: 150, scale: 2)
        let atlas = try GlyphAtlas(keys: glyphs.map(\.key), rasterizer: GlyphRasterizer())
        let quads = atlas.quads(glyphs)
        for (glyph, quad) in zip(glyphs, quads) {
            #expect(quad.x == glyph.x + quad.slot.left && quad.y == glyph.y - quad.slot.top)
            #expect(quad.x >= 0 && quad.y >= 0 && quad.x + quad.slot.width <= 600 && quad.y + quad.slot.rows <= 600)
        }
        // Number glyphs end above the caption's baseline; caption glyphs start below the number's.
        #expect(quads.prefix(3).allSatisfy { $0.y + $0.slot.rows <= Int(191.2466 * 2) })
        #expect(quads.suffix(6).allSatisfy { $0.y >= Int(163.3965 * 2) })
        // Snapped pens: every glyph's quarter shift is what its pen's x asked for.
        #expect(Set(glyphs.map(\.key.quarter)).isSubset(of: [0, 1, 2, 3]))
    }

    /// Text whose glyphs cannot fit one atlas is a usage error, not a partial atlas.
    @Test func tooMuchTextIsRefused() throws {
        let shaper = try TextShaper(), rasterizer = try GlyphRasterizer()
        let line = try shaper.shape("一二三四五六七八九十百千万亿兆京垓秭穰沟涧正载极", role: .cjk, size: 900)
        let glyphs = placeGlyphs(BlockLine([line]), penX: 0, baseline: 900, scale: 1)
        #expect { try GlyphAtlas(keys: glyphs.map(\.key), rasterizer: rasterizer) } throws: { error in
            let error = error as? ThrobberError
            return error?.kind == .usage && error?.message.contains("do not fit one 4096 × 4096 px atlas") == true
        }
    }
}
