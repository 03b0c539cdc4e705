import CText
import Foundation
import Throbber
import ThrobberInput

/// A glyph as rasterised: which font, glyph and size, and which quarter-pixel shift (SPEC §6
/// "Atlas": the atlas's key).
public struct GlyphKey: Hashable, Sendable {
    public var font: FontSource
    public var glyph: UInt32
    /// floor(64·p + 0.5), p the size in px.
    public var size64: Int
    /// b: the glyph's shift right in quarter pixels, 0…3.
    public var quarter: Int

    public init(font: FontSource, glyph: UInt32, sizeInPixels: Double, quarter: Int) {
        self.font = font
        self.glyph = glyph
        size64 = Int((64 * sizeInPixels + 0.5).rounded(.down))
        self.quarter = quarter
    }
}

/// A glyph's coverage: `width` × `rows` bytes (c = byte / 255), its top-left pixel `left` right
/// of and `top` above the pen.
public struct GlyphBitmap: Sendable, Equatable {
    public var width: Int
    public var rows: Int
    public var left: Int
    public var top: Int
    public var coverage: [UInt8]
}

/// Where a glyph whose pen is at (x, y) px lands (SPEC §6 "Placement"): q = floor(4x + 0.5),
/// b = q mod 4, X = (q − b)/4, Y = floor(y + 0.5) — quarter pixels across, whole pixels down.
public func glyphPlacement(x: Double, y: Double) -> (quarter: Int, x: Int, y: Int) {
    let q = Int((4 * x + 0.5).rounded(.down))
    let b = ((q % 4) + 4) % 4
    return (b, (q - b) / 4, Int((y + 0.5).rounded(.down)))
}

/// Rasterises glyphs with FreeType, unhinted, stem darkening off whatever FREETYPE_PROPERTIES
/// says (SPEC §6 "Rasterising"); each glyph once. Not `Sendable` (FreeType faces are used from
/// one thread).
public final class GlyphRasterizer {
    private var rasterizers: [FontSource: OpaquePointer] = [:]
    /// The bytes each rasterizer's face reads, released after the rasterizers (`deinit`).
    private var files: [FontSource: MappedInput] = [:]
    private var bitmaps: [GlyphKey: GlyphBitmap] = [:]

    /// - Throws: backend-unavailable when libfreetype cannot be loaded (naming the package).
    public init() throws {
        var error = [CChar](repeating: 0, count: 512)
        guard CText_loadFreeType(ProcessInfo.processInfo.environment["THROBBER_FREETYPE_LIBRARY"], &error, error.count) == 1 else {
            throw ThrobberError(TextShaper.text(of: error), kind: .backendUnavailable)
        }
    }

    deinit { for rasterizer in rasterizers.values { CText_freeRasterizer(rasterizer) } }

    /// The glyph's bitmap, rendered the first time it is asked for.
    ///
    /// - Throws: a usage error when the font cannot be opened or the glyph rendered.
    public func bitmap(_ key: GlyphKey) throws -> GlyphBitmap {
        if let known = bitmaps[key] { return known }
        var error = [CChar](repeating: 0, count: 512)
        let rasterizer: OpaquePointer
        if let open = rasterizers[key.font] {
            rasterizer = open
        } else {
            let role = FontRole.allCases.first { $0.defaultSource == key.font } ?? .ui
            let file = try FontFile.open(key.font, role: role)
            guard let made = CText_newRasterizer(file.bytes.baseAddress!, file.bytes.count, key.font.path, UInt32(clamping: key.font.face),
                                                 &error, error.count) else {
                throw FontFile.unusable(key.font, role: role, reason: TextShaper.text(of: error))
            }
            files[key.font] = file
            rasterizers[key.font] = made
            rasterizer = made
        }
        var info = CText_Bitmap()
        let size = CText_renderGlyph(rasterizer, key.glyph, key.size64, Int32(key.quarter), nil, 0, &info, &error, error.count)
        guard size >= 0 else { throw ThrobberError(TextShaper.text(of: error), kind: .usage) }
        var coverage = [UInt8](repeating: 0, count: size)
        if size > 0 {
            _ = CText_renderGlyph(rasterizer, key.glyph, key.size64, Int32(key.quarter), &coverage, size, &info, &error, error.count)
        }
        let bitmap = GlyphBitmap(width: Int(info.width), rows: Int(info.rows), left: Int(info.left), top: Int(info.top), coverage: coverage)
        bitmaps[key] = bitmap
        return bitmap
    }
}
