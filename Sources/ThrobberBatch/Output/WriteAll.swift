import Foundation
import Glibc

/// The one write loop: all of `bytes` to `fd`, retrying interrupted (EINTR) and short writes.
///
/// - Returns: 0, or the errno of the write that failed.
func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Int32 {
    var offset = 0
    while offset < bytes.count {
        let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
            if errno == EINTR { continue }
            return errno
        }
        offset += written
    }
    return 0
}
