import Foundation
import Glibc
import Testing
import Throbber
@testable import ThrobberStudio

/// The server's bounds in time and in connections, its event streams, and how it stops.
@Suite(.serialized)
struct HTTPServerLifecycleTests {
    @Test func aSlowClientIsAnswered408() throws {
        let running = try RunningServer()
        defer { running.stop() }
        // Headers one byte at a time would never end: the whole request has 0.5 s.
        let client = try RawClient(port: running.server.port)
        let start = Date()
        client.send("GET / HTTP/1.1\r\nHost: \(running.authority)\r\n")
        for byte in Array("X-Slow: 1".utf8) {
            client.send([byte])
            usleep(100_000)
        }
        let reply = RawReply(client.readAll())
        #expect(reply.status == 408, "\(reply)")
        #expect(Date().timeIntervalSince(start) < 3)
        // A body that stops coming too.
        let body = try RawClient(port: running.server.port)
        body.send("POST / HTTP/1.1\r\nHost: \(running.authority)\r\nContent-Length: 10\r\n\r\nabc")
        #expect(RawReply(body.readAll()).status == 408)
        #expect(running.log.requests.isEmpty)
    }

    @Test func connectionsOverTheBoundAre503AndTheServerGoesOn() throws {
        var limits = RunningServer.testLimits
        limits.connections = 2
        limits.requestSeconds = 3
        let running = try RunningServer(limits: limits)
        defer { running.stop() }
        // Two clients that never finish their requests hold both connections.
        let idle = try [RawClient(port: running.server.port), RawClient(port: running.server.port)]
        idle.forEach { $0.send("GET / HT") }
        usleep(200_000)
        let third = try running.exchange(running.get("/a"))
        #expect(third.status == 503, "\(third)")
        #expect(third.header("Connection") == "close")
        // When they go, a new client is answered.
        idle.forEach { shutdown($0.descriptor, Int32(SHUT_RDWR)) }
        usleep(300_000)
        #expect(try running.exchange(running.get("/a")).status == 200)
    }

    @Test func anEventStreamDeliversEventsAndEndsOnStop() throws {
        let running = try RunningServer()
        let client = try RawClient(port: running.server.port)
        client.send(running.get("/events?client=abcdefgh"))
        var received: [UInt8] = []
        #expect(client.read(until: "data: {\"n\": 2}\n\n", into: &received))
        let reply = RawReply(received)
        #expect(reply.status == 200)
        #expect(reply.header("Content-Type") == "text/event-stream; charset=utf-8")
        #expect(reply.header("Content-Length") == nil && reply.header("Cache-Control") == "no-store")
        #expect(reply.body.hasPrefix("event: hello\ndata: first line\ndata: second line\n\nevent: tick\ndata: {\"n\": 0}\n\n"), "\(reply.body)")
        let seconds = running.stop()
        #expect(seconds < 2, "serve took \(seconds) s to return after stop()")
        // The stream's connection was shut down: the client reads to its end, and the handler's loop returned.
        _ = client.readAll()
        #expect(running.log.endedStreams == 1)
    }

    @Test func aGoneClientEndsItsStream() throws {
        let running = try RunningServer()
        defer { running.stop() }
        do {
            let client = try RawClient(port: running.server.port)
            client.send(running.get("/events"))
            var received: [UInt8] = []
            #expect(client.read(until: "event: tick", into: &received))
        }
        // The client closed; the next writes fail (never SIGPIPE) and the closure returns.
        let deadline = Date().addingTimeInterval(3)
        while running.log.endedStreams == 0 && Date() < deadline { usleep(20_000) }
        #expect(running.log.endedStreams == 1)
    }

    /// A stream written after its connection closed writes nothing anywhere: not into the next
    /// client's connection, which the kernel gives the same descriptor number (found by the
    /// fuzzer's --http: a slow client read another page's export events).
    @Test func aKeptStreamNeverWritesIntoTheNextConnection() throws {
        let running = try RunningServer()
        defer { running.stop() }
        let first = try RawClient(port: running.server.port)
        first.send(running.get("/keep"))
        #expect(RawReply(first.readAll()).status == 200)
        let kept = try #require(running.log.kept)
        // The next connection, its request not sent yet: the server is reading it.
        let next = try RawClient(port: running.server.port)
        usleep(100_000)
        #expect(!kept.isOpen)
        #expect(!kept.send(event: "export", data: "{\"leak\": true}"))
        #expect(!kept.ping())
        next.send(running.get("/a"))
        let reply = String(decoding: next.readAll(), as: UTF8.self)
        #expect(reply.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(reply.prefix(200))")
        #expect(!reply.contains("leak"))
    }

    /// A client that closes its connection is seen as gone by `isOpen` without any write, so a
    /// handler that only waits (a page's stream between frames) ends and frees its slot.
    @Test func aClosedClientIsNotOpen() throws {
        let running = try RunningServer()
        defer { running.stop() }
        do {
            let client = try RawClient(port: running.server.port)
            client.send(running.get("/hold"))
            var received: [UInt8] = []
            #expect(client.read(until: "\r\n\r\n", into: &received))
            usleep(100_000)
            #expect(running.log.kept?.isOpen == true)
        }
        let deadline = Date().addingTimeInterval(3)
        while running.log.endedStreams == 0 && Date() < deadline { usleep(10_000) }
        #expect(running.log.endedStreams == 1)
        #expect(running.log.kept?.isOpen == false)
    }

    @Test func streamsOverTheBoundAre503() throws {
        let running = try RunningServer()
        defer { running.stop() }
        let streams = try (0..<2).map { _ in try RawClient(port: running.server.port) }
        for stream in streams {
            stream.send(running.get("/events"))
            var received: [UInt8] = []
            #expect(stream.read(until: "event: hello", into: &received))
        }
        #expect(try running.exchange(running.get("/events")).status == 503)
        // Other requests are still answered.
        #expect(try running.exchange(running.get("/a")).status == 200)
        // HEAD gets a stream's headers without running it.
        let head = try running.exchange("HEAD /events HTTP/1.1\r\nHost: \(running.authority)\r\n\r\n")
        #expect(head.status == 503)
    }

    @Test func stopIsPromptAndSafeBeforeServe() throws {
        let running = try RunningServer()
        // An idle client mid-request does not hold the stop up.
        let client = try RawClient(port: running.server.port)
        client.send("GET / HTTP/1.1\r\n")
        usleep(50_000)
        let seconds = running.stop()
        #expect(seconds < 1.5, "\(seconds) s")
        // stop() before serve(): serve returns at once.
        let server = try HTTPServer(port: 0, handler: TestHandler(log: HandlerLog()))
        server.stop()
        let start = Date()
        server.serve { false }
        #expect(Date().timeIntervalSince(start) < 0.5)
        // shouldStop is polled too.
        let other = try HTTPServer(port: 0, handler: TestHandler(log: HandlerLog()))
        let asked = Date()
        other.serve { Date().timeIntervalSince(asked) > 0.2 }
        #expect(Date().timeIntervalSince(asked) < 1.5)
    }

    /// stop() shuts every connection down: a handler blocked writing to a client that does not
    /// read, and a reader waiting for a request that is not coming, both return at once instead of
    /// after the send timeout (10 s) or `requestSeconds`.
    @Test func stopEndsBlockedWritesAndReads() throws {
        var limits = RunningServer.testLimits
        limits.requestSeconds = 10
        let running = try RunningServer(limits: limits)
        let flooded = try RawClient(port: running.server.port)
        flooded.send(running.get("/flood"))
        let idle = try RawClient(port: running.server.port)
        idle.send("GET / HTTP/1.1\r\n")
        // Long enough for the flood to fill the socket's buffers (megabytes) and block.
        usleep(800_000)
        #expect(running.log.endedStreams == 0)
        let stopped = Date()
        #expect(running.stop() < 1.5)
        let deadline = Date().addingTimeInterval(3)
        while running.log.endedStreams == 0 && Date() < deadline { usleep(10_000) }
        #expect(running.log.endedStreams == 1)
        #expect(Date().timeIntervalSince(stopped) < 2)
        // The idle client's connection ends without an answer (no 408 ten seconds later).
        #expect(idle.readAll().isEmpty)
        #expect(Date().timeIntervalSince(stopped) < 2.5)
    }

    @Test func portZeroIsAFreePortAndTheURLNamesIt() throws {
        let running = try RunningServer()
        defer { running.stop() }
        #expect(running.server.port != 0)
        #expect(running.server.url == "http://127.0.0.1:\(running.server.port)/")
    }

    @Test func aPortInUseIsOneLineNamingIt() throws {
        let running = try RunningServer()
        defer { running.stop() }
        let port = running.server.port
        #expect(performing: { try HTTPServer(port: port, handler: TestHandler(log: HandlerLog())) }, throws: { error in
            guard let error = error as? ThrobberError else { return false }
            return error.kind == .cannotCreate && error.message.contains("--port \(port)") && error.message.contains("in use")
                && !error.message.contains("\n")
        })
    }

    @Test(arguments: ["localhost", "::1", "127.0.0", "example.com", "", "127.0.0.1:80"])
    func aHostThatIsNotAnIPv4LiteralIsAUsageError(host: String) throws {
        #expect(performing: { try HTTPServer(host: host, port: 0, handler: TestHandler(log: HandlerLog())) }, throws: { error in
            guard let error = error as? ThrobberError else { return false }
            return error.kind == .usage && error.message.contains("--host '\(host)'") && error.message.contains("IPv4 address")
        })
    }

    /// The stream's framing on a socket pair: every line end (LF, CRLF, CR) starts a data line,
    /// and a line end in an event name cannot start a field.
    @Test func eventDataLinesAreSplitOnEveryLineEnd() throws {
        var pair: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[1]) }
        let server = try HTTPServer(port: 0, handler: TestHandler(log: HandlerLog()))
        let connection = Connection(descriptor: pair[0])
        defer { connection.close() }
        let stream = EventStream(connection: connection, server: server)
        #expect(stream.isOpen)
        #expect(stream.send(event: "fr\name", data: "a\r\nb\rc\nd"))
        #expect(stream.ping())
        var buffer = [UInt8](repeating: 0, count: 1_024)
        let count = buffer.withUnsafeMutableBytes { recv(pair[1], $0.baseAddress, $0.count, 0) }
        #expect(String(decoding: buffer[0..<max(0, count)], as: UTF8.self) == "event: frame\ndata: a\ndata: b\ndata: c\ndata: d\n\n: ping\n\n")
        // Once the server stops, the stream says so and writes nothing.
        server.stop()
        #expect(!stream.isOpen)
        #expect(!stream.send(event: "frame", data: "x"))
    }
}
