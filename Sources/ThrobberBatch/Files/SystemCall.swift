import Glibc
import Throbber

/// The one way system calls are retried: a call interrupted by a signal (EINTR) before it did
/// anything is made again, any other failure is its ``Errno`` (swift-system's `valueOrErrno` with
/// its retry on interrupt).
enum SystemCall {
    /// Makes `call` — one that returns -1 and sets `errno` when it fails, such as read(2) or
    /// write(2) — until it is not interrupted.
    ///
    /// - Returns: what the call returned.
    /// - Throws: the call's ``Errno`` when it failed for another reason than EINTR.
    static func retrying<T: SignedInteger>(_ call: () -> T) throws(Errno) -> T {
        while true {
            let result = call()
            if result != -1 { return result }
            let code = Errno.current
            if code != .interrupted { throw code }
        }
    }
}

/// Writes all of `bytes` to `fd`: the one write loop, retrying interrupted and short writes.
///
/// - Returns: nil, or the error of the write that failed.
func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Errno? {
    var offset = 0
    while offset < bytes.count {
        do {
            offset += try SystemCall.retrying { Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset) }
        } catch {
            return error
        }
    }
    return nil
}

/// Closes `fd`, after the writes to it ended with `failure` (nil: they all succeeded).
///
/// - Returns: the first of the writes' error and close's, or nil. A close that fails is not made
///   again: on Linux the descriptor is released whatever close(2) returns.
func closeFile(_ fd: Int32, after failure: Errno?) -> Errno? {
    if close(fd) != 0 && failure == nil { return Errno.current }
    return failure
}
