import Throbber

// The glyphs' row (Throbber/DrawList/Primitives/Glyphs.swift): a glyph's coverage read from the
// atlas, twin of Shaders/Primitives/glyphs.glsl, and how the CPU renderer paints glyphs one by one.

/// SPEC §6 "Atlas and painting": the coverage of canvas pixel (x, y) under a glyph whose bitmap's
/// top-left pixel is (x − dx, y − dy) in the canvas and (0, 0) + (dx, dy) away in the atlas:
/// c = byte / 255 of the atlas texel (x + dx, y + dy), read at whole texels.
@inline(__always) func glyphCoverage(_ atlas: UnsafePointer<UInt8>, _ atlasWidth: Int, _ x: Int, _ y: Int, _ dx: Int, _ dy: Int) -> Float {
    Float(atlas[(y + dy) * atlasWidth + x + dx]) / 255
}

extension Glyphs: CPUPrimitive {
    func prepare(shortcuts: Bool, resources: DrawResources) -> any CPUItem {
        guard let atlas = resources.atlases[atlas], atlas.revision == atlasRevision else {
            preconditionFailure("glyphs read atlas \(self.atlas) at revision \(atlasRevision), which the draw list does not hold")
        }
        return PreparedGlyphs(self, atlas: atlas)
    }
}

/// Glyphs as the CPU renderer paints them: each quad's bounds and its offset into the atlas.
final class PreparedGlyphs: CPUItem {
    let glyphs: Glyphs
    let atlas: CoverageAtlas
    /// Atlas texel minus canvas pixel, per quad (dx, dy).
    let offsets: [(dx: Int, dy: Int)]

    init(_ glyphs: Glyphs, atlas: CoverageAtlas) {
        self.glyphs = glyphs
        self.atlas = atlas
        offsets = glyphs.quads.map { ($0.atlasX - $0.x, $0.atlasY - $0.y) }
    }

    func reaches(rows: Range<Int>) -> Bool {
        glyphs.bounds.reaches(rows: rows) && glyphs.quadBounds.contains { $0.reaches(rows: rows) }
    }

    /// `paintReference` eight columns at a time: the same bytes, the same division.
    func paint(_ band: Band) {
        guard glyphs.bounds.reaches(rows: band.y0..<band.y1) else { return }
        let width = atlas.width, color = glyphs.color
        atlas.coverage.withUnsafeBufferPointer { bytes in
            for (rect, offset) in zip(glyphs.quadBounds, offsets) where rect.reaches(rows: band.y0..<band.y1) {
                band.shade(rect, nil, color, GlyphCoverage(atlas: bytes.baseAddress!, width: width, dx: offset.dx, dy: offset.dy))
            }
        }
    }

    /// Every glyph, in text order, over its bitmap's pixels on the canvas, a pixel at a time.
    func paintReference(_ band: Band) {
        guard glyphs.bounds.reaches(rows: band.y0..<band.y1) else { return }
        let width = atlas.width, color = glyphs.color
        atlas.coverage.withUnsafeBufferPointer { bytes in
            let base = bytes.baseAddress!
            for (rect, offset) in zip(glyphs.quadBounds, offsets) where rect.reaches(rows: band.y0..<band.y1) {
                band.shade(rect, nil, color) { x, _, py, _ in
                    glyphCoverage(base, width, x, Int(py), offset.dx, offset.dy)
                }
            }
        }
    }
}

/// `glyphCoverage` of one glyph: its atlas bytes read a pixel or eight at a time.
struct GlyphCoverage: PixelCoverage {
    let atlas: UnsafePointer<UInt8>
    let width: Int
    let dx: Int
    let dy: Int

    @inline(__always) func at(_ x: Int, _ px: Float, _ py: Float, solid: Bool) -> Float {
        glyphCoverage(atlas, width, x, Int(py), dx, dy)
    }

    static var evaluatesEight: Bool { true }

    /// Eight texels of one atlas row, each byte / 255 as `glyphCoverage` divides it.
    @inline(__always) func eight(_ x: Int, _ px: SIMD8<Float>, _ py: Float, solid: SIMDMask<SIMD8<Int32>>) -> SIMD8<Float> {
        let bytes = UnsafeRawPointer(atlas + (Int(py) + dy) * width + x + dx).loadUnaligned(as: SIMD8<UInt8>.self)
        return SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: bytes)) / 255
    }
}
