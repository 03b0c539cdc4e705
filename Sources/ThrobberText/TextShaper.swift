import CText
import Foundation
import Throbber
import ThrobberInput

/// A line of text shaped by HarfBuzz (SPEC §6): runs of one font each, their glyphs' advances
/// and offsets in points, and the line's metrics.
public struct ShapedLine: Sendable, Equatable {
    /// One run of glyphs set in one font.
    public struct Run: Sendable, Equatable {
        /// The role whose font the run is set in (`cjk` for a fallback run).
        public var role: FontRole
        public var font: FontSource
        public var glyphs: [ShapedGlyph]
        /// The run's advance in pt.
        public var width: Double { glyphs.reduce(0) { $0 + $1.advance } }
    }

    public var runs: [Run]
    /// The size it was set at (pt).
    public var size: Double
    /// The sum of every glyph's advance (pt).
    public var width: Double { runs.reduce(0) { $0 + $1.width } }
    /// The ascent and line height of the run whose line height is largest (pt).
    public var ascent: Double
    public var lineHeight: Double
}

/// One glyph: its id in its font, the character it starts at (an index into the line's
/// characters), its advance and offsets in points, in double precision.
public struct ShapedGlyph: Sendable, Equatable {
    public var glyph: UInt32
    public var cluster: Int
    public var advance: Double
    public var xOffset: Double
    public var yOffset: Double
}

/// Shapes text in the role fonts, falling back to `cjk` for characters a role's font lacks.
/// Opens each font file once; not `Sendable` (HarfBuzz fonts are used from one thread).
public final class TextShaper {
    private var faces: [FontSource: OpaquePointer] = [:]
    /// The bytes each face reads, released after the faces (`deinit`).
    private var files: [FontSource: MappedInput] = [:]
    private let sources: [FontRole: FontSource]

    /// - Parameter sources: a file for any role not to use its default (`FontRole.defaultSource`).
    /// - Throws: backend-unavailable when libharfbuzz cannot be loaded (naming the package).
    public init(sources: [FontRole: FontSource] = [:]) throws {
        var error = [CChar](repeating: 0, count: 512)
        guard CText_load(ProcessInfo.processInfo.environment["THROBBER_HARFBUZZ_LIBRARY"], &error, error.count) == 1 else {
            throw ThrobberError(TextShaper.text(of: error), kind: .backendUnavailable)
        }
        self.sources = sources
    }

    deinit { for face in faces.values { CText_closeFace(face) } }

    /// A NUL-terminated message the C side wrote.
    static func text(of buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The file a role's text is set in.
    public func source(of role: FontRole) -> FontSource { sources[role] ?? role.defaultSource }

    private func face(_ role: FontRole) throws -> OpaquePointer {
        let source = source(of: role)
        if let face = faces[source] { return face }
        let file = try FontFile.open(source, role: role)
        var error = [CChar](repeating: 0, count: 512)
        guard let face = CText_openFace(file.bytes.baseAddress!, file.bytes.count, source.path, UInt32(clamping: source.face), &error,
                                        error.count) else {
            throw FontFile.unusable(source, role: role, reason: TextShaper.text(of: error))
        }
        files[source] = file
        faces[source] = face
        return face
    }

    /// `text` as one line in `role` at `size` pt: runs of the role's font, and of `cjk` where it
    /// lacks a character.
    ///
    /// - Throws: a usage error for a character no font has (naming it and its code point), a
    ///   control character, or a font file that cannot be opened.
    public func shape(_ text: String, role: FontRole, size: Double) throws -> ShapedLine {
        let scalars = Array(text.unicodeScalars)
        let roles = try scalars.map { try fontRole(for: $0, preferring: role) }
        var runs: [ShapedLine.Run] = []
        var start = 0
        while start < scalars.count {
            var end = start + 1
            while end < scalars.count, roles[end] == roles[start] { end += 1 }
            runs.append(try shapeRun(scalars, start..<end, role: roles[start], size: size))
            start = end
        }
        let tallest = (runs.map(\.role) + [role]).max { $0.lineHeight < $1.lineHeight }!
        return ShapedLine(runs: runs, size: size, ascent: tallest.ascent * size, lineHeight: tallest.lineHeight * size)
    }

    /// Checks that every character of `text` but its line breaks is printable and has a font,
    /// `role`'s or the fallback: what laying it out would refuse, found without shaping.
    ///
    /// - Throws: as `shape(_:role:size:)`.
    public func checkCharacters(_ text: String, role: FontRole) throws {
        for scalar in text.unicodeScalars where scalar != "\n" { _ = try fontRole(for: scalar, preferring: role) }
    }

    /// The role whose font draws `scalar`: `role`'s own, else `cjk`.
    private func fontRole(for scalar: Unicode.Scalar, preferring role: FontRole) throws -> FontRole {
        if scalar.properties.generalCategory == .control {
            throw ThrobberError.invalid("text", "U+\(String(format: "%04X", scalar.value))",
                                        allowed: "printable characters (a newline only where lines are broken)")
        }
        if CText_covers(try face(role), scalar.value) != 0 { return role }
        if role != .cjk, CText_covers(try face(.cjk), scalar.value) != 0 { return .cjk }
        throw ThrobberError("invalid text: no font has '\(Character(scalar))' (U+\(String(format: "%04X", scalar.value))); "
                            + "the \(role.rawValue) font is \(source(of: role)), the fallback \(source(of: .cjk))", kind: .usage)
    }

    private func shapeRun(_ scalars: [Unicode.Scalar], _ range: Range<Int>, role: FontRole, size: Double) throws -> ShapedLine.Run {
        let face = try face(role)
        let codepoints = scalars[range].map(\.value)
        var glyphs = [CText_Glyph](repeating: CText_Glyph(), count: codepoints.count * 2 + 8)
        var count = Int(CText_shape(face, codepoints, Int32(codepoints.count), &glyphs, Int32(glyphs.count)))
        if count > glyphs.count {
            glyphs = [CText_Glyph](repeating: CText_Glyph(), count: count)
            count = Int(CText_shape(face, codepoints, Int32(codepoints.count), &glyphs, Int32(glyphs.count)))
        }
        // HarfBuzz's values in font units × size / unitsPerEm, in double precision (SPEC §6).
        let scale = size / Double(CText_unitsPerEm(face))
        let shaped = glyphs.prefix(count).map {
            ShapedGlyph(glyph: $0.glyph, cluster: range.lowerBound + Int($0.cluster), advance: Double($0.xAdvance) * scale,
                        xOffset: Double($0.xOffset) * scale, yOffset: Double($0.yOffset) * scale)
        }
        return ShapedLine.Run(role: role, font: source(of: role), glyphs: shaped)
    }
}
