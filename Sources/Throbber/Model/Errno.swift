#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A system call's error number: the code, and the system's words for it, in one place (the shape
/// of swift-system's `Errno`).
///
/// The core makes no system calls; this is the one type the libraries that do (ThrobberBatch's
/// file writers and readers) throw and word their failures with, so that no site builds errno
/// text by hand. A failure becomes a ``ThrobberError`` through
/// ``ThrobberError/init(_:_:kind:remedy:)``, which keeps the code.
public struct Errno: Error, Sendable, Hashable, RawRepresentable, CustomStringConvertible {
    /// The number, as `errno` holds it.
    public var rawValue: Int32

    /// The error number `rawValue`.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno` now. Read it once, right after the call that failed: any
    /// call in between (even a `close` on the way out) may change it.
    public static var current: Errno { Errno(rawValue: errno) }

    /// The system's words for the error (`strerror`): `No such file or directory`.
    public var description: String { String(cString: strerror(rawValue)) }

    /// `EINTR`: a signal interrupted the call before it did anything; it may be made again.
    public static let interrupted = Errno(rawValue: EINTR)
    /// `ENOENT`: no such file or directory.
    public static let noSuchFile = Errno(rawValue: ENOENT)
    /// `EEXIST`: the file exists.
    public static let fileExists = Errno(rawValue: EEXIST)
    /// `EPIPE`: the reading end of a pipe is closed.
    public static let brokenPipe = Errno(rawValue: EPIPE)
    /// `ENXIO`: for a FIFO opened for writing without blocking, no process has it open for reading.
    public static let noReader = Errno(rawValue: ENXIO)
    /// `ELOOP`: the last component is a symbolic link where none may be followed (`O_NOFOLLOW`).
    public static let symbolicLink = Errno(rawValue: ELOOP)
    /// `EWOULDBLOCK`: the call would wait (a lock another process holds, with `LOCK_NB`).
    public static let wouldBlock = Errno(rawValue: EWOULDBLOCK)
}

extension ThrobberError {
    /// The error of a system call that failed: `what` was being done (`cannot write out/f.png`),
    /// then the system's words for `errno` after a colon, with the number as ``code``.
    ///
    /// - Parameters:
    ///   - what: what failed, naming the file (shortened by ``shownPath(_:)`` where it may be long).
    ///   - errno: the failed call's error number.
    ///   - kind: what the failure means to the caller.
    ///   - remedy: what the caller can do about it, if a setting is the way.
    public init(_ what: String, _ errno: Errno, kind: Kind, remedy: Remedy? = nil) {
        self.init("\(what): \(errno)", kind: kind, code: errno.rawValue, remedy: remedy)
    }
}
