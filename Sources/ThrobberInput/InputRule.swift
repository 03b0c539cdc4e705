import Glibc
import Throbber

/// The one rule every file a run reads is opened by: fonts, scene files, job files, manifests,
/// PNGs (and the inputs to come). A file is bounded before a byte of it is read, and a path that
/// does not name what its kind must be is refused before it is opened.
///
/// - Only a regular file is read, unless the kind takes a stream (a job file given as
///   `batch <(…)`: a pipe or FIFO, never a device): a FIFO would block a run forever, and a
///   device such as `/dev/zero` or `/dev/urandom` never ends. The path is looked at with `stat` before it is opened, so a
///   device is never opened at all; it is then opened non-blocking and checked again with
///   `fstat` on what was opened, so a file swapped in between is caught.
/// - Each kind has a size limit (``InputKind/limit``), checked against the file's size before
///   the first byte is read, and again as bytes arrive (a file in /proc says it has 0 bytes).
/// - Each refusal is one line naming the file and the reason, of the kind that tells the caller
///   what to do: `.missingInput` (exit 66) when it is missing or cannot be read, with the
///   system's words (a directory too: it cannot be read as a file); `.usage` (64) when a path
///   given on the command line names a device, a socket or a FIFO where a file must be,
///   `.badData` (65) when such a path came from a file (a job, a PNG's tEXt); `.badData` when the
///   file is larger than its kind allows.
public enum InputRule {
    /// Where a path came from, which decides whether naming the wrong thing is a usage error or a
    /// data error.
    public enum Origin: Sendable, Equatable {
        /// Typed by the user: an argument, an option, `--set`.
        case commandLine
        /// Read from a file: a job file, a scene file, a PNG's tEXt, a manifest.
        case file
    }

    /// What `path` is, looked at without opening it (`stat`, links followed).
    ///
    /// - Throws: `.missingInput` with the system's words when it cannot be looked at.
    public static func kind(of path: String, what: String, field: String? = nil) throws -> FileKind {
        var info = stat()
        guard stat(path, &info) == 0 else { throw cannotRead(path, what, Errno.current, field: field) }
        return FileKind(info)
    }

    /// Opens `path` by the rule for `kind`: a descriptor for reading (blocking reads), and the
    /// file's size when it is a regular file.
    ///
    /// - Parameter field: the setting that named the path (`uiFont`), for the message; nil when
    ///   the path is the command's own input.
    /// - Throws: as the type says. The descriptor is the caller's to close.
    public static func open(_ path: String, as kind: InputKind, origin: Origin, field: String? = nil) throws -> OpenedInput {
        // A NUL would end the path the system sees early: another file than the one named.
        guard !path.utf8.contains(0) else {
            throw ThrobberError("invalid \(field ?? kind.what) '\(ThrobberError.shownPath(path))': a path holds no NUL character",
                                kind: origin == .commandLine ? .usage : .badData, field: field)
        }
        let before = try self.kind(of: path, what: kind.what, field: field)
        switch before {
        case .regular: break
        case .stream(device: false) where kind.takesStreams:
            // A FIFO waits here for its writer, as a user who typed it expects (a signal
            // abandons the wait); a pipe such as `<(…)` has one already.
            let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
            guard fd >= 0 else { throw cannotRead(path, kind.what, Errno.current, field: field) }
            return OpenedInput(descriptor: fd, size: nil, path: path, kind: kind)
        default:
            throw notAFile(path, kind, before, origin: origin, field: field)
        }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else { throw cannotRead(path, kind.what, Errno.current, field: field) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = Errno.current
            close(fd)
            throw cannotRead(path, kind.what, code, field: field)
        }
        let opened = FileKind(info)
        guard case .regular(let size) = opened else {
            close(fd)
            throw notAFile(path, kind, opened, origin: origin, field: field)
        }
        guard size <= kind.limit else {
            close(fd)
            throw tooLarge(path, kind, size: size)
        }
        // Reads of a regular file never wait; blocking mode again, so a read is a plain read.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return OpenedInput(descriptor: fd, size: size, path: path, kind: kind)
    }

    /// Reads the whole of `path` by the rule for `kind`, at most `kind.limit` bytes.
    ///
    /// - Parameters:
    ///   - startLength, checkStart: `checkStart` looks at the first `startLength` bytes once they
    ///     are read (or the whole file if it is shorter) and throws when they cannot start such a
    ///     file: a stream that is not a PNG is refused after 8 bytes, not after `limit`.
    /// - Throws: as ``open(_:as:origin:field:)``; `.missingInput` when a read fails; `.badData`
    ///   when a stream passes the limit.
    public static func read(_ path: String, as kind: InputKind, origin: Origin, field: String? = nil, startLength: Int = 0,
                            checkStart: (([UInt8]) throws -> Void)? = nil) throws -> [UInt8] {
        let input = try open(path, as: kind, origin: origin, field: field)
        defer { close(input.descriptor) }
        var bytes: [UInt8] = []
        if let size = input.size { bytes.reserveCapacity(size) }
        var checked = checkStart == nil
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let room = min(chunk.count, kind.limit + 1 - bytes.count)
            let count = chunk.withUnsafeMutableBytes { buffer in
                var count: Int
                repeat { count = Glibc.read(input.descriptor, buffer.baseAddress, room) } while count < 0 && errno == EINTR
                return count
            }
            guard count >= 0 else { throw cannotRead(path, kind.what, Errno.current, field: field) }
            if count == 0 {
                if !checked { try checkStart?(bytes) }
                return bytes
            }
            bytes += chunk[0..<count]
            guard bytes.count <= kind.limit else { throw tooLarge(path, kind, size: nil) }
            if !checked && bytes.count >= startLength {
                checked = true
                try checkStart?(Array(bytes.prefix(startLength)))
            }
        }
    }

    /// Maps the whole of a regular file at `path` read-only, by the rule for `kind` (which must
    /// not take streams): what a font is read as, so that only the pages a shaper or a
    /// rasteriser touches are read. A file that cannot be mapped (one in /proc) is read instead.
    ///
    /// - Throws: as ``read(_:as:origin:field:startLength:checkStart:)``; `.badData` for an empty file.
    public static func map(_ path: String, as kind: InputKind, origin: Origin, field: String? = nil) throws -> MappedInput {
        precondition(!kind.takesStreams, "a stream cannot be mapped")
        let input = try open(path, as: kind, origin: origin, field: field)
        let size = input.size ?? 0
        let base = size > 0 ? mmap(nil, size, PROT_READ, MAP_PRIVATE, input.descriptor, 0) : nil
        close(input.descriptor)
        if let base, base != MAP_FAILED { return MappedInput(mapped: UnsafeRawBufferPointer(start: base, count: size)) }
        // /proc and other files whose size stat does not know: read, still bounded.
        let bytes = try read(path, as: kind, origin: origin, field: field)
        guard !bytes.isEmpty else {
            throw ThrobberError("\(shown(path, field)): the \(kind.what) is empty", kind: .badData, field: field)
        }
        return MappedInput(copying: bytes)
    }

    static func shown(_ path: String, _ field: String?) -> String {
        field.map { "\($0) \(ThrobberError.shownPath(path))" } ?? ThrobberError.shownPath(path)
    }

    static func cannotRead(_ path: String, _ what: String, _ code: Errno, field: String?) -> ThrobberError {
        var error = ThrobberError("cannot read \(what) \(ThrobberError.shownPath(path))\(field.map { " (\($0))" } ?? "")", code, kind: .missingInput)
        error.field = field
        return error
    }

    static func notAFile(_ path: String, _ kind: InputKind, _ found: FileKind, origin: Origin, field: String?) -> ThrobberError {
        // A directory cannot be read as a file (EISDIR): an unreadable input, as sysexits' EX_NOINPUT says.
        if found == .directory {
            var error = ThrobberError("cannot read \(kind.what) \(ThrobberError.shownPath(path))\(field.map { " (\($0))" } ?? ""): it is a directory",
                                      kind: .missingInput, code: EISDIR)
            error.field = field
            return error
        }
        let allowed = kind.takesStreams ? "a file, a pipe or a FIFO" : "a regular file"
        let message = "invalid \(field ?? kind.what) '\(ThrobberError.shownPath(path))': it is \(found.description); "
            + "the \(kind.what) must be \(allowed)"
        return ThrobberError(message, kind: origin == .commandLine ? .usage : .badData, field: field)
    }

    static func tooLarge(_ path: String, _ kind: InputKind, size: Int?) -> ThrobberError {
        let article = kind.what.first.map { "aeiou".contains($0) } == true ? "an" : "a"
        return ThrobberError("\(ThrobberError.shownPath(path)): \(article) \(kind.what) is at most \(kind.limit) bytes"
                             + (size.map { ", this one has \($0)" } ?? ""), kind: .badData)
    }
}

/// What a kind of input is called in messages, how large it may be, and whether it may be a
/// stream (a pipe, a FIFO) rather than a regular file.
public struct InputKind: Sendable, Equatable {
    /// What the file is, for messages: `font file`, `job file`.
    public var what: String
    /// The most bytes accepted.
    public var limit: Int
    /// Whether a pipe or FIFO is read to its end (only the command's own input, typed by the user).
    public var takesStreams: Bool

    public init(_ what: String, limit: Int, takesStreams: Bool = false) {
        self.what = what
        self.limit = limit
        self.takesStreams = takesStreams
    }

    /// A font file: at most 64 MiB (Noto Sans CJK's collection, the largest font Throbber sets
    /// text in by default, is 19 MB); never a stream.
    public static let font = InputKind("font file", limit: 64 << 20)
}

/// What a path names, as `stat` sees it.
public enum FileKind: Sendable, Equatable, CustomStringConvertible {
    case regular(size: Int)
    case directory
    /// A pipe, FIFO (`device` false) or character device: read to its end, its size unknown.
    case stream(device: Bool)
    /// A block device or a socket: never read.
    case other(String)

    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: self = .regular(size: Int(info.st_size))
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .stream(device: false)
        case S_IFCHR: self = .stream(device: true)
        case S_IFBLK: self = .other("a block device")
        default: self = .other("a socket")
        }
    }

    public var description: String {
        switch self {
        case .regular: "a regular file"
        case .directory: "a directory"
        case .stream(let device): device ? "a character device" : "a FIFO or pipe"
        case .other(let what): what
        }
    }
}

/// A file opened by ``InputRule``: its descriptor (the caller closes it) and, for a regular
/// file, its size.
public struct OpenedInput: Sendable {
    public var descriptor: Int32
    public var size: Int?
    public var path: String
    public var kind: InputKind
}

/// A file's bytes, mapped read-only (or copied where it cannot be mapped), released with the value.
public final class MappedInput: @unchecked Sendable {
    /// The bytes; valid as long as this value lives.
    public let bytes: UnsafeRawBufferPointer
    private let isMapped: Bool

    init(mapped: UnsafeRawBufferPointer) {
        bytes = mapped
        isMapped = true
    }

    init(copying source: [UInt8]) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: source.count, alignment: 16)
        buffer.copyBytes(from: source)
        bytes = UnsafeRawBufferPointer(buffer)
        isMapped = false
    }

    deinit {
        if isMapped {
            munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
        } else {
            bytes.deallocate()
        }
    }
}
