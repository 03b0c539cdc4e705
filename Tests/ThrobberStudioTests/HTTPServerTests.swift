import Foundation
import Testing
@testable import ThrobberStudio

/// The server over real sockets: what it hands the handler, the fields every response carries,
/// and every request it refuses itself (issue 52; the contract's status list).
@Suite(.serialized)
struct HTTPServerTests {
    @Test func getHandsTheHandlerTheDecodedPathAndQuery() throws {
        let running = try RunningServer()
        defer { running.stop() }
        let reply = try running.exchange(running.get("/echo%20it?b=x+y%21&a=1&a=2&flag"))
        #expect(reply.status == 200, "\(reply)")
        #expect(reply.body == #"{"method": "GET", "path": "/echo it", "query": "a=1&b=x y!&flag=", "body": ""}"#)
        #expect(reply.header("Content-Length") == String(reply.body.utf8.count))
        for (name, value) in [("Connection", "close"), ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"),
                              ("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY"),
                              ("Cross-Origin-Resource-Policy", "same-origin"), ("Content-Type", "application/json; charset=utf-8")] {
            #expect(reply.header(name) == value, "\(name)")
        }
        // Only HTML carries the content security policy.
        #expect(reply.header("Content-Security-Policy") == nil)
    }

    @Test func postBodyArrivesWhole() throws {
        let running = try RunningServer()
        defer { running.stop() }
        let body = "{\"seq\": 7}"
        let reply = try running.exchange("POST /api/state HTTP/1.1\r\nHost: \(running.authority)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        #expect(reply.status == 200)
        #expect(reply.body.contains(#""method": "POST""#) && reply.body.contains(#""body": "{\"seq\": 7}""#), "\(reply.body)")
        // Bare LF line ends are read too; HTTP/1.0 is answered.
        let bare = try running.exchange("POST /x HTTP/1.0\nHost: \(running.authority)\nContent-Length: 2\n\nhi")
        #expect(bare.status == 200 && bare.body.contains(#""body": "hi""#), "\(bare)")
    }

    /// A client that asks before sending its body (`Expect: 100-continue`, as curl does over
    /// 1 KiB) is told to go on, and only a body within the bound is asked for.
    @Test func expectContinueIsAnswered() throws {
        let running = try RunningServer()
        defer { running.stop() }
        let client = try RawClient(port: running.server.port)
        client.send("POST /x HTTP/1.1\r\nHost: \(running.authority)\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
        var received: [UInt8] = []
        #expect(client.read(until: "\r\n\r\n", into: &received))
        #expect(String(decoding: received, as: UTF8.self) == "HTTP/1.1 100 Continue\r\n\r\n")
        client.send("hello")
        let reply = RawReply(Array(client.readAll()))
        #expect(reply.status == 200 && reply.body.contains(#""body": "hello""#), "\(reply)")
        let over = try running.exchange("POST /x HTTP/1.1\r\nHost: \(running.authority)\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n")
        #expect(over.status == 413)
    }

    @Test func headIsGetWithoutTheBody() throws {
        let running = try RunningServer()
        defer { running.stop() }
        let get = try running.exchange(running.get("/page"))
        let head = try running.exchange("HEAD /page HTTP/1.1\r\nHost: \(running.authority)\r\n\r\n")
        #expect(get.status == 200 && head.status == 200)
        #expect(get.body == "<p>page</p>" && head.body.isEmpty)
        #expect(head.header("Content-Length") == "11" && get.header("Content-Length") == "11")
        #expect(get.header("Content-Security-Policy")?.hasPrefix("default-src 'self'; img-src 'self' blob: data:;") == true)
        #expect(head.header("Content-Security-Policy") == get.header("Content-Security-Policy"))
    }

    /// A HEAD the server refuses is answered without a body too (found by the fuzzer's --http).
    @Test func aRefusedHeadHasNoBody() throws {
        let running = try RunningServer()
        defer { running.stop() }
        let reply = try running.exchange("HEAD //etc/passwd HTTP/1.1\r\nHost: \(running.authority)\r\n\r\n")
        #expect(reply.status == 400)
        #expect(reply.body.isEmpty, "\(reply.body)")
        #expect(Int(reply.header("Content-Length") ?? "") ?? 0 > 0)
    }

    @Test func aHandlersHeaderCannotSplitTheResponse() throws {
        let running = try RunningServer()
        defer { running.stop() }
        let reply = try running.exchange(running.get("/header"))
        #expect(reply.status == 200)
        #expect(reply.header("X-Evil") == "aSet-Cookie: x=1")
        #expect(reply.header("Set-Cookie") == nil)
    }

    /// Requests the server refuses itself, each with the status it must give; the handler never sees them.
    static let refusals: [(name: String, request: @Sendable (String) -> String, status: Int)] = [
        ("request line over the bound", { "GET /\(String(repeating: "a", count: 1_100)) HTTP/1.1\r\nHost: \($0)\r\n\r\n" }, 414),
        ("head over the bound", { "GET / HTTP/1.1\r\nHost: \($0)\r\nX-Big: \(String(repeating: "b", count: 5_000))\r\n\r\n" }, 431),
        ("too many fields", { "GET / HTTP/1.1\r\nHost: \($0)\r\n" + String(repeating: "X-A: 1\r\n", count: 21) + "\r\n" }, 431),
        ("body over the bound, not sent", { "POST / HTTP/1.1\r\nHost: \($0)\r\nContent-Length: 1001\r\n\r\n" }, 413),
        ("body length of 40 digits", { "POST / HTTP/1.1\r\nHost: \($0)\r\nContent-Length: \(String(repeating: "9", count: 40))\r\n\r\n" }, 413),
        ("POST without length", { "POST / HTTP/1.1\r\nHost: \($0)\r\n\r\n" }, 411),
        ("chunked", { "POST / HTTP/1.1\r\nHost: \($0)\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n" }, 501),
        ("HTTP/2.0", { "GET / HTTP/2.0\r\nHost: \($0)\r\n\r\n" }, 505),
        ("HTTP/1.2", { "GET / HTTP/1.2\r\nHost: \($0)\r\n\r\n" }, 505),
        ("DELETE", { "DELETE / HTTP/1.1\r\nHost: \($0)\r\n\r\n" }, 405),
        ("unknown method", { "BREW /pot HTTP/1.1\r\nHost: \($0)\r\n\r\n" }, 405),
        ("lowercase version", { "GET / http/1.1\r\nHost: \($0)\r\n\r\n" }, 400),
        ("two spaces", { "GET  / HTTP/1.1\r\nHost: \($0)\r\n\r\n" }, 400),
        ("no version", { "GET /\r\nHost: \($0)\r\n\r\n" }, 400),
        ("garbage", { _ in "\u{1}\u{2}\u{3}\r\n\r\n" }, 400),
        ("asterisk target", { "GET * HTTP/1.1\r\nHost: \($0)\r\n\r\n" }, 400),
        ("relative target", { "GET x/y HTTP/1.1\r\nHost: \($0)\r\n\r\n" }, 400),
        ("other host's absolute target", { "GET http://example.com/ HTTP/1.1\r\nHost: \($0)\r\n\r\n" }, 400),
        ("obs-fold", { "GET / HTTP/1.1\r\nHost: \($0)\r\nX-A: 1\r\n  continued\r\n\r\n" }, 400),
        ("space before colon", { "GET / HTTP/1.1\r\nHost: \($0)\r\nX-A : 1\r\n\r\n" }, 400),
        ("no colon", { "GET / HTTP/1.1\r\nHost: \($0)\r\nX-A\r\n\r\n" }, 400),
        ("control in a value", { "GET / HTTP/1.1\r\nHost: \($0)\r\nX-A: a\u{7}b\r\n\r\n" }, 400),
        ("length not digits", { "POST / HTTP/1.1\r\nHost: \($0)\r\nContent-Length: 1e3\r\n\r\n" }, 400),
        ("negative length", { "POST / HTTP/1.1\r\nHost: \($0)\r\nContent-Length: -1\r\n\r\n" }, 400),
        ("lengths disagree", { "POST / HTTP/1.1\r\nHost: \($0)\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nhi" }, 400),
        ("two Hosts", { "GET / HTTP/1.1\r\nHost: \($0)\r\nHost: \($0)\r\n\r\n" }, 400),
        ("dot-dot", { "GET /../x HTTP/1.1\r\nHost: \($0)\r\n\r\n" }, 400),
        ("encoded dot-dot", { "GET /%2e%2e/x HTTP/1.1\r\nHost: \($0)\r\n\r\n" }, 400),
        ("encoded dot-dot inside", { "GET /a/%2E%2E/b HTTP/1.1\r\nHost: \($0)\r\n\r\n" }, 400),
        ("dot-dot slash encoded", { "GET /a/..%2f..%2fetc HTTP/1.1\r\nHost: \($0)\r\n\r\n" }, 400),
        ("dot segment", { "GET /a/./b HTTP/1.1\r\nHost: \($0)\r\n\r\n" }, 400),
        ("trailing dot-dot", { "GET /a/.. HTTP/1.1\r\nHost: \($0)\r\n\r\n" }, 400),
        ("double slash", { "GET //etc/passwd HTTP/1.1\r\nHost: \($0)\r\n\r\n" }, 400),
        ("encoded double slash", { "GET /%2fetc/passwd HTTP/1.1\r\nHost: \($0)\r\n\r\n" }, 400),
        ("NUL", { "GET /a%00b HTTP/1.1\r\nHost: \($0)\r\n\r\n" }, 400),
        ("encoded newline", { "GET /a%0ab HTTP/1.1\r\nHost: \($0)\r\n\r\n" }, 400),
        ("backslash", { "GET /a\\..\\b HTTP/1.1\r\nHost: \($0)\r\n\r\n" }, 400),
        ("encoded backslash", { "GET /%5c..%5cb HTTP/1.1\r\nHost: \($0)\r\n\r\n" }, 400),
        ("bad escape", { "GET /a%zz HTTP/1.1\r\nHost: \($0)\r\n\r\n" }, 400),
        ("cut escape", { "GET /a%2 HTTP/1.1\r\nHost: \($0)\r\n\r\n" }, 400),
        ("not UTF-8", { "GET /a%ff HTTP/1.1\r\nHost: \($0)\r\n\r\n" }, 400),
        ("bad query escape", { "GET /a?x=%g1 HTTP/1.1\r\nHost: \($0)\r\n\r\n" }, 400),
        ("fragment", { "GET /a#b HTTP/1.1\r\nHost: \($0)\r\n\r\n" }, 400),
        ("no Host", { _ in "GET / HTTP/1.1\r\n\r\n" }, 403),
        ("foreign Host", { _ in "GET / HTTP/1.1\r\nHost: evil.example:80\r\n\r\n" }, 403),
        ("rebinding Host", { "GET / HTTP/1.1\r\nHost: attacker.example:\($0.split(separator: ":")[1])\r\n\r\n" }, 403),
        ("Host without port", { _ in "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" }, 403),
        ("foreign Origin", { "POST / HTTP/1.1\r\nHost: \($0)\r\nOrigin: http://evil.example\r\nContent-Length: 0\r\n\r\n" }, 403),
        ("null Origin", { "GET / HTTP/1.1\r\nHost: \($0)\r\nOrigin: null\r\n\r\n" }, 403),
        ("https Origin", { "GET / HTTP/1.1\r\nHost: \($0)\r\nOrigin: https://\($0)\r\n\r\n" }, 403),
        ("cross-site fetch", { "GET / HTTP/1.1\r\nHost: \($0)\r\nSec-Fetch-Site: cross-site\r\n\r\n" }, 403),
        ("foreign Host with a huge body", { _ in "POST / HTTP/1.1\r\nHost: evil.example\r\nContent-Length: 99999999\r\n\r\n" }, 403),
    ]

    @Test(arguments: refusals.indices)
    func theServerRefusesItself(index: Int) throws {
        let (name, request, status) = Self.refusals[index]
        let running = try RunningServer()
        defer { running.stop() }
        let reply = try running.exchange(request(running.authority))
        #expect(reply.status == status, "\(name): \(reply.status) \(reply.body)")
        #expect(reply.body.hasPrefix("{\"error\": \""), "\(name): \(reply.body)")
        #expect(reply.header("Connection") == "close" && reply.header("X-Frame-Options") == "DENY", "\(name)")
        #expect(running.log.requests.isEmpty, "\(name): the handler saw \(running.log.requests.map(\.path))")
        if status == 405 { #expect(reply.header("Allow") == "GET, HEAD, POST") }
    }

    @Test func allowedHostsOriginsAndTargets() throws {
        let running = try RunningServer(allowedHosts: ["Studio.Local:9"])
        defer { running.stop() }
        let port = running.server.port
        for (extra, target) in [("Host: localhost:\(port)\r\n", "/a"), ("Host: LOCALHOST:\(port)\r\n", "/a"), ("Host: studio.local:9\r\n", "/a"),
                                ("Host: \(running.authority)\r\nOrigin: http://localhost:\(port)\r\nSec-Fetch-Site: same-origin\r\n", "/a"),
                                ("Host: \(running.authority)\r\n", "http://\(running.authority)/a"),
                                ("Host: \(running.authority)\r\n", "/a/%252e%252e"), ("Host: \(running.authority)\r\n", "/a/")] {
            let reply = try running.exchange("GET \(target) HTTP/1.1\r\n\(extra)\r\n")
            #expect(reply.status == 200, "\(extra) \(target): \(reply.body)")
        }
        // Bound to every interface: loopback names are answered, others only when listed.
        let log = HandlerLog()
        let any = try HTTPServer(host: "0.0.0.0", port: 0, limits: RunningServer.testLimits, handler: TestHandler(log: log))
        Thread { any.serve { false } }.start()
        defer { any.stop() }
        for (host, status) in [("127.0.0.1:\(any.port)", 200), ("localhost:\(any.port)", 200), ("0.0.0.0:\(any.port)", 200),
                               ("192.168.1.9:\(any.port)", 403), ("evil.example:\(any.port)", 403)] {
            let client = try RawClient(port: any.port)
            client.send("GET /a HTTP/1.1\r\nHost: \(host)\r\n\r\n")
            #expect(RawReply(client.readAll()).status == status, "\(host)")
        }
        // One decoding only: %252e reaches the handler as the literal "%2e", never as a dot.
        #expect(running.log.requests.map(\.path) == ["/a", "/a", "/a", "/a", "/a", "/a/%2e%2e", "/a/"])
    }
}
