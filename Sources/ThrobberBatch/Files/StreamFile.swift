import Foundation
import Throbber
import ThrobberDigest

/// A file written piece by piece that appears under its name only when complete: bytes go to a
/// hidden temporary file beside it, renamed into place by `commit`, removed by `abort`. "-" is
/// standard output, written straight through. Keeps a SHA-256 of everything written.
public final class StreamFile {
    /// The final path ("-" for standard output).
    public let path: String
    private let temporary: String?
    private let fd: Int32
    /// The temporary file's registration with `InFlightFiles` (a signal that abandons the process removes it).
    private let token: InFlightFiles.Token?
    private let hash = SHA256()
    private var closed = false

    /// Opens the temporary file (or standard output).
    ///
    /// - Throws: `cannotCreate` naming the path and the system's reason.
    public init(path: String) throws {
        self.path = path
        if path == "-" {
            temporary = nil
            fd = STDOUT_FILENO
            token = nil
            return
        }
        let temp = AtomicFile.temporaryName(for: path)
        (fd, token) = try AtomicFile.createTemporary(temp, for: path)
        temporary = temp
    }

    deinit {
        if !closed { abort() }
    }

    /// Appends bytes.
    ///
    /// - Throws: `ioError` naming the path (disk full, reader gone …).
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        hash.update(bytes)
        if let failure = writeAll(bytes, to: fd) {
            let shown = path == "-" ? "standard output" : path
            if failure == .brokenPipe {
                throw ThrobberError("cannot write \(shown): the reading process closed the pipe", kind: .io, code: failure.rawValue)
            }
            throw ThrobberError("cannot write \(shown)", failure, kind: .io)
        }
    }

    /// Appends bytes.
    public func write(_ data: Data) throws {
        try data.withUnsafeBytes { try write($0) }
    }

    /// Appends bytes.
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Closes the file and moves it into place.
    ///
    /// - Returns: the SHA-256 of the bytes written.
    /// - Throws: `cannotCreate` when the file exists and `overwrite` is false; `ioError` when closing fails.
    @discardableResult
    public func commit(overwrite: Bool) throws -> String {
        closed = true
        let digest = hash.finalizeHex()
        guard let temporary else { return digest }
        defer { token.map(InFlightFiles.shared.finished) }
        if let failure = closeFile(fd, after: nil) {
            unlink(temporary)
            throw ThrobberError("cannot write \(ThrobberError.shownPath(path))", failure, kind: .io)
        }
        try AtomicFile.place(temporary, at: path, overwrite: overwrite)
        return digest
    }

    /// Closes and removes the temporary file: nothing is left.
    public func abort() {
        guard !closed else { return }
        closed = true
        if let temporary {
            close(fd)
            unlink(temporary)
        }
        token.map(InFlightFiles.shared.finished)
    }
}
