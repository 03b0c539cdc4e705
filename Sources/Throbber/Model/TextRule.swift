/// What a text parameter accepts: text to paint, or a font file (SPEC §6).
public enum TextRule: Sendable, Equatable {
    /// Text to paint: 1 to `Limits.textCharacters` characters, printable; a newline (U+000A)
    /// starts a new line.
    case lines
    /// Text to paint, or empty for none (the HUD's status).
    case optionalLines
    /// A font file for a role, `PATH` or `PATH#FACE` (`FontSource`); empty for the role's default.
    case fontFile

    /// What is allowed, in words.
    public var allowed: String {
        switch self {
        case .lines: "1 to \(Limits.textCharacters) printable characters; a newline (U+000A) starts a new line"
        case .optionalLines: "up to \(Limits.textCharacters) printable characters (empty: none); a newline (U+000A) starts a new line"
        case .fontFile: "a font file's path or PATH#FACE (FACE a whole number ≥ 0); empty for the default font"
        }
    }

    /// Checks `text`.
    ///
    /// - Throws: a usage error naming `field`, the offending character's code point when there is
    ///   one, and what is allowed.
    public func check(_ text: String, field: String) throws {
        switch self {
        case .lines, .optionalLines:
            guard !text.isEmpty || self == .optionalLines else { throw ThrobberError.invalid(field, text, allowed: allowed) }
            let scalars = text.unicodeScalars
            if let bad = scalars.first(where: { $0 != "\n" && $0.properties.generalCategory == .control }) {
                throw ThrobberError("invalid \(field): it holds the control character U+\(bad.codePoint); allowed: \(allowed)",
                                    kind: .usage, field: field)
            }
            guard scalars.count <= Limits.textCharacters else {
                throw ThrobberError.invalid(field, text, allowed: allowed)
            }
        case .fontFile:
            if !text.isEmpty { _ = try FontSource(parsing: text, field: field) }
        }
    }
}

extension Unicode.Scalar {
    /// The code point as U+ writes it: at least four upper-case hex digits.
    public var codePoint: String {
        let hex = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
