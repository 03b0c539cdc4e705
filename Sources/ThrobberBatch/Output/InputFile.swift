import Foundation
import Glibc
import Throbber

/// Reading the files a run takes in (job files, manifests, baselines, images to compare): whole,
/// bounded in size, from a regular file or a pipe, with one-line errors naming the file.
public enum InputFile {
    /// The largest file read by default, in bytes: far more than any job or manifest needs, and
    /// it bounds the memory a pipe that never ends could take.
    public static let largestFile = 64 << 20

    /// Reads a whole input file: a regular file, or a pipe or FIFO such as `<(echo …)`, read to
    /// its end (its size is not known beforehand).
    ///
    /// - Parameters:
    ///   - path: the file.
    ///   - what: what the file is, for messages, e.g. `job file`.
    /// - Throws: `.missingInput` naming the file and the reason (the system's words, or that it is a
    ///   directory); `.badData` when it is larger than `limit` bytes.
    public static func read(_ path: String, what: String, limit: Int = largestFile) throws -> [UInt8] {
        func failure(_ reason: String, code: Int32? = nil) -> ThrobberError {
            ThrobberError("cannot read \(what) \(ThrobberError.echoed(path, longest: ThrobberError.longestPathEcho)): \(reason)",
                          kind: .missingInput, code: code)
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(String(cString: strerror(errno)), code: errno) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { throw failure("it is a directory") }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(String(cString: strerror(errno)), code: errno)
            }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            guard bytes.count <= limit else {
                throw ThrobberError("\(ThrobberError.echoed(path, longest: ThrobberError.longestPathEcho)): a \(what) is at most \(limit) bytes", kind: .badData)
            }
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
