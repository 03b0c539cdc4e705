import Throbber
import ThrobberInput

/// A font file as the text module reads it: by the one rule every input is opened by
/// (`InputRule`), so a path in `uiFont`, `thinFont` or `cjkFont` — typed, in a job file or in a
/// PNG's tEXt that `reproduce` reads — that names a FIFO, a device or a directory is refused
/// before it is opened, a file over 64 MiB before a byte of it is read, and HarfBuzz and FreeType
/// only ever see bytes in memory.
enum FontFile {
    /// The bytes of `source`'s file, mapped.
    ///
    /// - Throws: `.missingInput` (with the system's reason) for a file that is missing or cannot
    ///   be read; a usage error naming the role's field (`uiFont`) for a path that names no
    ///   regular file; a data error for a file over the limit. A reader of a file that named the
    ///   path (a job, a PNG) refuses the usage error as its own data error.
    static func open(_ source: FontSource, role: FontRole) throws -> MappedInput {
        do {
            return try InputRule.map(source.path, as: .font, origin: .commandLine, field: role.field)
        } catch let error as ThrobberError where error.kind == .missingInput && source == role.defaultSource {
            throw ThrobberError("\(error.message); install the Debian package \(role.debianPackage)", kind: .missingInput, code: error.code,
                                field: role.field)
        } catch var error as ThrobberError {
            error.field = error.field ?? role.field
            throw error
        }
    }

    /// The error for a file read whole whose bytes hold no usable face.
    static func unusable(_ source: FontSource, role: FontRole, reason: String) -> ThrobberError {
        let remedy = source == role.defaultSource ? "; install the Debian package \(role.debianPackage)" : ""
        return ThrobberError("invalid \(role.field) '\(ThrobberError.shownPath(source.description))': \(reason)\(remedy)", kind: .usage,
                             field: role.field)
    }
}

extension FontRole {
    /// The parameter that sets the role's font file: `uiFont`, `thinFont`, `cjkFont`.
    var field: String { "\(rawValue)Font" }
}
