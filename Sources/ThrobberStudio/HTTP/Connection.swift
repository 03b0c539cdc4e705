import Foundation
import Glibc

/// One accepted socket: reads bounded by a deadline, whole writes that never raise SIGPIPE, and a
/// shutdown any thread may call (the server's `stop`) to end a read or write blocked on it.
///
/// The descriptor is closed once no call is using it: an `EventStream` a handler kept after its
/// closure returned may still be written from another thread, and a write to a closed descriptor
/// number could reach the next client's connection, which the kernel gives the same number. So
/// every use holds the descriptor open (`using`), and once `close` was asked for, no use begins.
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
    /// `close` was called: no new use begins.
    private var closing = false
    /// The descriptor was closed: its number may belong to something else now.
    private var isClosed = false
    /// Calls using the descriptor now.
    private var users = 0

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

    /// Runs `body` with the descriptor held open; nil once `close` was called.
    private func using<T>(_ body: () -> T) -> T? {
        let admitted = lock.withLock { () -> Bool in
            if closing { return false }
            users += 1
            return true
        }
        guard admitted else { return nil }
        defer {
            let last = lock.withLock {
                users -= 1
                guard users == 0 && closing && !isClosed else { return false }
                isClosed = true
                return true
            }
            if last { _ = Glibc.close(descriptor) }
        }
        return body()
    }

    /// Reads what has arrived (at most `most` bytes) into `buffer`, waiting until `deadline`
    /// (monotonic seconds, `Connection.now`).
    func read(into buffer: inout [UInt8], most: Int, deadline: Double) -> ReadResult {
        using { readNow(into: &buffer, most: most, deadline: deadline) } ?? .closed
    }

    private func readNow(into buffer: inout [UInt8], most: Int, deadline: Double) -> ReadResult {
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
        using { writeNow(bytes) } ?? false
    }

    private func writeNow(_ bytes: [UInt8]) -> Bool {
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

    /// Whether the client has closed its side (or the socket failed, or it was closed here), seen
    /// without writing: after a whole request nothing more is expected from it, so an end of
    /// input is a client that has gone (a page closed or reloaded).
    var hungUp: Bool {
        using {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 0) > 0 else { return false }
            if entry.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return true }
            var byte: UInt8 = 0
            let count = recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
            return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
        } ?? true
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

    /// Closes the descriptor (once), at once when nothing uses it, else when the last use ends;
    /// a use blocked in a write is woken by a shutdown.
    func close() {
        let now = lock.withLock {
            guard !closing else { return false }
            closing = true
            if users > 0 {
                _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
                return false
            }
            isClosed = true
            return true
        }
        if now { _ = Glibc.close(descriptor) }
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
