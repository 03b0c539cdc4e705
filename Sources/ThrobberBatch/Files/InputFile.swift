import Foundation
import Glibc
import Throbber
import ThrobberDigest
import ThrobberInput
import ThrobberPNG

/// Reading the files a run takes in (job files, manifests, baselines, images to compare, the
/// files `verify` checks): every one bounded before it allocates, from a regular file or a pipe,
/// with one-line errors naming the file and what is wrong with it.
public enum InputFile {
    /// The largest file read by default, in bytes: far more than any job or manifest needs, and
    /// it bounds the memory a pipe that never ends could take.
    public static let largestFile = 64 << 20

    /// The largest PNG any command reads, derived from the pixel budget: an image of
    /// `PNGCodec.pixelBudget` pixels stored without compression at 16 bits per RGBA channel
    /// (8 bytes a pixel), one filter byte a row, the deflate framing, and 1 MiB of other chunks
    /// (a file Throbber writes is far smaller: 8 bits, compressed).
    public static let largestPNG = 8 * PNGCodec.pixelBudget + PNGCodec.maxSide + (8 * PNGCodec.pixelBudget / 65_535 + 1) * 5 + (1 << 20)

    /// What is at `path`, as a reader sees it (`stat`, links followed).
    public enum Kind: Sendable, Equatable {
        case regular(size: Int)
        case directory
        /// A pipe, FIFO or character device: read to its end, its size unknown.
        case stream
        /// A block device or a socket: never read.
        case other(String)
    }

    /// What `path` names, or the system's reason it cannot be looked at.
    public static func kind(of path: String) -> Result<Kind, ThrobberError> {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = Errno.current
            return .failure(ThrobberError(code.description, kind: .missingInput, code: code.rawValue))
        }
        return .success(kind(info))
    }

    static func kind(_ info: stat) -> Kind {
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular(size: Int(info.st_size))
        case S_IFDIR: return .directory
        case S_IFIFO, S_IFCHR: return .stream
        case S_IFBLK: return .other("a block device")
        default: return .other("a socket")
        }
    }

    /// Reads a whole input file by the opening rule (``InputRule``): a regular file, or — when
    /// `streams` — a pipe or FIFO such as `<(echo …)`, read to its end (its size is not known
    /// beforehand).
    ///
    /// A regular file larger than `limit` is refused from its size before a byte is read, and the
    /// memory for it is taken once; a stream is refused as soon as it passes `limit`, or as soon
    /// as `checkStart` refuses its first bytes.
    ///
    /// - Parameters:
    ///   - path: the file.
    ///   - what: what the file is, for messages, e.g. `job file`.
    ///   - limit: the most bytes accepted.
    ///   - streams: whether a pipe or FIFO is read (only a path the user typed as the command's
    ///     input); otherwise anything but a regular file is refused before it is opened.
    ///   - origin: where the path came from: naming something that is not a file is a usage error
    ///     from the command line, a data error from a file.
    ///   - checkStart: looks at the first `startLength` bytes once they are read (or at the whole
    ///     file if it is shorter) and throws when they cannot start such a file: a stream such as
    ///     `/dev/zero` given as an image is refused after 8 bytes, not after `limit`.
    /// - Throws: `.missingInput` naming the file and the system's reason (a directory too);
    ///   `.usage` or `.badData` (by `origin`) for a device, a socket or (unless `streams`) a FIFO;
    ///   `.badData` when it is larger than `limit` bytes.
    public static func read(_ path: String, what: String, limit: Int = largestFile, streams: Bool = true,
                            origin: InputRule.Origin = .commandLine, startLength: Int = 0,
                            checkStart: (([UInt8]) throws -> Void)? = nil) throws -> [UInt8] {
        try InputRule.read(path, as: InputKind(what, limit: limit, takesStreams: streams), origin: origin, startLength: startLength,
                           checkStart: checkStart)
    }

    /// Reads a PNG for `compare`, `reproduce` or `verify`: at most ``largestPNG`` bytes, and
    /// refused after its first 8 bytes when they are not the PNG signature.
    ///
    /// - Throws: as ``read(_:what:limit:startLength:checkStart:)``; a data error naming the file
    ///   for bytes that are not a PNG.
    /// - Parameters:
    ///   - streams, origin: as ``read(_:what:limit:streams:origin:startLength:checkStart:)``: a PNG
    ///     the user named may be a pipe; one a manifest names is a regular file.
    public static func readPNG(_ path: String, what: String = "image", streams: Bool = true,
                               origin: InputRule.Origin = .commandLine) throws -> Data {
        Data(try read(path, what: what, limit: largestPNG, streams: streams, origin: origin, startLength: 8) { start in
            guard start.elementsEqual(pngSignature) else {
                throw ThrobberError("\(ThrobberError.shownPath(path)): not a PNG (its first bytes are not the PNG signature)", kind: .badData)
            }
        })
    }

    static let pngSignature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

    /// The SHA-256 of a regular file's bytes, read 1 MiB at a time (the memory of any file's
    /// digest is one buffer), with the file's size.
    ///
    /// - Throws: `.missingInput` naming the file and the reason: missing, unreadable, a
    ///   directory, a FIFO or device (never read: it is not a file a run wrote).
    public static func digest(_ path: String, what: String = "file") throws -> (sha256: String, size: Int) {
        let shown = ThrobberError.shownPath(path)
        func failure(_ code: Errno) -> ThrobberError {
            ThrobberError("cannot read \(what) \(shown)", code, kind: .missingInput)
        }
        let input: OpenedInput
        do {
            input = try InputRule.open(path, as: InputKind(what, limit: .max), origin: .file)
        } catch let error as ThrobberError where error.kind != .missingInput {
            // Not a file a run wrote: the verify that asks reports it as unreadable.
            throw ThrobberError(error.message, kind: .missingInput)
        }
        let fd = input.descriptor
        defer { close(fd) }
        let hash = SHA256()
        var size = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count: Int
            do {
                count = try SystemCall.retrying { buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } }
            } catch {
                throw failure(error)
            }
            if count == 0 { return (hash.finalizeHex(), size) }
            buffer.withUnsafeBytes { hash.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            size += count
        }
    }

    /// Whether `path` is read as a stream (a pipe such as `<(echo …)`, a device) rather than a
    /// file in a directory of its own: by what it is, not where — a job in /dev/shm (tmpfs) is a
    /// file like any other.
    public static func isStream(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return true }
        return (status.st_mode & S_IFMT) != S_IFREG
    }
}
