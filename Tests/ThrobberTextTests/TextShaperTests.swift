import Foundation
import Testing
import Throbber
import ThrobberDigest
import ThrobberText

/// Shaping against SPEC §6's check values (widths, and the label's in "Blocks of lines"), and the errors text input can meet.
struct TextShaperTests {
    /// SPEC §6: Roboto Regular at 15 pt, HarfBuzz's advances (GPOS kerning included).
    @Test(arguments: [("Doing Stuff", 74.9854), ("Loading", 53.6060), ("Great Success!", 100.0854),
                      ("Failed with Error", 107.6221), ("Useful Information.", 128.1519)])
    func widthsOfTheHUDsStrings(text: String, width: Double) throws {
        let line = try TextShaper().shape(text, role: .ui, size: 15)
        #expect(abs(line.width - width) < 1e-4, "\(text): \(line.width) pt")
        #expect(line.runs.count == 1 && line.runs[0].role == .ui)
        #expect(line.ascent == 15 * 1950 / 2048 && line.lineHeight == 17.900390625)
    }

    /// SPEC §6 "Blocks of lines" (S = 300, p = 0.45): the number line "45" at 60 pt and "%" at 30 pt in the thin
    /// role, 88.0518 pt wide and 72.54 pt tall; the caption in the ui role, all CJK through the
    /// fallback, 84 pt wide and 16.70703125 pt tall.
    @Test func waveBallLabelMetrics() throws {
        let shaper = try TextShaper()
        let digits = try shaper.shape("45", role: .thin, size: 60), percent = try shaper.shape("%", role: .thin, size: 30)
        #expect(abs(digits.width + percent.width - 88.0518) < 1e-4, "\(digits.width + percent.width)")
        #expect(abs(digits.lineHeight - 72.54) < 1e-9)
        let caption = try shaper.shape("汽车当前电量", role: .ui, size: 14)
        #expect(abs(caption.width - 84) < 1e-4, "\(caption.width)")
        #expect(caption.runs.map(\.role) == [.cjk])
        #expect(caption.lineHeight == 16.70703125)
    }

    /// Latin and CJK in one line: runs of each font, in order, the widths adding up.
    @Test func fallbackRunsSplitALine() throws {
        let shaper = try TextShaper()
        let mixed = try shaper.shape("Load 电量 ok", role: .ui, size: 15)
        #expect(mixed.runs.map(\.role) == [.ui, .cjk, .ui])
        let parts = try ["Load ", "电量", " ok"].enumerated().map { try shaper.shape($0.element, role: $0.offset == 1 ? .cjk : .ui, size: 15).width }
        #expect(abs(mixed.width - parts.reduce(0, +)) < 0.5)
    }

    @Test func aMissingFontFileNamesItAndThePackage() throws {
        let shaper = try TextShaper(sources: [.thin: FontSource(path: "/nonexistent/Thin.ttf")])
        #expect { try shaper.shape("45", role: .thin, size: 60) } throws: { error in
            let error = error as? ThrobberError
            // Issue 46: a missing file is a missing input (66) with the system's reason, naming the role's field.
            return error?.kind == .missingInput && error?.message.contains("/nonexistent/Thin.ttf") == true
                && error?.message.contains("No such file or directory") == true && error?.field == "thinFont"
        }
        let missingFace = try TextShaper(sources: [.ui: FontSource(path: FontRole.ui.defaultSource.path, face: 7)])
        #expect { try missingFace.shape("a", role: .ui, size: 10) } throws: { error in
            (error as? ThrobberError)?.message.contains("face 7 does not exist") == true
        }
    }

    @Test func aCharacterNoFontHasIsRefusedByItsCodePoint() throws {
        #expect { try TextShaper().shape("ok \u{10FFFD}", role: .ui, size: 15) } throws: { error in
            let message = (error as? ThrobberError)?.message ?? ""
            return message.contains("U+10FFFD") && message.contains("no font has")
        }
        #expect { try TextShaper().shape("bell\u{7}", role: .ui, size: 15) } throws: { error in
            (error as? ThrobberError)?.message.contains("U+0007") == true
        }
    }

    @Test(arguments: ["ui", "thin#0", "/a/b.ttc#2"])
    func fontSourcesParse(text: String) throws {
        let source = try FontSource(parsing: text, field: "uiFont")
        #expect(source.description == (text.hasSuffix("#0") ? String(text.dropLast(2)) : text))
        #expect(throws: ThrobberError.self) { try FontSource(parsing: "x#-1", field: "uiFont") }
        #expect(throws: ThrobberError.self) { try FontSource(parsing: "#2", field: "uiFont") }
    }
}

/// SPEC §6's line breaking.
struct LineBreakingTests {
    func texts(_ lines: [ShapedLine]) -> [Int] { lines.map { $0.runs.reduce(0) { $0 + $1.glyphs.count } } }

    @Test func spacesBreakAndAreDropped() throws {
        let shaper = try TextShaper()
        let lines = try shaper.lines("Useful Information.", role: .ui, size: 15, maxWidth: 100)
        #expect(lines.count == 2)
        #expect(abs(lines[0].width - (try shaper.shape("Useful", role: .ui, size: 15).width)) < 1e-9)
        #expect(abs(lines[1].width - (try shaper.shape("Information.", role: .ui, size: 15).width)) < 1e-9)
        // Wide enough: one line, the space kept inside it.
        #expect(try shaper.lines("Useful Information.", role: .ui, size: 15, maxWidth: 200).count == 1)
    }

    @Test func cjkBreaksBetweenAnyCharacters() throws {
        let lines = try TextShaper().lines("汽车当前电量", role: .ui, size: 14, maxWidth: 50)
        #expect(lines.map(\.width) == [42, 42])
    }

    @Test func aWordWiderThanTheLineBreaksBetweenCharacters() throws {
        let lines = try TextShaper().lines("Supercalifragilistic", role: .ui, size: 15, maxWidth: 50)
        #expect(lines.count > 2)
        #expect(lines.allSatisfy { $0.width <= 50 })
        #expect(texts(lines).reduce(0, +) == 20)
    }

    @Test func newlinesEndLines() throws {
        let lines = try TextShaper().lines("a\n\nb", role: .ui, size: 15, maxWidth: 500)
        #expect(lines.count == 3 && lines[1].width == 0)
        #expect(throws: ThrobberError.self) { try TextShaper().lines("a", role: .ui, size: 15, maxWidth: 0) }
    }
}

/// SPEC §6's rasterising and placement, and the atlas golden: a change of FreeType or of a font
/// file shows here as such, before any frame differs.
struct GlyphRasterizerTests {
    /// Every glyph of a fixed string set, at fixed sizes and every quarter-pixel shift, hashed.
    static func glyphHash() throws -> String {
        let shaper = try TextShaper(), rasterizer = try GlyphRasterizer()
        var bytes: [UInt8] = []
        for (text, role, size) in [("Loading", FontRole.ui, 15.0), ("45", .thin, 60), ("%", .thin, 30), ("汽车当前电量", .ui, 14),
                                   ("Great Success!", .ui, 30)] {
            for run in try shaper.shape(text, role: role, size: size).runs {
                for glyph in run.glyphs {
                    for quarter in 0..<4 {
                        let bitmap = try rasterizer.bitmap(GlyphKey(font: run.font, glyph: glyph.glyph, sizeInPixels: size, quarter: quarter))
                        for value in [bitmap.width, bitmap.rows, bitmap.left, bitmap.top] {
                            withUnsafeBytes(of: Int32(value).littleEndian) { bytes += $0 }
                        }
                        bytes += bitmap.coverage
                    }
                }
            }
        }
        return SHA256.hex(Data(bytes))
    }

    /// Recorded with FreeType 2.12.1 (Debian 12), Roboto 2.138 and Noto Sans CJK 2.004.
    static let golden = "b2e2043922ec4f15df718711f6acb7cd3a1250450067a3c44cb9f33677f520e6"

    /// A FreeType, Roboto or Noto update that changes a glyph fails here, naming the new hash:
    /// check the glyphs, then record it in `golden`.
    @Test func theGlyphsOfAFixedStringSetAreTheRecordedOnes() throws {
        let hash = try GlyphRasterizerTests.glyphHash()
        #expect(hash == GlyphRasterizerTests.golden, "the glyph bitmaps now hash to \(hash)")
    }

    @Test func placementSnapsToQuarterPixelsAcrossAndWholePixelsDown() {
        #expect(glyphPlacement(x: 10.0, y: 5.49) == (0, 10, 5))
        #expect(glyphPlacement(x: 10.3, y: 5.5) == (1, 10, 6))
        #expect(glyphPlacement(x: 10.6, y: 0) == (2, 10, 0))
        #expect(glyphPlacement(x: 10.74, y: 0) == (3, 10, 0))
        #expect(glyphPlacement(x: 10.88, y: 0) == (0, 11, 0))
        #expect(glyphPlacement(x: -0.3, y: -0.6) == (3, -1, -1))
    }

    @Test func aShiftMovesCoverageRight() throws {
        let shaper = try TextShaper(), rasterizer = try GlyphRasterizer()
        let run = try shaper.shape("l", role: .ui, size: 40).runs[0]
        let plain = try rasterizer.bitmap(GlyphKey(font: run.font, glyph: run.glyphs[0].glyph, sizeInPixels: 40, quarter: 0))
        let shifted = try rasterizer.bitmap(GlyphKey(font: run.font, glyph: run.glyphs[0].glyph, sizeInPixels: 40, quarter: 2))
        #expect(plain.rows > 20 && plain.width > 2)
        #expect(plain.coverage != shifted.coverage)
        #expect(plain.coverage.contains(255))
    }
}
