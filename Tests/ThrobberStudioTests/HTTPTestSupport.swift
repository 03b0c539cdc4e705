import Foundation
import Glibc
import Testing
import Throbber
import ThrobberTestSupport
@testable import ThrobberStudio

/// What the test handler was asked and how its streams ended, shared with the test.
final class HandlerLog: @unchecked Sendable {
    private let lock = NSLock()
    private var requestsSeen: [HTTPRequest] = []
    private var streamsEnded = 0
    private var keptStream: EventStream?

    func record(_ request: HTTPRequest) { lock.withLock { requestsSeen.append(request) } }
    func streamEnded() { lock.withLock { streamsEnded += 1 } }
    var requests: [HTTPRequest] { lock.withLock { requestsSeen } }
    var endedStreams: Int { lock.withLock { streamsEnded } }
    var kept: EventStream? {
        get { lock.withLock { keptStream } }
        set { lock.withLock { keptStream = newValue } }
    }
}

/// A small application: `/page` is HTML, `/events` a stream that ticks every 20 ms until it
/// cannot, `/flood` a stream that writes as fast as it can, `/keep` one kept after it returns, `/hold` one that waits
/// while its client is there, `/header` sets a header with a line break in it, anything else echoes the request.
struct TestHandler: HTTPHandler {
    let log: HandlerLog

    func respond(to request: HTTPRequest) -> HTTPReply {
        log.record(request)
        switch request.path {
        case "/page":
            return .response(HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: Array("<p>page</p>".utf8)))
        case "/header":
            return .response(HTTPResponse(status: 200, contentType: "text/plain", body: [], headers: [("X-Evil", "a\r\nSet-Cookie: x=1")]))
        case "/keep":
            // A stream kept after its closure returned, as an application's registry of pages may keep it.
            return .eventStream { stream in log.kept = stream }
        case "/hold":
            // A stream that only waits, writing nothing, while its client is there.
            return .eventStream { stream in
                log.kept = stream
                while stream.isOpen { usleep(10_000) }
                log.streamEnded()
            }
        case "/flood":
            // Events far larger than the socket's buffers, to a client that does not read: a write blocks.
            return .eventStream { stream in
                let big = String(repeating: "x", count: 1 << 16)
                while stream.send(event: "big", data: big) {}
                log.streamEnded()
            }
        case "/events":
            return .eventStream { stream in
                stream.send(event: "hello", data: "first line\nsecond line")
                var tick = 0
                while stream.send(event: "tick", data: "{\"n\": \(tick)}") {
                    tick += 1
                    usleep(20_000)
                }
                log.streamEnded()
            }
        default:
            let query = request.query.keys.sorted().map { "\($0)=\(request.query[$0]!)" }.joined(separator: "&")
            return .response(.json(200, "{\"method\": \"\(request.method)\", \"path\": \(JSONOutput.quoted(request.path)), "
                + "\"query\": \(JSONOutput.quoted(query)), \"body\": \(JSONOutput.quoted(String(decoding: request.body, as: UTF8.self)))}"))
        }
    }
}

/// A server on a free port, serving on its own thread until `stop`.
final class RunningServer: @unchecked Sendable {
    let server: HTTPServer
    let log = HandlerLog()
    private let finished = DispatchSemaphore(value: 0)

    init(limits: HTTPLimits = RunningServer.testLimits, allowedHosts: [String] = []) throws {
        server = try HTTPServer(port: 0, limits: limits, allowedHosts: allowedHosts, handler: TestHandler(log: log))
        let server = self.server
        let finished = self.finished
        Thread {
            server.serve { false }
            finished.signal()
        }.start()
    }

    /// Small bounds, so the refusals are quick to reach.
    static var testLimits: HTTPLimits {
        var limits = HTTPLimits()
        limits.requestLineBytes = 1_024
        limits.headerBytes = 4_096
        limits.headerCount = 20
        limits.bodyBytes = 1_000
        limits.connections = 8
        limits.eventStreams = 2
        limits.requestSeconds = 0.5
        return limits
    }

    var authority: String { "127.0.0.1:\(server.port)" }

    /// Stops the server and waits for `serve` to return; the seconds that took.
    @discardableResult
    func stop() -> Double {
        let start = Date()
        server.stop()
        _ = finished.wait(timeout: .now() + 5)
        return Date().timeIntervalSince(start)
    }

    deinit { server.stop() }
}

/// A raw TCP client, so every byte on the wire is the test's choice.
final class RawClient {
    let descriptor: Int32

    init(port: UInt16, sourceLocation: SourceLocation = #_sourceLocation) throws {
        do {
            descriptor = try loopbackSocket(port: port, timeout: 5)
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
            throw error
        }
    }

    deinit { close(descriptor) }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Whatever arrives until the server closes (or 5 s pass).
    func readAll() -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return out }
            out += chunk[0..<count]
        }
    }

    /// Reads until `marker` has arrived (or the connection ends); everything read so far.
    func read(until marker: String, into buffer: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while !String(decoding: buffer, as: UTF8.self).contains(marker) {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return false }
            buffer += chunk[0..<count]
        }
        return true
    }
}

/// A response as read off the wire.
struct RawReply {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: String

    init(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        let lines = parts[0].components(separatedBy: "\r\n")
        let statusLine = lines[0].split(separator: " ")
        status = statusLine.count > 1 ? Int(statusLine[1]) ?? -1 : -1
        headers = lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]).lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        body = parts.dropFirst().joined(separator: "\r\n\r\n")
    }

    func header(_ name: String) -> String? { headers.first { $0.name == name.lowercased() }?.value }
}

extension RunningServer {
    /// Sends `request` on a new connection and reads the reply to the end.
    func exchange(_ request: String) throws -> RawReply {
        let client = try RawClient(port: server.port)
        client.send(request)
        return RawReply(client.readAll())
    }

    /// A request with this server's Host.
    func get(_ target: String, _ extra: String = "") -> String {
        "GET \(target) HTTP/1.1\r\nHost: \(authority)\r\n\(extra)\r\n"
    }
}
