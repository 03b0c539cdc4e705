import Foundation
import Glibc
import Testing
import Throbber
import ThrobberTestSupport
import ThrobberBatch
import ThrobberRender
@testable import ThrobberStudio

/// A studio served in-process on a free port, for tests that talk to it as the page does.
final class RunningStudio: @unchecked Sendable {
    let studio: Studio
    let server: HTTPServer
    private let finished = DispatchSemaphore(value: 0)

    init(_ references: [String], exportDirectory: String? = nil, backend: Backend = .cpu) throws {
        studio = try Studio(references: references, backend: backend, exportDirectory: exportDirectory, pageDirectory: nil,
                            cancellation: NotCancelled(), version: "test")
        server = try HTTPServer(handler: studio)
        let server = self.server, finished = self.finished
        Thread {
            server.serve(shouldStop: { false })
            finished.signal()
        }.start()
        studio.startWatching()
    }

    func stop() {
        server.stop()
        studio.stop()
        _ = finished.wait(timeout: .now() + 5)
    }

    var port: UInt16 { server.port }

    /// One request, its status, headers and body as bytes.
    func exchange(_ method: String, _ path: String, json: String? = nil, headers: [String] = []) throws -> StudioReply {
        let socket = try connectedSocket(port)
        defer { close(socket) }
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for header in headers { request += header + "\r\n" }
        if let json { request += "Content-Type: application/json\r\nContent-Length: \(json.utf8.count)\r\n" }
        request += "\r\n" + (json ?? "")
        _ = Array(request.utf8).withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        return try StudioReply(bytes)
    }

    func post(_ path: String, _ json: String) throws -> StudioReply { try exchange("POST", path, json: json) }
}

/// A reply: status, headers (lower-cased names) and the body's bytes.
struct StudioReply: CustomStringConvertible {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]

    init(_ bytes: [UInt8]) throws {
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { bytes[$0..<$0 + 4] == [13, 10, 13, 10] }) else {
            throw StudioTestError("no header end in \(String(decoding: bytes.prefix(200), as: UTF8.self))")
        }
        let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        status = Int(head[0].split(separator: " ")[1]) ?? 0
        headers = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        body = Array(bytes[(end + 4)...])
    }

    var text: String { String(decoding: body, as: UTF8.self) }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }
    var description: String { "\(status) \(text.prefix(300))" }
}

/// A page's event stream, read on a thread of its own into a list of (event, JSON data).
final class EventReader: @unchecked Sendable {
    private let lock = NSLock()
    private var received: [(event: String, data: [String: Any])] = []
    private let socket: Int32

    init(port: UInt16, client: String) throws {
        socket = try connectedSocket(port)
        let request = "GET /api/events?client=\(client) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
        _ = Array(request.utf8).withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        let descriptor = socket
        Thread { [self] in
            var buffer: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count <= 0 { return }
                buffer += chunk[..<count]
                lock.withLock { rawText += String(decoding: chunk[..<count], as: UTF8.self) }
                while let end = (0..<max(0, buffer.count - 1)).first(where: { buffer[$0] == 10 && buffer[$0 + 1] == 10 }) {
                    let block = String(decoding: buffer[..<end], as: UTF8.self)
                    buffer.removeFirst(end + 2)
                    // By Characters: the HTTP head before the first event ends in "\r\n", one Character.
                    let lines = block.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
                    guard let name = lines.first(where: { $0.hasPrefix("event: ") })?.dropFirst(7) else { continue }
                    let data = lines.filter { $0.hasPrefix("data: ") }.map { $0.dropFirst(6) }.joined(separator: "\n")
                    let object = (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:]
                    lock.withLock { received.append((String(name), object)) }
                }
            }
        }.start()
    }

    deinit { close(socket) }

    /// Waits (up to `seconds`) for the first event named `event` after the first `skip` events
    /// for which `matching` holds.
    func wait(for event: String, after skip: Int = 0, seconds: Double = 20,
              matching: ([String: Any]) -> Bool = { _ in true }) -> [String: Any]? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline {
            if let found = lock.withLock({ received.dropFirst(skip).first { $0.event == event && matching($0.data) } }) {
                return found.data
            }
            usleep(10_000)
        }
        return nil
    }

    var count: Int { lock.withLock { received.count } }
    private var rawText = ""
    var raw: String { lock.withLock { rawText } }
    var events: [(event: String, data: [String: Any])] { lock.withLock { received } }
}

/// A TCP connection to 127.0.0.1:`port` with 20 s timeouts.
func connectedSocket(_ port: UInt16) throws -> Int32 { try loopbackSocket(port: port) }

struct StudioTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
