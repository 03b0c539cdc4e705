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
            if let pens = block.pens {
                placedBlocks.append((block.id, zip(lines, pens).flatMap { line, pen in
                    placeGlyphs(line, penX: pen.x, baseline: pen.baseline, scale: request.scale)
                }))
            } else {
                placedBlocks.append((block.id, CentredLines(lines).placedGlyphs(centreX: block.centreX, centreY: block.centreY, scale: request.scale)))
            }
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

    /// `request`'s paragraph wrapped into lines (SPEC §6 "Line breaking") and measured.
    ///
    /// - Throws: a usage error naming the text's parameter for more lines than allowed, a
    ///   character no font has or a control character; as `TextShaper` for a font.
    public static func measure(_ request: TextMeasureRequest) throws -> MeasuredText {
        let shaper = try TextShaper(sources: request.fonts)
        let wrapped: [(text: String, line: ShapedLine)]
        do {
            wrapped = try shaper.wrappedLines(request.text, role: request.role, size: request.size, maxWidth: request.maxWidth)
        } catch let error as ThrobberError where error.kind == .usage && (error.field == nil || error.field == "text") {
            throw ThrobberError("\(request.textField): \(error.message)", kind: .usage, field: request.textField)
        }
        guard wrapped.count <= request.maximumLines else {
            throw ThrobberError.invalid(request.textField, ThrobberError.echoed(request.text, longest: 60),
                                        allowed: "at most \(request.maximumLines) lines wrapped at \(formatNumber(request.maxWidth)) pt "
                                            + "at \(request.sizeField) \(formatNumber(request.size)); it makes \(wrapped.count)")
        }
        return MeasuredText(request: request, lines: wrapped.map { MeasuredText.Line(text: $0.text, width: $0.line.width) })
    }
}

/// The text module's `TextLayoutEngine`: lays out the text frames ask for and keeps the last
/// layouts, so the frames of a fade that share a size (and a sequence's repeats) share one.
public final class CachedTextLayout: TextLayoutEngine, @unchecked Sendable {
    private let lock = NSLock()
    private var cache: [TextRequest: LaidOutText] = [:]
    private var order: [TextRequest] = []
    /// How many layouts are kept: a fade at 60 fps has about 9 frames of its own sizes.
    public static let capacity = 64

    public init() {}

    public func layOut(_ request: TextRequest) throws -> LaidOutText {
        if let kept = lock.withLock({ cache[request] }) { return kept }
        let laid = try TextLayout.layOut(request)
        lock.withLock {
            if cache[request] == nil {
                cache[request] = laid
                order.append(request)
                if order.count > CachedTextLayout.capacity { cache[order.removeFirst()] = nil }
            }
        }
        return laid
    }
}

extension Scene {
    /// This scene validated, with its text measured and laid out (`TextLayout`): the
    /// `LaidOutScene` that draws it. A scene whose layout depends on its text
    /// (`SceneWithText.textToMeasure`) is measured first and validated again, since its canvas and
    /// relations change with it.
    ///
    /// - Throws: as `Scene.validate`, `TextLayout.measure` and `TextLayout.layOut`.
    public func layingOutText() throws -> LaidOutScene {
        var scene = try validated()
        guard let textModel else { return try LaidOutScene(scene) }
        if let measure = textModel.textToMeasure, !textModel.hasMeasuredText {
            scene.model = textModel.measuring(try TextLayout.measure(measure))
            scene = try scene.validated()
        }
        guard let request = scene.textRequest else { return try LaidOutScene(scene) }
        let engine = CachedTextLayout()
        let text = try engine.layOut(request)
        for t in scene.textModel?.textCheckTimes ?? [] {
            if let frameRequest = scene.frameTextRequest(at: t) { _ = try engine.layOut(frameRequest) }
        }
        return try LaidOutScene(scene, text: text, engine: engine)
    }
}
