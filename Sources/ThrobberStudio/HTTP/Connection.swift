import Foundation
import Glibc

/// One accepted socket: reads bounded by a deadline, whole writes that never raise SIGPIPE, and a
/// shutdown any thread may call (the server's `stop`) to end a read or write blocked on it.
///
/// The descriptor is closed only by the connection's own thread, after the server has forgotten
/// it, so `shutDown` never reaches a descriptor number the kernel has handed to something else.
final class Connection: @unchecked Sendable {
    /// What a read brought.
    enum ReadResult: Equatable {
        /// This many bytes were appended.
        case bytes(Int)
        /// The client closed its side (or the server shut the socket down).
        case closed
        /// Nothing arrived before the deadline.
        case timedOut
    }

    /// How long one write may block on a client that does not read (SO_SNDTIMEO).
    static let sendTimeoutSeconds = 10.0

    let descriptor: Int32
    private let lock = NSLock()
    private var isShut = false
    private var isClosed = false

    init(descriptor: Int32, sendTimeoutSeconds: Double = Connection.sendTimeoutSeconds) {
        self.descriptor = descriptor
        Connection.setSendTimeout(descriptor, seconds: sendTimeoutSeconds)
    }

    /// Whether `shutDown` was called (the server is stopping).
    var wasShutDown: Bool { lock.withLock { isShut } }

    /// Ends both directions at once: a thread blocked reading or writing returns.
    func shutDown() {
        lock.withLock {
            guard !isClosed else { return }
            isShut = true
            _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
        }
    }

    /// Reads what has arrived (at most `most` bytes) into `buffer`, waiting until `deadline`
    /// (monotonic seconds, `Connection.now`).
    func read(into buffer: inout [UInt8], most: Int, deadline: Double) -> ReadResult {
        while true {
            let left = deadline - Connection.now()
            if left <= 0 { return .timedOut }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, Int32(min(max(left * 1000, 1), 1_000)))
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 { return .closed }
            if ready == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: max(1, min(most, 65_536)))
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) { continue }
            if count <= 0 { return .closed }
            buffer.append(contentsOf: chunk[0..<count])
            return .bytes(count)
        }
    }

    /// Writes all of `bytes`; false when the client has gone, the server shut the socket down, or
    /// a write blocked longer than the send timeout.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes {
                send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return false }
            offset += count
        }
        return true
    }

    /// Whether the client has hung up or the socket failed, seen without reading or writing.
    var hungUp: Bool {
        var entry = pollfd(fd: descriptor, events: 0, revents: 0)
        guard poll(&entry, 1, 0) > 0 else { return false }
        return entry.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }

    /// Closes after a refusal without losing it: the client may still be sending what was not
    /// read (a body over the bound), and closing with unread bytes would reset the connection and
    /// could discard the response before the client reads it. So the write side is shut, and what
    /// arrives is read and dropped until the client closes, for at most `seconds` or `most` bytes.
    func lingeringClose(seconds: Double = 1.0, most: Int = 4 << 20) {
        _ = Glibc.shutdown(descriptor, Int32(SHUT_WR))
        let deadline = Connection.now() + seconds
        var dropped = 0
        var sink: [UInt8] = []
        while dropped < most, case .bytes(let count) = read(into: &sink, most: 65_536, deadline: deadline) {
            dropped += count
            sink.removeAll(keepingCapacity: true)
        }
        close()
    }

    /// Closes the descriptor (once).
    func close() {
        lock.withLock {
            guard !isClosed else { return }
            isClosed = true
            _ = Glibc.close(descriptor)
        }
    }

    /// Monotonic seconds, for deadlines.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Bounds how long a write may block (a client that stops reading cannot hold a thread forever).
    static func setSendTimeout(_ descriptor: Int32, seconds: Double) {
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }
}
