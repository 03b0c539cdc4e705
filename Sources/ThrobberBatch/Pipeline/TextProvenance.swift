import Foundation
import Throbber
import ThrobberDigest

/// What a frame's tEXt says about its text (SPEC §6): the scene's text parameters, which
/// `Throbber:parameters` (words split at spaces) cannot hold, and the font files its glyphs came
/// from with a SHA-256 of each, so `reproduce` can say "font changed" rather than "pixels differ".
/// Both chunks are JSON written in ASCII (\u escapes), since tEXt holds Latin-1 only.
public enum TextProvenance {
    /// A font file as a frame records it.
    public struct FontRecord: Sendable, Equatable {
        public var file: String
        public var face: Int
        /// SHA-256 of the file's bytes, lower-case hex; nil when it could not be read.
        public var sha256: String?
    }

    /// The file's SHA-256, nil when it cannot be read.
    public static func digest(of path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let hash = SHA256()
        do {
            // nil or empty at the end of the file.
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hash.update(chunk) }
        } catch {
            return nil
        }
        return hash.finalizeHex()
    }

    /// Each font with its digest.
    public static func records(_ fonts: [FontSource]) -> [FontRecord] {
        fonts.map { FontRecord(file: $0.path, face: $0.face, sha256: digest(of: $0.path)) }
    }

    /// `Throbber:fonts`: a JSON array of {"file", "face", "sha256"}.
    public static func fontsText(_ records: [FontRecord]) -> String {
        "[" + records.map { record in
            "{\"file\":\(asciiJSON(record.file)),\"face\":\(record.face),\"sha256\":\(record.sha256.map(asciiJSON) ?? "null")}"
        }.joined(separator: ",") + "]"
    }

    /// `Throbber:text`: a JSON object of the text parameters by name.
    public static func parametersText(_ assignments: [(name: String, value: String)]) -> String {
        "{" + assignments.map { "\(asciiJSON($0.name)):\(asciiJSON($0.value))" }.joined(separator: ",") + "}"
    }

    /// Reads `Throbber:text` back.
    ///
    /// - Throws: bad data naming `name` when it is not a JSON object of strings.
    public static func parameters(_ text: String, name: String) throws -> [(name: String, value: String)] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let strings = object as? [String: String] else {
            throw ThrobberError("\(name): tEXt \(FrameText.Key.text) '\(ThrobberError.echoed(text, longest: 200))' is not a JSON object of strings",
                                kind: .badData)
        }
        return strings.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Reads `Throbber:fonts` back.
    ///
    /// - Throws: bad data naming `name` when it is not an array of font records.
    public static func fonts(_ text: String, name: String) throws -> [FontRecord] {
        let failure = ThrobberError("\(name): tEXt \(FrameText.Key.fonts) '\(ThrobberError.echoed(text, longest: 200))' "
                                    + "is not a JSON array of {file, face, sha256}", kind: .badData)
        guard let array = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] else { throw failure }
        return try array.map { entry in
            guard let file = entry["file"] as? String, let face = entry["face"] as? Int, face >= 0 else { throw failure }
            return FontRecord(file: file, face: face, sha256: entry["sha256"] as? String)
        }
    }

    /// The recorded fonts whose file is now missing or holds other bytes, one line each.
    public static func changes(_ recorded: [FontRecord]) -> [String] {
        recorded.compactMap { record in
            let now = digest(of: record.file)
            guard now != record.sha256 else { return nil }
            let shown = ThrobberError.shownPath(record.file)
            guard let now else { return "font changed: \(shown) is missing or unreadable (recorded sha256 \(record.sha256 ?? "none"))" }
            return "font changed: \(shown) has sha256 \(now), the frame recorded \(record.sha256 ?? "none")"
        }
    }

    /// `text` as a JSON string in ASCII: quotes, backslashes and control characters escaped,
    /// everything beyond ASCII as \u escapes (surrogate pairs above U+FFFF).
    static func asciiJSON(_ text: String) -> String {
        var out = "\""
        for unit in text.utf16 {
            switch unit {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                let hex = String(unit, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return out + "\""
    }
}
