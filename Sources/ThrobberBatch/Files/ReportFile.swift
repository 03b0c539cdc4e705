import Foundation
import Throbber

/// A file a command writes beside its main work — `compare --diff`'s heat map, `parity --json`,
/// `bench --json` and `--plot` — under the rule every output follows: claimed and looked at
/// before the work starts (not the same file as an input or another output; a directory, block
/// device or socket refused), an existing file refused unless `overwrite`, the bytes written
/// whole (``AtomicFile``), a character device or FIFO written into.
public struct ReportFile: Sendable {
    /// The path as given.
    public let path: String
    /// Whether an existing file may be replaced.
    public let overwrite: Bool

    /// Claims `path` in `claims` and checks what is there now.
    ///
    /// - Parameter role: what the file is, for messages (`the --diff heat map`).
    /// - Throws: what `OutputClaims.claimOutput` throws; `cannotCreate` (73) with the `overwrite`
    ///   remedy when a file exists there and `overwrite` is false.
    public init(_ path: String, role: String, overwrite: Bool, claims: inout OutputClaims) throws {
        if try claims.claimOutput(path, role: role, source: .commandLine) == .file && !overwrite {
            throw ThrobberError("\(role) \(ThrobberError.shownPath(path)) exists", kind: .cannotCreate, remedy: .overwrite)
        }
        self.path = path
        self.overwrite = overwrite
    }

    /// As ``init(_:role:overwrite:claims:)``, for a file that is the only one its command claims.
    public init(_ path: String, role: String, overwrite: Bool) throws {
        var claims = OutputClaims()
        try self.init(path, role: role, overwrite: overwrite, claims: &claims)
    }

    /// Writes `data` whole, making the file's directory if needed. Without `overwrite` a file
    /// that appeared since the check is refused, never replaced.
    public func write(_ data: Data) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        if try AtomicFile.existing(at: path) != .writtenInto { try AtomicFile.prepareDirectory(directory) }
        try AtomicFile.write(data, toPath: path, overwrite: overwrite)
    }
}
