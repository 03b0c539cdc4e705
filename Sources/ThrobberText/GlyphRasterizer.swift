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
    private var outlines: [GlyphKey: PathGeometry] = [:]

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
        let rasterizer = try self.rasterizer(key.font)
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

    /// The outline `bitmap(key)` is rasterised from, in px with y down, relative to the bitmap's
    /// top-left pixel (SPEC §6 "Outlines"), worked out the first time it is asked for: filled by
    /// the nonzero rule with exact area coverage it covers what the bitmap's bytes / 255 do, to
    /// FreeType's flattening and rounding. FreeType's 26.6 points are exact in double precision,
    /// and its quadratics become the cubics they are (SPEC §9 "Geometry").
    ///
    /// - Throws: a usage error when the font cannot be opened or the glyph loaded.
    public func outline(_ key: GlyphKey) throws -> PathGeometry {
        if let known = outlines[key] { return known }
        let bitmap = try bitmap(key)
        let rasterizer = try self.rasterizer(key.font)
        var error = [CChar](repeating: 0, count: 512)
        // Room for most glyphs at once; a larger outline is loaded again into buffers its size.
        var commands = [UInt8](repeating: 0, count: 256), coordinates = [Int32](repeating: 0, count: 1536)
        var size = CText_OutlineSize()
        var rendered = CText_Bitmap(width: Int32(bitmap.width), rows: Int32(bitmap.rows), left: Int32(bitmap.left), top: Int32(bitmap.top))
        while true {
            guard CText_glyphOutline(rasterizer, key.glyph, key.size64, Int32(key.quarter), &rendered, &commands, commands.count,
                                     &coordinates, coordinates.count, &size, &error, error.count) == 1 else {
                throw ThrobberError(TextShaper.text(of: error), kind: .usage)
            }
            if size.commands <= commands.count && size.coordinates <= coordinates.count { break }
            commands = [UInt8](repeating: 0, count: size.commands)
            coordinates = [Int32](repeating: 0, count: size.coordinates)
        }
        // 26.6 px up from the bitmap's bottom-left corner to px down from its top-left.
        let rows = Double(bitmap.rows)
        var next = 0
        func point() -> PathPoint {
            defer { next += 2 }
            return PathPoint(Double(coordinates[next]) / 64, rows - Double(coordinates[next + 1]) / 64)
        }
        var subpaths: [Subpath] = []
        for command in commands.prefix(size.commands) {
            switch Int(command) {
            case CText_outlineMove:
                subpaths.append(Subpath(start: point(), closed: true))
            case CText_outlineLine:
                subpaths[subpaths.count - 1].segments.append(.line(to: point()))
            case CText_outlineConic:
                let from = subpaths[subpaths.count - 1].segments.last?.end ?? subpaths[subpaths.count - 1].start
                let control = point()
                subpaths[subpaths.count - 1].segments.append(PathGeometry.cubic(quadraticFrom: from, control: control, to: point()))
            default:
                let control1 = point(), control2 = point()
                subpaths[subpaths.count - 1].segments.append(.cubic(control1, control2, to: point()))
            }
        }
        let outline = PathGeometry(subpaths: subpaths)
        outlines[key] = outline
        return outline
    }

    /// The FreeType face of `font`, opened the first time it is asked for.
    private func rasterizer(_ font: FontSource) throws -> OpaquePointer {
        if let open = rasterizers[font] { return open }
        var error = [CChar](repeating: 0, count: 512)
        let role = FontRole.allCases.first { $0.defaultSource == font } ?? .ui
        let file = try FontFile.open(font, role: role)
        guard let made = CText_newRasterizer(file.bytes.baseAddress!, file.bytes.count, font.path, UInt32(clamping: font.face),
                                             &error, error.count) else {
            throw FontFile.unusable(font, role: role, reason: TextShaper.text(of: error))
        }
        files[font] = file
        rasterizers[font] = made
        return made
    }
}
