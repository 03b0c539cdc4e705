import Foundation
import Glibc
import Testing
import Throbber
import ThrobberPNG
import ThrobberTestSupport

/// `throbber studio` as a user starts it: its URL on standard output, a frame it serves equal to
/// `render`'s, one line for a bad start, and a stop within a second on SIGINT or SIGTERM.
@Suite(.serialized)
struct StudioCLITests {
    /// Starts `studio ARGUMENTS…` and waits for the URL it prints.
    static func start(_ arguments: [String], in directory: URL) throws -> (SpawnedThrobber, UInt16) {
        let studio = try SpawnedThrobber(["studio"] + arguments, stderrIn: directory, keepStdout: true)
        var port: UInt16?
        _ = studio.wait(seconds: 60) {
            port = studio.stdout.split(separator: "\n").first { $0.hasPrefix("studio: http://127.0.0.1:") }
                .flatMap { UInt16($0.split(separator: ":").last!.dropLast()) }
            return port != nil
        }
        guard let port else { throw CLITestError("studio printed no URL: \(studio.stdout) \(studio.stderr)") }
        #expect(studio.waitUntilSignalsAreCaught())
        return (studio, port)
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func servesThePageAndStopsWithinASecond(signal: Int32) throws {
        let directory = try temporaryDirectory()
        let (studio, port) = try Self.start(["wave-ball", "ring"], in: directory)
        let page = try Self.request(port, "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        #expect(page.status == 200 && page.text.contains("studio.js"))
        // A held event stream does not keep it from stopping.
        let stream = try Self.connect(port)
        defer { close(stream) }
        Self.write(stream, "GET /api/events?client=cli-test-1 HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        usleep(200_000)
        let sent = Date()
        studio.send(signal)
        let status = studio.finish(seconds: 10)
        let took = Date().timeIntervalSince(sent)
        #expect(status == 0, "\(studio.stderr)")
        #expect(took < 1, "stopped after \(took) s")
        #expect(studio.stderr.contains("studio: stopped (\(signal == SIGINT ? "SIGINT" : "SIGTERM"))"), "\(studio.stderr)")
    }

    @Test func aFrameItServesIsTheFrameRenderWrites() throws {
        let directory = try temporaryDirectory()
        let scene = directory.appendingPathComponent("spinner.scene.json")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: "examples/scenes/material-spinner.scene.json"), to: scene)
        let (studio, port) = try Self.start([scene.path, "-q"], in: directory)
        defer { studio.send(SIGTERM); _ = studio.finish() }
        let stream = try Self.connect(port)
        defer { close(stream) }
        Self.write(stream, "GET /api/events?client=cli-test-2 HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        usleep(300_000)
        let state = "{\"client\": \"cli-test-2\", \"seq\": 1, \"scene\": \"spinner\", \"t\": 0.35, \"scale\": 3}"
        let accepted = try Self.request(port, "POST /api/state HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: \(state.utf8.count)\r\n\r\n\(state)")
        #expect(accepted.status == 202, "\(accepted.text)")
        // The frame event: its URL and its command.
        var events: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65_536)
        let deadline = Date(timeIntervalSinceNow: 30)
        while !String(decoding: events, as: UTF8.self).contains("event: frame\ndata: "), Date() < deadline {
            let count = chunk.withUnsafeMutableBytes { recv(stream, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            events += chunk[..<count]
        }
        let text = String(decoding: events, as: UTF8.self)
        let line = try #require(text.components(separatedBy: "event: frame\ndata: ").last?.components(separatedBy: "\n").first)
        let frame = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let command = try #require(frame["command"] as? String)
        #expect(command == "throbber render \(scene.path) --scale 3 --start 0.35 --frames 1 -o frames")
        let pixels = try Self.request(port, "GET \(try #require(frame["url"] as? String)) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        // The command, run.
        var words = command.split(separator: " ").map(String.init).dropFirst()
        words[words.index(before: words.endIndex)] = directory.appendingPathComponent("out").path
        let render = try runThrobber(Array(words) + ["-q"])
        #expect(render.status == 0, "\(render.stderr)")
        let out = directory.appendingPathComponent("out")
        let png = try #require(try FileManager.default.contentsOfDirectory(atPath: out.path).first { $0.hasSuffix("_00000.png") })
        let written = try PNGCodec.decode(Data(contentsOf: out.appendingPathComponent(png)))
        #expect(pixels.body == written.pixels && pixels.body.count == written.width * written.height * 4)
    }

    @Test func aBadStartIsOneLineAndExit64() throws {
        let directory = try temporaryDirectory()
        let file = directory.appendingPathComponent("file.txt")
        try "x".write(to: file, atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (["nowhere"], "unknown scene 'nowhere'"),
            (["--export-dir", file.path], "invalid --export-dir"),
            (["--host", "localhost"], "--host"),
            (["--port", "70000"], "--port"),
            (["--page-dir", directory.path], "--page-dir"),
        ]
        for (arguments, message) in cases {
            let result = try runThrobber(["studio"] + arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message) && result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["file.txt"])
    }

    static func connect(_ port: UInt16) throws -> Int32 { try loopbackSocket(port: port, timeout: 30) }

    static func write(_ descriptor: Int32, _ text: String) { loopbackSend(descriptor, text) }

    /// One request on a connection of its own: the status and the body's bytes.
    static func request(_ port: UInt16, _ text: String) throws -> (status: Int, body: [UInt8], text: String) {
        let descriptor = try connect(port)
        defer { close(descriptor) }
        write(descriptor, text)
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { bytes[$0..<$0 + 4] == [13, 10, 13, 10] }) else {
            throw CLITestError("no reply from the studio")
        }
        let status = Int(String(decoding: bytes[9..<12], as: UTF8.self)) ?? 0
        let body = Array(bytes[(end + 4)...])
        return (status, body, String(decoding: body, as: UTF8.self))
    }
}
