import Foundation

/// One line of a block: pieces set one after another on one baseline (the wave ball's number
/// line is its digits at `numberSize` and "%" at `percentSize`, SPEC §6 "Blocks of lines").
public struct BlockLine: Sendable, Equatable {
    public var pieces: [ShapedLine]

    public init(_ pieces: [ShapedLine]) { self.pieces = pieces }

    /// The pieces' advances together (pt).
    public var width: Double { pieces.reduce(0) { $0 + $1.width } }
    /// The piece with the largest line height sets the line's (SPEC §6: a line takes the ascent
    /// and line height of its tallest run).
    private var tallest: ShapedLine? { pieces.max { $0.lineHeight < $1.lineHeight } }
    public var ascent: Double { tallest?.ascent ?? 0 }
    public var lineHeight: Double { tallest?.lineHeight ?? 0 }
}

/// Where a line of a block is set: its pen's start, its top and its baseline, in pt.
public struct LinePlacement: Sendable, Equatable {
    public var penX: Double
    public var top: Double
    public var baseline: Double
}

/// Lines stacked one under another, the block centred on a point and each line on its x
/// (SPEC §6 "Blocks of lines"): the wave ball's label (number line, then caption, about the
/// canvas centre), and the HUD's status lines to come.
public struct CentredLines: Sendable, Equatable {
    public var lines: [BlockLine]

    public init(_ lines: [BlockLine]) { self.lines = lines }

    /// The lines' heights together (pt).
    public var height: Double { lines.reduce(0) { $0 + $1.lineHeight } }

    /// Each line's pen x (cx − width/2), top (the block's top cy − height/2, then each line below
    /// the one before) and baseline (top + ascent), in pt.
    public func placements(centreX cx: Double, centreY cy: Double) -> [LinePlacement] {
        var top = cy - height / 2
        return lines.map { line in
            defer { top += line.lineHeight }
            return LinePlacement(penX: cx - line.width / 2, top: top, baseline: top + line.ascent)
        }
    }

    /// Every glyph of the block, in text order, where it lands on a canvas of `scale` px per pt
    /// (SPEC §6 "Placement").
    public func placedGlyphs(centreX cx: Double, centreY cy: Double, scale: Double) -> [PlacedGlyph] {
        zip(lines, placements(centreX: cx, centreY: cy)).flatMap { line, at in
            placeGlyphs(line, penX: at.penX, baseline: at.baseline, scale: scale)
        }
    }
}

/// A glyph rasterised at its shift, with its pen snapped: its bitmap's top-left pixel is
/// (x + left, y − top) (SPEC §6 "Placement").
public struct PlacedGlyph: Sendable, Hashable {
    public var key: GlyphKey
    /// X and Y of SPEC §6: the pen's whole pixel across (its quarter is the key's) and down.
    public var x: Int
    public var y: Int
}

/// The glyphs of `line` with its pen starting at `penX` on `baseline` (pt), on a canvas of
/// `scale` px per pt: each pen at x px = (pen + x offset)·scale and y px = (baseline − y
/// offset)·scale, advances summed in double precision, then snapped (`glyphPlacement`).
public func placeGlyphs(_ line: BlockLine, penX: Double, baseline: Double, scale: Double) -> [PlacedGlyph] {
    var pen = penX
    var placed: [PlacedGlyph] = []
    for piece in line.pieces {
        for run in piece.runs {
            for glyph in run.glyphs {
                let at = glyphPlacement(x: (pen + glyph.xOffset) * scale, y: (baseline - glyph.yOffset) * scale)
                placed.append(PlacedGlyph(key: GlyphKey(font: run.font, glyph: glyph.glyph, sizeInPixels: piece.size * scale,
                                                        quarter: at.quarter),
                                          x: at.x, y: at.y))
                pen += glyph.advance
            }
        }
    }
    return placed
}
