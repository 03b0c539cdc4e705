import Foundation
import Throbber

/// Writes files so that a reader never sees half of one: a new file's bytes go to an unnamed file
/// in its directory that is linked to the final name when whole; a replacement's (and a new file's
/// where unnamed files are not available) go to a temporary file renamed or linked into place. A
/// failure removes what was written, so nothing partial is ever left on disk.
public enum AtomicFile {
    /// Writes `data` to `url` atomically.
    ///
    /// - Parameters:
    ///   - overwrite: whether an existing file may be replaced.
    /// - Throws: `cannotCreate` when the file exists and `overwrite` is false or the temporary file
    ///   cannot be created; `ioError` (naming the path and the system's reason) when writing fails,
    ///   for example on a full disk.
    public static func write(_ data: Data, to url: URL, overwrite: Bool) throws {
        try write(data, toPath: url.path, overwrite: overwrite)
    }

    /// Writes `data` to the file at `path` atomically, as ``write(_:to:overwrite:)`` does (without
    /// making a URL of the path: a batch writes thousands of small files a second).
    public static func write(_ data: Data, toPath path: String, overwrite: Bool) throws {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        // A new file first, with no look at the path beforehand (a frame's files are new, and
        // an lstat each is measurable on 64×64 frames): link(2) refuses a name that exists.
        var exists = false
        if !overwrite {
            switch try writeUnnamed(data, directory: directory, path: path) {
            case .written: return
            case .exists: exists = true
            case .unsupported: break
            }
        }
        // Something is there, or there was no trying: a device or FIFO is written into.
        if try writeIntoSpecialFile(path, { fd in writeAll(data, to: fd) }) { return }
        if exists { throw ThrobberError("\(ThrobberError.shownPath(path)) exists", kind: .cannotCreate, remedy: .overwrite) }
        let temporary = temporaryName(directory: directory, name: name)
        let (fd, token) = try createTemporary(temporary, for: path)
        defer { InFlightFiles.shared.finished(token) }
        if let failure = closeFile(fd, after: writeAll(data, to: fd)) {
            unlink(temporary)
            throw ThrobberError("cannot write \(ThrobberError.shownPath(path))", failure, kind: .io)
        }
        try place(temporary, at: path, overwrite: overwrite)
    }

    /// Creates the named temporary file `temporary` for the output `path`, registered with
    /// `InFlightFiles` so that a process abandoned by a signal removes it; pass the token to
    /// `InFlightFiles.shared.finished` once the file is placed or removed.
    ///
    /// - Throws: `cannotCreate` naming `path` and the system's reason.
    public static func createTemporary(_ temporary: String, for path: String) throws -> (fd: Int32, token: InFlightFiles.Token) {
        switch createRegistered(temporary) {
        case .success(let created): return created
        case .failure(let code): throw ThrobberError("cannot create \(ThrobberError.shownPath(path))", code, kind: .cannotCreate)
        }
    }

    /// Creates the new file `path` (never an existing one), registered with `InFlightFiles` so a
    /// process abandoned by a signal unlinks it; or the system's error when it cannot.
    private static func createRegistered(_ path: String) -> Result<(fd: Int32, token: InFlightFiles.Token), Errno> {
        var code = Errno.noSuchFile
        let created = InFlightFiles.shared.creating({ () -> Int32? in
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd < 0 { code = Errno.current }
            return fd < 0 ? nil : fd
        }, undo: { _ in unlink(path) })
        return created.map { .success(($0.value, $0.token)) } ?? .failure(code)
    }

    /// Writes a new file the way `write` does without ever giving it a temporary name: the bytes go
    /// to an unnamed file (O_TMPFILE) in the directory, which link(2) then names — one directory
    /// change instead of three (create, link, unlink), and a crash leaves nothing at all.
    ///
    /// - Returns: `.unsupported` when the file system or the system cannot make unnamed files
    ///   (or /proc is not mounted): the caller then uses a named temporary file; `.exists` when
    ///   something has the name already (nothing was written to it).
    /// - Throws: as `write`.
    private static func writeUnnamed(_ data: Data, directory: String, path: String) throws -> UnnamedOutcome {
        let fd = open(directory.isEmpty ? "." : directory, O_WRONLY | O_CLOEXEC | unnamedFileFlag, 0o644)
        guard fd >= 0 else {
            // Not possible here (no O_TMPFILE, or no right to create in the directory — which a
            // device such as /dev/null does not need): the caller's next way says why, if any.
            return .unsupported
        }
        defer { close(fd) }
        if let failure = writeAll(data, to: fd) {
            // Closing the descriptor frees the unnamed file: nothing partial exists anywhere.
            throw ThrobberError("cannot write \(ThrobberError.shownPath(path))", failure, kind: .io)
        }
        guard linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 else {
            let code = Errno.current
            if code == .fileExists { return .exists }
            // No /proc to name the descriptor by: fall back to a named temporary file.
            if code == .noSuchFile && access("/proc/self/fd", F_OK) != 0 { return .unsupported }
            throw ThrobberError("cannot write \(ThrobberError.shownPath(path))", code, kind: .io)
        }
        return .written
    }

    private enum UnnamedOutcome { case written, exists, unsupported }

    /// O_TMPFILE, which Glibc's module does not export (it is __O_TMPFILE | O_DIRECTORY).
    private static let unnamedFileFlag: Int32 = 0o20000000 | O_DIRECTORY

    /// The one temporary-name scheme: a hidden name beside `path` (same directory, so a rename
    /// or link is atomic), unique per process and call: `.NAME.PID.RANDOM.tmp`.
    public static func temporaryName(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return temporaryName(directory: url.deletingLastPathComponent().path, name: url.lastPathComponent)
    }

    static func temporaryName(directory: String, name: String) -> String {
        "\(directory)/.\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    }

    /// Writes all of `data` to `fd` (the one write loop, `writeAll`).
    ///
    /// - Returns: nil, or the error of the write that failed.
    private static func writeAll(_ data: Data, to fd: Int32) -> Errno? {
        data.withUnsafeBytes { ThrobberBatch.writeAll($0, to: fd) }
    }

    /// Moves a finished temporary file (in the same directory) to `path`: replacing what is there
    /// when `overwrite`, otherwise with link(2), which fails with EEXIST instead of replacing (no
    /// race with another writer). The temporary name is gone afterwards, whatever happens.
    ///
    /// - Throws: `cannotCreate` when `path` exists and `overwrite` is false; `ioError` otherwise.
    public static func place(_ temporary: String, at path: String, overwrite: Bool) throws {
        let copied: Bool
        do {
            copied = try writeIntoSpecialFile(path) { fd in copy(temporary, to: fd) }
        } catch {
            unlink(temporary)
            throw error
        }
        if copied {
            unlink(temporary)
            return
        }
        if overwrite {
            guard rename(temporary, path) == 0 else {
                let code = Errno.current
                unlink(temporary)
                throw ThrobberError("cannot write \(ThrobberError.shownPath(path))", code, kind: .io)
            }
            return
        }
        let status = link(temporary, path)
        let code = Errno.current
        unlink(temporary)
        guard status == 0 else {
            if code == .fileExists {
                throw ThrobberError("\(ThrobberError.shownPath(path)) exists", kind: .cannotCreate, remedy: .overwrite)
            }
            throw ThrobberError("cannot write \(ThrobberError.shownPath(path))", code, kind: .io)
        }
    }

    /// Writes into what is at `path` when it is a character device or a FIFO (`/dev/null`, a
    /// named pipe another program reads): it is opened and written, never unlinked or replaced,
    /// whatever `overwrite` says — it is not a file of ours. A block device, a socket or a
    /// directory is refused.
    ///
    /// - Parameter body: writes the bytes to the descriptor; returns nil or the error that failed.
    /// - Returns: false when `path` is a regular file, a symbolic link or absent (the caller
    ///   writes a file as usual).
    /// - Throws: `cannotCreate` for a block device, socket or directory, or when it cannot be
    ///   opened; `ioError` when writing fails.
    static func writeIntoSpecialFile(_ path: String, _ body: (Int32) -> Errno?) throws -> Bool {
        switch try existing(at: path) {
        case .absent, .file:
            return false
        case .writtenInto:
            let fd = try openForWriting(path)
            if let failure = closeFile(fd, after: body(fd)) {
                throw ThrobberError("cannot write \(ThrobberError.shownPath(path))", failure, kind: .io)
            }
            return true
        }
    }

    /// Opens a character device or FIFO for writing. A FIFO with no reader yet is waited for
    /// without blocking in open(2) (O_NONBLOCK, retried every 20 ms), so that a process asked to
    /// stop (`InFlightFiles.requestStop`) stops waiting within a second instead of never.
    ///
    /// - Throws: `cannotCreate` naming the path and the reason; `.interrupted` when the process
    ///   stops while no reader has come.
    static func openForWriting(_ path: String) throws -> Int32 {
        while true {
            let fd = open(path, O_WRONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
            if fd >= 0 {
                // Writes block again, as a reader of the pipe expects them to.
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
                return fd
            }
            let code = Errno.current
            // No reader: a FIFO no process has open for reading (yet). Interrupted: asked again
            // below, after the look at whether the process is stopping.
            guard code == .noReader || code == .interrupted else {
                throw ThrobberError("cannot open \(ThrobberError.shownPath(path)) for writing", code, kind: .cannotCreate)
            }
            if InFlightFiles.shared.stopRequested {
                throw ThrobberError("interrupted while waiting for a reader of the FIFO \(ThrobberError.shownPath(path))", kind: .interrupted)
            }
            usleep(20_000)
        }
    }

    /// What an output path holds now, as the writers treat it.
    public enum Existing: Sendable, Equatable {
        /// Nothing: the file is created.
        case absent
        /// A regular file or a symbolic link: replaced only with `--overwrite` (or kept with
        /// `--skip-existing`).
        case file
        /// A character device or a FIFO: written into, never replaced, so it needs no `--overwrite`.
        case writtenInto
    }

    /// Classifies what is at `path` the way `write` and `place` will treat it, so that a check
    /// made before rendering agrees with the writer (lstat: a symbolic link is a name of ours,
    /// replaced like a file; it is never followed into a device).
    ///
    /// - Throws: `cannotCreate` for a block device, a socket or a directory, which are never
    ///   written; the message names the path.
    public static func existing(at path: String) throws -> Existing {
        var status = stat()
        guard lstat(path, &status) == 0 else { return .absent }
        switch status.st_mode & S_IFMT {
        case S_IFREG, S_IFLNK:
            return .file
        case S_IFCHR, S_IFIFO:
            return .writtenInto
        case S_IFBLK:
            throw ThrobberError("\(ThrobberError.shownPath(path)) is a block device; refusing to write into it (give a file name)", kind: .cannotCreate)
        case S_IFDIR:
            throw ThrobberError("\(ThrobberError.shownPath(path)) is a directory; give a file name", kind: .cannotCreate)
        default:
            throw ThrobberError("\(ThrobberError.shownPath(path)) is a socket; give a file name or a FIFO", kind: .cannotCreate)
        }
    }

    /// Whether `path` itself is a character device (`/dev/null`; lstat: a link to one is a name
    /// of ours, like a file), which any number of outputs may write into.
    public static func isCharacterDevice(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFCHR
    }

    /// Whether `path` holds a file that `--skip-existing` keeps (a regular file, or a symbolic
    /// link to something); a device or FIFO is always written, and never read back.
    public static func holdsFile(_ path: String) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0 else { return false }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return true
        case S_IFLNK: return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
        default: return false
        }
    }

    /// Copies the file at `source` to `fd`, 1 MB at a time.
    ///
    /// - Returns: nil, or the error of the read or write that failed.
    private static func copy(_ source: String, to fd: Int32) -> Errno? {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return Errno.current }
        defer { close(input) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count: Int
            do {
                count = try SystemCall.retrying { buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) } }
            } catch {
                return error
            }
            if count == 0 { return nil }
            if let failure = buffer.withUnsafeBytes({ ThrobberBatch.writeAll(UnsafeRawBufferPointer(rebasing: $0[0..<count]), to: fd) }) {
                return failure
            }
        }
    }

    /// Creates `directory` (and its parents) if needed and checks that files can be made in it.
    ///
    /// - Throws: `cannotCreate` naming the directory and the system's reason.
    public static func prepareDirectory(_ directory: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw ThrobberError("output directory \(ThrobberError.shownPath(directory.path)) is a file", kind: .cannotCreate)
            }
        } else {
            try makeDirectories(directory.path)
        }
        // Probe with a real file: access(2) says yes to root even on a read-only file system.
        let probe = "\(directory.path)/.throbber-probe.\(getpid())"
        let created: (fd: Int32, token: InFlightFiles.Token)
        switch createRegistered(probe) {
        case .success(let made): created = made
        case .failure(let code):
            throw ThrobberError("cannot write in output directory \(ThrobberError.shownPath(directory.path))", code, kind: .cannotCreate)
        }
        close(created.fd)
        unlink(probe)
        InFlightFiles.shared.finished(created.token)
    }

    /// `mkdir -p` with mkdir(2), so that a failure names the errno's reason ("Not a directory",
    /// "Permission denied") for the part of the path that could not be made.
    private static func makeDirectories(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            if mkdir(prefix, 0o777) == 0 { continue }
            let code = Errno.current
            var status = stat()
            if code == .fileExists, stat(prefix, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { continue }
            let shown = ThrobberError.shownPath(path)
            if code == .fileExists {
                throw ThrobberError("cannot create output directory \(shown): \(prefix) exists and is not a directory", kind: .cannotCreate,
                                    code: code.rawValue)
            }
            throw ThrobberError("cannot create output directory \(shown): \(prefix)", code, kind: .cannotCreate)
        }
    }
}
