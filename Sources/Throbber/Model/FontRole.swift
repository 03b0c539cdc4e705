import Foundation


/// The fonts text is set in, by role (SPEC §6): each stands in for an iOS font, and both renderers
/// load the same files.
public enum FontRole: String, CaseIterable, Sendable {
    /// SF Pro Text's stand-in: Roboto Regular.
    case ui
    /// HelveticaNeue-Thin's stand-in: Roboto Thin.
    case thin
    /// The fallback for any character a role's font lacks (PingFang SC's stand-in): Noto Sans CJK SC.
    case cjk

    /// The file and face the role uses unless overridden.
    public var defaultSource: FontSource {
        switch self {
        case .ui: FontSource(path: "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf")
        case .thin: FontSource(path: "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Thin.ttf")
        case .cjk: FontSource(path: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", face: 2)
        }
    }

    /// The Debian package holding the default file.
    public var debianPackage: String {
        switch self {
        case .ui, .thin: "fonts-roboto-unhinted"
        case .cjk: "fonts-noto-cjk"
        }
    }

    /// iOS's ascent per point of size, not the file's, so lines are as tall as the originals'.
    public var ascent: Double {
        switch self {
        case .ui, .cjk: 1950.0 / 2048
        case .thin: 0.967
        }
    }

    /// iOS's line height per point of size.
    public var lineHeight: Double {
        switch self {
        case .ui, .cjk: 2444.0 / 2048
        case .thin: 1.209
        }
    }
}

/// A font file and the face in it: `PATH` or `PATH#FACE` (SPEC §6's `uiFont`, `thinFont`, `cjkFont`).
public struct FontSource: Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var face: Int

    public init(path: String, face: Int = 0) {
        self.path = path
        self.face = face
    }

    /// Parses `PATH` or `PATH#FACE`.
    ///
    /// - Throws: a usage error naming `field` when the face is not a whole number ≥ 0 or the path is empty.
    public init(parsing text: String, field: String) throws {
        var path = Substring(text), face = 0
        if let hash = text.lastIndex(of: "#") {
            guard let number = Int(text[text.index(after: hash)...]), number >= 0 else {
                throw ThrobberError.invalid(field, text, allowed: "a font file's path, or PATH#FACE with FACE a whole number ≥ 0")
            }
            path = text[..<hash]
            face = number
        }
        guard !path.isEmpty else { throw ThrobberError.invalid(field, text, allowed: "a font file's path, or PATH#FACE") }
        self.init(path: String(path), face: face)
    }

    public var description: String { face == 0 ? path : "\(path)#\(face)" }
}
