import Foundation
import Throbber

/// An advisory lock (flock(2), `LOCK_EX | LOCK_NB`) on a lock file, held while one run writes a
/// job's outputs, so that a second run of the same job (and shard) is refused instead of
/// interleaving frames with the first.
///
/// The lock file is the run's own and nothing else is ever taken for one: it is created with
/// `O_EXCL` and holds the holder's pid (for the refusal message). What is found at the path is
/// used only when it is what a run leaves — a regular file with one link holding a pid or
/// nothing — and only through the descriptor that was checked; anything else (a user's file,
/// a hard link to one, a symbolic link, a FIFO, a device) is refused and left as it is. The
/// file is removed when the lock is released — also when the process is abandoned by a signal —
/// and only while the path still names the file this run locked. One left by a process that was
/// killed outright (SIGKILL, a crash) blocks nothing: the kernel releases a flock with its last
/// descriptor, and the next run takes the lock on the file that is there.
public final class RunLock {
    /// The lock file.
    public let path: String
    private let fd: Int32
    private let identity: (dev: UInt64, ino: UInt64)
    private let token: InFlightFiles.Token
    private var released = false

    /// The most bytes a lock file of ours holds: a pid and a newline.
    static let largestLockFile = 32

    /// Takes the lock, creating the lock file if needed.
    ///
    /// - Parameter path: the lock file (for a batch, `MANIFEST.lock`).
    /// - Throws: `cannotCreate` (73) when another process holds the lock, naming the lock file
    ///   and the holder's pid when it is known; when something that is not a lock file of ours
    ///   is at the path (named, with what it is); or when the file cannot be created or locked.
    public init(path: String) throws {
        self.path = path
        let shown = ThrobberError.shownPath(path)
        while true {
            var created = true
            var fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
            if fd < 0 && errno == EEXIST {
                // Something is there: opened without following a link and without blocking (a FIFO
                // opened for reading and writing does not wait; a device is refused below unread).
                created = false
                fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
                if fd < 0 && errno == ENOENT { continue } // the holder removed it meanwhile
                if fd < 0 && errno == ELOOP {
                    throw ThrobberError("\(shown) is a symbolic link, not a lock file of Throbber's; remove it",
                                        kind: .cannotCreate, remedy: .moveManifest)
                }
            }
            guard fd >= 0 else {
                throw ThrobberError("cannot create the lock file \(shown)", Errno.current, kind: .cannotCreate)
            }
            var locked = stat()
            guard fstat(fd, &locked) == 0 else {
                let code = Errno.current
                close(fd)
                throw ThrobberError("cannot look at the lock file \(shown)", code, kind: .cannotCreate)
            }
            if !created, let why = RunLock.foreign(fd, locked) {
                close(fd)
                throw ThrobberError("\(shown) \(why), not a lock file of Throbber's; nothing was changed: remove it",
                                    kind: .cannotCreate, remedy: .moveManifest)
            }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                let code = Errno.current
                let holder = RunLock.holder(fd)
                close(fd)
                if code == .wouldBlock {
                    throw ThrobberError("another run\(holder.map { " (pid \($0))" } ?? "") holds \(shown) and is writing these outputs; "
                                        + "wait for it to finish or stop it", kind: .cannotCreate)
                }
                throw ThrobberError("cannot lock \(shown)", code, kind: .cannotCreate)
            }
            // The holder before us may have removed the file between our open and our flock:
            // the lock is ours only if the path still names the file we locked.
            var current = stat()
            guard lstat(path, &current) == 0, locked.st_dev == current.st_dev, locked.st_ino == current.st_ino else {
                close(fd)
                continue
            }
            // Ours now: a file this run created, or a lock file a killed run left (a pid, checked).
            let pid = Data("\(getpid())\n".utf8)
            _ = ftruncate(fd, 0)
            _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
            self.fd = fd
            let identity = (dev: UInt64(locked.st_dev), ino: UInt64(locked.st_ino))
            self.identity = identity
            // Removed (while still held, so no one locks the old file after us) if a signal
            // abandons the process.
            token = InFlightFiles.shared.register(undo: { RunLock.remove(path, ifItIs: identity) })
            return
        }
    }

    deinit { release() }

    /// Removes the lock file and releases the lock (in that order: a process waiting on the old
    /// file finds the path gone and starts over). The path is removed only while it still names
    /// the file this run locked.
    public func release() {
        guard !released else { return }
        released = true
        RunLock.remove(path, ifItIs: identity)
        close(fd)
        InFlightFiles.shared.finished(token)
    }

    /// Unlinks `path` if it still names the file `identity`.
    private static func remove(_ path: String, ifItIs identity: (dev: UInt64, ino: UInt64)) {
        var current = stat()
        guard lstat(path, &current) == 0, UInt64(current.st_dev) == identity.dev, UInt64(current.st_ino) == identity.ino else { return }
        unlink(path)
    }

    /// Why the file open at `fd` is not a lock file a run of ours left, or nil when it is: a
    /// regular file with one link holding at most a pid and a newline.
    private static func foreign(_ fd: Int32, _ info: stat) -> String? {
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFIFO: return "is a FIFO"
        case S_IFCHR: return "is a character device"
        case S_IFBLK: return "is a block device"
        case S_IFDIR: return "is a directory"
        case S_IFSOCK: return "is a socket"
        default: return "is not a regular file"
        }
        if info.st_nlink != 1 { return "has \(info.st_nlink) links (a hard link to another file)" }
        if info.st_size > largestLockFile { return "holds \(info.st_size) bytes" }
        var buffer = [UInt8](repeating: 0, count: largestLockFile)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { return "cannot be read" }
        let text = buffer[0..<count]
        let digits = text.last == UInt8(ascii: "\n") ? text.dropLast() : text[...]
        guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return "holds something other than a pid" }
        return nil
    }

    /// The pid written in a lock file, if it holds one.
    private static func holder(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
