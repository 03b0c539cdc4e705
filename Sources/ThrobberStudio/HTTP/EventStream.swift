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
        var text = "event: " + String(event.unicodeScalars.filter { $0 != "\r" && $0 != "\n" }) + "\n"
        var line = ""
        var previous: Unicode.Scalar?
        for scalar in data.unicodeScalars {
            if scalar == "\n" && previous == "\r" {
                // The second half of a CRLF: its line was ended by the CR.
            } else if scalar == "\n" || scalar == "\r" {
                text += "data: " + line + "\n"
                line = ""
            } else {
                line.unicodeScalars.append(scalar)
            }
            previous = scalar
        }
        text += "data: " + line + "\n\n"
        return write(text)
    }

    /// Writes `bytes` as they are: the body of a `byteStream` reply.
    ///
    /// - Returns: false once the client has gone or the server is stopping.
    @discardableResult
    public func send(bytes: [UInt8]) -> Bool { write(bytes) }

    /// Writes a comment line (`: ping`), which a browser ignores: the way to find a gone client.
    ///
    /// - Returns: false once the client has gone or the server is stopping.
    @discardableResult
    public func ping() -> Bool {
        write(": ping\n\n")
    }

    /// Whether the stream can still be written: the client has not hung up, no write failed and
    /// the server is not stopping.
    public var isOpen: Bool {
        lock.withLock { !failed } && !(server?.isStopping ?? true) && !connection.wasShutDown && !connection.hungUp
    }

    private func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    private func write(_ bytes: [UInt8]) -> Bool {
        lock.withLock {
            guard !failed, !(server?.isStopping ?? true), !connection.wasShutDown else {
                failed = true
                return false
            }
            if !connection.write(bytes) { failed = true }
            return !failed
        }
    }
}
