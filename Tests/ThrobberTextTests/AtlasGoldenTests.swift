import Foundation
import Testing
import Throbber
import ThrobberDigest
import ThrobberText

/// Issue 30 point 5: a golden of the atlas itself. A fixed set of strings at fixed sizes, in every
/// role, laid out and packed; the SHA-256 of the atlas (its size and bytes) is the golden. A
/// FreeType or font-file change shows here as such, before any frame golden differs.
struct AtlasGoldenTests {
    /// The strings, roles and sizes (pt, at scale 1 and 2): Latin with kerning pairs, digits,
    /// CJK through the fallback, and the label's and the HUD's defaults.
    static let request = TextRequest(blocks: [
        TextBlock("latin", lines: [[TextPiece("AVAWAY To Loading", role: .ui, size: 15, textField: "t", sizeField: "s")],
                                   [TextPiece("Great Success! Failed with Error", role: .ui, size: 14.5, textField: "t", sizeField: "s")]],
                  centreX: 150, centreY: 60),
        TextBlock("number", lines: [[TextPiece("0123456789", role: .thin, size: 60, textField: "t", sizeField: "s"),
                                     TextPiece("%", role: .thin, size: 30, textField: "t", sizeField: "s")]],
                  centreX: 150, centreY: 150),
        TextBlock("cjk", lines: [[TextPiece("汽车当前电量 加载中…", role: .ui, size: 14, textField: "t", sizeField: "s")]],
                  centreX: 150.3, centreY: 240),
    ], scale: 2)

    /// Recorded on Debian 12 (FreeType 2.12.1, HarfBuzz 6.0.0, fonts-roboto-unhinted 2:0~20170802-3,
    /// fonts-noto-cjk 1:20220127+repack1-1).
    static let golden = "1daf6e5a6de85b9ba0a3fa327b382fdac4a231c89beb685093b72f1b69b147a1"

    @Test func theAtlasOfAFixedStringSetIsTheGolden() throws {
        let text = try TextLayout.layOut(AtlasGoldenTests.request)
        let hash = SHA256()
        hash.update(Array("\(text.atlas.width)x\(text.atlas.height)\n".utf8))
        hash.update(text.atlas.coverage)
        let digest = hash.finalizeHex()
        #expect(digest == AtlasGoldenTests.golden,
                "the glyph bitmaps changed (\(text.atlas.width)×\(text.atlas.height) px atlas): FreeType, HarfBuzz or a font file is not the one recorded; fonts: \(text.fonts)")
        // The same request in another order of blocks packs the same bytes.
        var reversed = AtlasGoldenTests.request
        reversed.blocks.reverse()
        #expect(try TextLayout.layOut(reversed).atlas.coverage == text.atlas.coverage)
    }
}
