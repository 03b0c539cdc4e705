import Foundation
import Throbber

/// A scene's text laid out (SPEC §6): shaped per run, each glyph rasterised once into one atlas,
/// every block's glyphs placed in pixels — the answer to a scene's `TextRequest`, made once per
/// scene (a clip's frames share it).
public enum TextLayout {
    /// The largest glyph size in px (size × scale): a glyph's bitmap is at most about this square,
    /// well inside an atlas side (`GlyphAtlas.maximumSide`).
    public static let largestPixelSize = 2048.0

    /// Lays out `request`.
    ///
    /// - Throws: a usage error naming the parameter for a size too large at the scale, a character
    ///   no font has, a control character or a font that cannot be opened; backend-unavailable when
    ///   HarfBuzz or FreeType cannot be loaded (naming the package).
    public static func layOut(_ request: TextRequest) throws -> LaidOutText {
        let shaper = try TextShaper(sources: request.fonts)
        let rasterizer = try GlyphRasterizer()
        var placedBlocks: [(id: ItemID, glyphs: [PlacedGlyph])] = []
        var fonts: [FontSource] = []
        for block in request.blocks {
            let lines = try block.lines.map { pieces in
                BlockLine(try pieces.map { piece in
                    let pixels = piece.size * request.scale
                    guard pixels <= largestPixelSize else {
                        throw ThrobberError.invalid(piece.sizeField, formatNumber(piece.size),
                                                    allowed: "at most \(formatNumber(largestPixelSize)) px at scale "
                                                        + "\(formatNumber(request.scale)) (≤ \(formatNumber(largestPixelSize / request.scale)) pt)")
                    }
                    do {
                        return try shaper.shape(piece.text, role: piece.role, size: piece.size)
                    } catch let error as ThrobberError where error.kind == .usage && error.field == nil {
                        // A character's error names the text it is in; a font's names its own parameter.
                        throw ThrobberError("\(piece.textField): \(error.message)", kind: .usage, field: piece.textField)
                    }
                })
            }
            for line in lines { for piece in line.pieces { for run in piece.runs where !fonts.contains(run.font) { fonts.append(run.font) } } }
            placedBlocks.append((block.id, CentredLines(lines).placedGlyphs(centreX: block.centreX, centreY: block.centreY, scale: request.scale)))
        }
        let atlas = try GlyphAtlas(keys: placedBlocks.flatMap { $0.glyphs.map(\.key) }, rasterizer: rasterizer)
        var quads: [ItemID: [Glyphs.Quad]] = [:]
        for block in placedBlocks {
            quads[block.id] = atlas.quads(block.glyphs).map {
                Glyphs.Quad(x: $0.x, y: $0.y, atlasX: $0.slot.x, atlasY: $0.slot.y, width: $0.slot.width, rows: $0.slot.rows)
            }
        }
        return LaidOutText(request: request, atlas: atlas.atlas, quads: quads, fonts: fonts)
    }
}

extension Scene {
    /// This scene with its text laid out (`TextLayout`), ready for `drawList(at:)`; itself when it
    /// paints no text or its text is laid out already.
    ///
    /// - Throws: as `TextLayout.layOut`.
    public func layingOutText() throws -> Scene {
        guard let request = textRequest, !hasTextLaidOut else { return self }
        return withText(try TextLayout.layOut(request))
    }
}
