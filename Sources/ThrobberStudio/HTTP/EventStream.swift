import Foundation

/// A server-sent event stream (`text/event-stream`) to one client, open while the handler's
/// closure runs.
///
/// Writes never throw and never raise SIGPIPE: once the client has gone, a write blocked longer
/// than the send timeout, or the server is stopping (its `stop()` shuts the socket down), every
/// call returns false, and the closure should return.
public final class EventStream: @unchecked Sendable {
    private let connection: Connection
    private weak var server: HTTPServer?
    private let lock = NSLock()
    private var failed = false

    init(connection: Connection, server: HTTPServer) {
        self.connection = connection
        self.server = server
    }

    /// Writes `event: NAME` and `data: …` (each line of `data` as its own data line), then a
    /// blank line.
    ///
    /// - Returns: false once the client has gone or the server is stopping.
    @discardableResult
    public func send(event: String, data: String) -> Bool {
        var out = Array("event: ".utf8) + event.utf8.filter { $0 != 0x0a && $0 != 0x0d } + Array("\ndata: ".utf8)
        let bytes = Array(data.utf8)
        out.reserveCapacity(out.count + bytes.count + 16)
        var index = 0
        // Whole runs between line ends are copied at once: a frame's data can be long.
        while let end = bytes[index...].firstIndex(where: { $0 == 0x0a || $0 == 0x0d }) {
            out += bytes[index..<end]
            out += Array("\ndata: ".utf8)
            index = bytes[end] == 0x0d && end + 1 < bytes.count && bytes[end + 1] == 0x0a ? end + 2 : end + 1
        }
        out += bytes[index...]
        out += [0x0a, 0x0a]
        return write(out)
    }

    /// Writes `parts` as they are, one after another with nothing between them (no other writer's
    /// bytes can land inside): one message of a `byteStream` reply, made of large buffers without
    /// copying them into one.
    ///
    /// - Returns: false once the client has gone or the server is stopping.
    @discardableResult
    public func send(parts: [[UInt8]]) -> Bool {
        lock.withLock {
            for part in parts {
                guard !failed, !(server?.isStopping ?? true), !connection.wasShutDown else {
                    failed = true
                    return false
                }
                if !connection.write(part) { failed = true }
            }
            return !failed
        }
    }

    /// Writes a comment line (`: ping`), which a browser ignores: the way to find a gone client.
    ///
    /// - Returns: false once the client has gone or the server is stopping.
    @discardableResult
    public func ping() -> Bool {
        write(Array(": ping\n\n".utf8))
    }

    /// Whether the stream can still be written: the client has not hung up, no write failed and
    /// the server is not stopping.
    public var isOpen: Bool {
        lock.withLock { !failed } && !(server?.isStopping ?? true) && !connection.wasShutDown && !connection.hungUp
    }

    private func write(_ bytes: [UInt8]) -> Bool { send(parts: [bytes]) }
}
