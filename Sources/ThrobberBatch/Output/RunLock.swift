import Foundation
import Throbber

/// An advisory lock (flock(2), `LOCK_EX | LOCK_NB`) on a lock file, held while one run writes a
/// job's outputs, so that a second run of the same job (and shard) is refused instead of
/// interleaving frames with the first.
///
/// The lock file holds the holder's pid (for the refusal message) and is removed when the lock
/// is released — also when the process is abandoned by a signal. One left by a process that was
/// killed outright (SIGKILL, a crash) blocks nothing: the kernel releases a flock with its last
/// descriptor, and the next run takes the lock on the file that is there.
public final class RunLock {
    /// The lock file.
    public let path: String
    private let fd: Int32
    private let token: InFlightFiles.Token
    private var released = false

    /// Takes the lock, creating the lock file if needed.
    ///
    /// - Parameter path: the lock file (for a batch, `MANIFEST.lock`).
    /// - Throws: `cannotCreate` (73) when another process holds the lock, naming the lock file
    ///   and the holder's pid when it is known, or when the file cannot be created or locked.
    public init(path: String) throws {
        self.path = path
        while true {
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
            guard fd >= 0 else {
                throw ThrobberError("cannot create the lock file \(path): \(String(cString: strerror(errno)))", kind: .cannotCreate, code: errno)
            }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                let code = errno
                let holder = RunLock.holder(fd)
                close(fd)
                if code == EWOULDBLOCK {
                    throw ThrobberError("another run\(holder.map { " (pid \($0))" } ?? "") holds \(path) and is writing these outputs; "
                                        + "wait for it to finish or stop it", kind: .cannotCreate)
                }
                throw ThrobberError("cannot lock \(path): \(String(cString: strerror(code)))", kind: .cannotCreate, code: code)
            }
            // The holder before us may have removed the file between our open and our flock:
            // the lock is ours only if the path still names the file we locked.
            var locked = stat(), current = stat()
            guard fstat(fd, &locked) == 0, stat(path, &current) == 0,
                  locked.st_dev == current.st_dev, locked.st_ino == current.st_ino else {
                close(fd)
                continue
            }
            let pid = Data("\(getpid())\n".utf8)
            _ = ftruncate(fd, 0)
            _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
            self.fd = fd
            // Removed (while still held, so no one locks the old file after us) if a signal
            // abandons the process.
            token = InFlightFiles.shared.register(undo: { unlink(path) })
            return
        }
    }

    deinit { release() }

    /// Removes the lock file and releases the lock (in that order: a process waiting on the old
    /// file finds the path gone and starts over).
    public func release() {
        guard !released else { return }
        released = true
        unlink(path)
        close(fd)
        InFlightFiles.shared.finished(token)
    }

    /// The pid written in a lock file, if it holds one.
    private static func holder(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
