import Foundation
import Glibc
import Testing
import Throbber
import ThrobberBatch
import ThrobberRender
import ThrobberText
@testable import ThrobberStudio

/// The studio as a page uses it, in-process: states checked as `--set` checks them, frames that
/// are exactly the scene's, files read again on change, exports only under their directory.
@Suite(.serialized)
struct StudioTests {
    @Test func aStateIsDrawnAsRenderDrawsItWithTheCommandThatRendersIt() throws {
        let running = try RunningStudio(["wave-ball", "hud"])
        defer { running.stop() }
        let events = try EventReader(port: running.port, client: "page-one-1")
        #expect(events.wait(for: "hello", seconds: 3) != nil, "\(events.events.map(\.event)) \(events.raw)")
        // Values away from the defaults, a status with a quote, a transparent background.
        let accepted = try running.post("/api/state", """
            {"client": "page-one-1", "seq": 4, "scene": "hud", "t": 0.7, "scale": 2, "background": "none",
             "parameters": {"state": "error", "status": "It's \\"done\\"", "margin": "14"}}
            """)
        #expect(accepted.status == 202, "\(accepted)")
        let frame = try #require(events.wait(for: "frame"))
        #expect(frame["seq"] as? Int == 4 && frame["t"] as? Double == 0.7 && frame["scale"] as? Double == 2)
        #expect(frame["command"] as? String == """
            throbber render hud --set state=error --set 'status=It'\\''s "done"' --set margin=14 --background none --scale 2 --start 0.7 --frames 1 -o frames
            """)
        let pixels = try running.exchange("GET", try #require(frame["url"] as? String))
        #expect(pixels.status == 200 && pixels.headers["content-type"] == "application/octet-stream")
        // The same scene set by the library as `render` sets it, drawn by the CPU renderer.
        var scene = try Scene(SceneReference.model("hud")).setting("scale", to: "2").setting("background", to: "none")
        scene = try scene.setting("state", to: "error").setting("margin", to: "14").setting("status", to: "It's \"done\"")
        let laidOut = try scene.validated().layingOutText()
        let expected = try FrameRenderer(.cpu).render(laidOut.drawList(at: 0.7))
        #expect(pixels.headers["x-width"] == String(expected.width) && pixels.headers["x-height"] == String(expected.height))
        #expect(pixels.body == expected.pixels)
        // The job JSON renders the same frame: read back as `batch` reads it.
        let directory = try temporaryStudioDirectory()
        let jobPath = directory.appendingPathComponent("job.json").path
        try Data(try #require(frame["job"] as? String).utf8).write(to: URL(fileURLWithPath: jobPath))
        let clip = try #require(try Job.load(path: jobPath).clips.first)
        #expect(clip.start == 0.7 && clip.frameCount == 1 && clip.scene.scale == 2)
        #expect(try FrameRenderer(.cpu).render(clip.scene.drawList(at: clip.time(0))).pixels == expected.pixels)
    }

    @Test func theFrameStreamPushesEachFrameWithItsComparison() throws {
        let running = try RunningStudio(["ring"])
        defer { running.stop() }
        let events = try EventReader(port: running.port, client: "page-stream-1")
        _ = events.wait(for: "hello")
        let stream = try connectedSocket(running.port)
        defer { close(stream) }
        let request = "GET /api/frames?client=page-stream-1 HTTP/1.1\r\nHost: 127.0.0.1:\(running.port)\r\n\r\n"
        _ = Array(request.utf8).withUnsafeBytes { send(stream, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        usleep(200_000)
        let compare = running.studio.renderer.compareUnavailable == nil
        #expect(try running.post("/api/state", """
            {"client": "page-stream-1", "seq": 3, "scene": "ring", "t": 0.25, "scale": 2, "compare": \(compare)}
            """).status == 202)
        let frame = try #require(events.wait(for: "frame"))
        let (width, height) = (try #require(frame["width"] as? Int), try #require(frame["height"] as? Int))
        let parts = compare ? 4 : 1
        // The head, then one message: length, JSON, the parts' pixels.
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65_536)
        func have() -> Int? {
            guard let end = (0..<max(0, bytes.count - 3)).first(where: { bytes[$0..<$0 + 4] == [13, 10, 13, 10] }) else { return nil }
            return end + 4
        }
        var body: Int?
        while true {
            body = have()
            if let start = body, bytes.count >= start + 4 {
                let length = bytes[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }
                if bytes.count >= start + 4 + length + parts * width * height * 4 { break }
            }
            let count = chunk.withUnsafeMutableBytes { recv(stream, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        let start = try #require(body)
        let head = String(decoding: bytes[..<start], as: UTF8.self)
        #expect(head.contains("Content-Type: application/octet-stream") && !head.contains("Content-Length"), "\(head)")
        let length = bytes[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(bytes[(start + 4)..<(start + 4 + length)])) as? [String: Any])
        #expect(json["seq"] as? Int == 3 && json["url"] as? String == frame["url"] as? String)
        #expect(json["parts"] as? [String] == (compare ? ["frame", "cpu", "gl", "heat"] : ["frame"]))
        let pixels = Array(bytes[(start + 4 + length)..<(start + 4 + length + width * height * 4)])
        #expect(pixels == (try running.exchange("GET", try #require(frame["url"] as? String))).body)
        if compare {
            let cpu = Array(bytes[(start + 4 + length + width * height * 4)...].prefix(width * height * 4))
            #expect(cpu == pixels, "the studio draws on the CPU here, so its CPU part is its frame")
        }
    }

    @Test func badStatesAreRefusedWithEachParametersOwnMessage() throws {
        let running = try RunningStudio(["wave-ball"])
        defer { running.stop() }
        _ = try EventReader(port: running.port, client: "page-two-2")
        usleep(200_000)
        let refused = try running.post("/api/state", """
            {"client": "page-two-2", "seq": 1, "scene": "wave-ball", "parameters": {"progress": "1.5", "tickCount": "0", "nope": "1"}}
            """)
        #expect(refused.status == 422, "\(refused)")
        let problems = try #require(refused.json["errors"] as? [[String: Any]])
        let byName = Dictionary(problems.map { ($0["parameter"] as? String ?? "", $0["message"] as? String ?? "") }) { a, _ in a }
        #expect(byName["progress"]?.contains("invalid progress '1.5'") == true, "\(problems)")
        #expect(byName["tickCount"]?.contains("'0'") == true, "\(problems)")
        #expect(byName["nope"]?.contains("unknown parameter 'nope'") == true, "\(problems)")
        // Shapes that are not a state.
        let cases: [(String, Int)] = [
            ("{\"client\": \"page-two-2\", \"seq\": true, \"scene\": \"wave-ball\"}", 400),
            ("{\"client\": \"page-two-2\", \"seq\": 1, \"scene\": \"nowhere\"}", 404),
            ("{\"client\": \"unknown-page\", \"seq\": 1, \"scene\": \"wave-ball\"}", 404),
            ("{\"client\": \"page-two-2\", \"seq\": 1, \"scene\": \"wave-ball\", \"t\": \"soon\"}", 400),
            ("{\"client\": \"page-two-2\", \"seq\": 1, \"scene\": \"wave-ball\", \"compare\": 1}", 400),
            ("{\"client\": \"page-two-2\", \"seq\": 1, \"scene\": \"wave-ball\", \"parameters\": {\"progress\": 0.5}}", 400),
            ("{\"client\": \"page-two-2\", \"seq\": 1, \"scene\": \"wave-ball\", \"scale\": 99}", 422),
            ("{\"client\": \"page-two-2\", \"seq\": 1, \"scene\": \"wave-ball\", \"t\": 1e300}", 422),
            ("[1, 2]", 400),
            ("{\"client\": ", 400),
        ]
        for (body, status) in cases {
            let reply = try running.post("/api/state", body)
            #expect(reply.status == status, "\(body) → \(reply)")
        }
        // A frame larger than the studio draws is refused before its text is laid out.
        let huge = try running.post("/api/state", """
            {"client": "page-two-2", "seq": 9, "scene": "wave-ball", "scale": 8, "parameters": {"size": "1000"}}
            """)
        #expect(huge.status == 422 && huge.text.contains("4096 px a side and 4194304 pixels"), "\(huge)")
    }

    @Test func aSavedFileIsReadAgainAndABrokenOneSaysWhere() throws {
        let directory = try temporaryStudioDirectory()
        let path = directory.appendingPathComponent("dot.scene.json").path
        let scene = { (radius: String) in """
            {"format": "throbber-scene/1", "id": "dot",
             "parameters": [{"name": "r", "type": "number", "default": \(radius), "range": {"min": 1, "max": 20}, "summary": "radius"}],
             "canvas": {"width": 40, "height": 40, "background": "none"},
             "content": [{"type": "disc", "id": "d", "center": [20, 20], "radius": "r", "color": "#ff0000"}]}
            """ }
        try scene("5").write(toFile: path, atomically: true, encoding: .utf8)
        let running = try RunningStudio([path])
        defer { running.stop() }
        let events = try EventReader(port: running.port, client: "page-three-3")
        _ = events.wait(for: "hello")
        #expect(try running.post("/api/state", "{\"client\": \"page-three-3\", \"seq\": 1, \"scene\": \"dot\"}").status == 202)
        let first = try #require(events.wait(for: "frame"))
        let before = try running.exchange("GET", try #require(first["url"] as? String)).body
        // A saved change: the scene is read again, the page told, its state drawn again.
        try scene("9").write(toFile: path, atomically: true, encoding: .utf8)
        let changed = try #require(events.wait(for: "scene") { $0["revision"] as? Int == 1 })
        let parameters = try #require(changed["parameters"] as? [[String: Any]])
        #expect(parameters.first?["default"] as? Int == 9 && changed["error"] is NSNull)
        let redrawn = try #require(events.wait(for: "frame") { $0["revision"] as? Int == 1 })
        let after = try running.exchange("GET", try #require(redrawn["url"] as? String)).body
        #expect(before != after && !after.isEmpty)
        // A broken save: the reader's FILE:LINE:COLUMN, until it reads again.
        try "{\"format\": \"throbber-scene/1\",\n  \"id\": }".write(toFile: path, atomically: true, encoding: .utf8)
        let broken = try #require(events.wait(for: "scene") { $0["revision"] as? Int == 2 })
        let message = try #require(broken["error"] as? String)
        #expect(message.hasPrefix("\(path):2:"), "\(message)")
        let refused = try running.post("/api/state", "{\"client\": \"page-three-3\", \"seq\": 2, \"scene\": \"dot\"}")
        #expect(refused.status == 422 && refused.text.contains(path), "\(refused)")
        try scene("3").write(toFile: path, atomically: true, encoding: .utf8)
        let fixed = try #require(events.wait(for: "scene") { $0["revision"] as? Int == 3 })
        #expect(fixed["error"] is NSNull)
    }

    @Test func aSavedLottieFileIsReadAgainToo() throws {
        let directory = try temporaryStudioDirectory()
        let path = directory.appendingPathComponent("square.json").path
        let lottie = { (side: Int) in """
            {"v": "5.7.0", "fr": 30, "ip": 0, "op": 30, "w": 100, "h": 100, "layers": [{"ty": 4, "ind": 1, "ip": 0, "op": 30, "st": 0,
             "ks": {"a": {"a": 0, "k": [0, 0]}, "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": 100}},
             "shapes": [{"ty": "rc", "d": 1, "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [\(side), \(side)]}, "r": {"a": 0, "k": 0}},
                        {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}]}]}
            """ }
        try lottie(20).write(toFile: path, atomically: true, encoding: .utf8)
        let running = try RunningStudio([path])
        defer { running.stop() }
        #expect(running.studio.sceneEntries.first?.info.kind == "lottie")
        let events = try EventReader(port: running.port, client: "page-lottie-1")
        _ = events.wait(for: "hello")
        #expect(try running.post("/api/state", "{\"client\": \"page-lottie-1\", \"seq\": 1, \"scene\": \"square\"}").status == 202)
        let first = try #require(events.wait(for: "frame"))
        let before = try running.exchange("GET", try #require(first["url"] as? String)).body
        try lottie(60).write(toFile: path, atomically: true, encoding: .utf8)
        let redrawn = try #require(events.wait(for: "frame") { $0["revision"] as? Int == 1 })
        let after = try running.exchange("GET", try #require(redrawn["url"] as? String)).body
        // The square grew: more of the canvas is opaque red.
        let opaque = { (pixels: [UInt8]) in stride(from: 3, to: pixels.count, by: 4).filter { pixels[$0] == 255 }.count }
        #expect(opaque(after) > 4 * opaque(before) && opaque(before) > 0, "\(opaque(before)) → \(opaque(after))")
        try "{\"v\": \"5.7.0\",\n \"fr\": }".write(toFile: path, atomically: true, encoding: .utf8)
        let broken = try #require(events.wait(for: "scene") { $0["revision"] as? Int == 2 })
        #expect((broken["error"] as? String)?.hasPrefix("\(path):2:") == true, "\(broken)")
    }

    @Test func exportsGoIntoNewDirectoriesUnderTheOneNamedAndNowhereElse() throws {
        let root = try temporaryStudioDirectory()
        let exports = root.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: exports.appendingPathComponent("activity-1"), withIntermediateDirectories: true)
        try "mine".write(to: exports.appendingPathComponent("activity-1/keep.txt"), atomically: true, encoding: .utf8)
        let running = try RunningStudio(["activity"], exportDirectory: exports.path)
        defer { running.stop() }
        let events = try EventReader(port: running.port, client: "page-four-4")
        _ = events.wait(for: "hello")
        let state = "{\"scene\": \"activity\", \"scale\": 1, \"t\": 0, \"parameters\": {\"size\": \"40\"}}"
        for kind in ["../../escape", "png/../x", "exe"] {
            let refused = try running.post("/api/export", "{\"client\": \"page-four-4\", \"kind\": \"\(kind)\", \"state\": \(state)}")
            #expect(refused.status == 422, "\(refused)")
        }
        let started = try running.post("/api/export", "{\"client\": \"page-four-4\", \"kind\": \"png\", \"state\": \(state)}")
        #expect(started.status == 202, "\(started)")
        // The existing activity-1 is never used: the export makes a directory of its own.
        #expect(started.json["directory"] as? String == "activity-2", "\(started)")
        let busy = try running.post("/api/export", "{\"client\": \"page-four-4\", \"kind\": \"gif\", \"state\": \(state)}")
        let done = try #require(events.wait(for: "export", seconds: 60) { ($0["state"] as? String) != "running" })
        #expect(done["state"] as? String == "done", "\(done)")
        #expect(busy.status == 409 || busy.status == 202, "\(busy)")
        #expect(done["done"] as? Int == done["total"] as? Int && (done["total"] as? Int ?? 0) > 0)
        let files = try FileManager.default.subpathsOfDirectory(atPath: exports.appendingPathComponent("activity-2").path)
        #expect(files.contains("job.json") && files.contains("job.manifest.json") && files.contains("frames/activity_00000.png"))
        #expect(try String(contentsOf: exports.appendingPathComponent("activity-1/keep.txt"), encoding: .utf8) == "mine")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["exports"])
        // Without --export-dir, exports are off.
        let off = try RunningStudio(["activity"])
        defer { off.stop() }
        _ = try EventReader(port: off.port, client: "page-four-5")
        usleep(200_000)
        let refused = try off.post("/api/export", "{\"client\": \"page-four-5\", \"kind\": \"png\", \"state\": \(state)}")
        #expect(refused.status == 403 && refused.text.contains("--export-dir"), "\(refused)")
    }

    @Test func onlyThePageAndKeptFramesAreServed() throws {
        let running = try RunningStudio(["ring"])
        defer { running.stop() }
        for path in ["/", "/studio.js", "/studio.css", "/api/studio"] {
            #expect(try running.exchange("GET", path).status == 200, "\(path)")
        }
        let page = try running.exchange("GET", "/")
        #expect(page.headers["content-security-policy"]?.contains("script-src 'self'") == true)
        for path in ["/etc/passwd", "/Package.swift", "/frames/abcdefgh/1.rgba", "/frames/x/../../etc/passwd", "/frames/abcdefgh/1.png",
                     "/studio.js/x", "/api", "/frames/"] {
            let status = try running.exchange("GET", path).status
            #expect(status == 404 || status == 400, "\(path) → \(status)")
        }
        #expect(try running.exchange("POST", "/", json: "{}").status == 405)
        #expect(try running.exchange("GET", "/api/state").status == 405)
        #expect(try running.exchange("GET", "/api/events?client=a/b").status == 400)
        // A foreign Host (DNS rebinding) is refused before the studio sees it.
        #expect(try running.exchange("GET", "/api/studio", headers: ["Origin: http://evil.example"]).status == 403)
    }
}

/// A fresh directory for one test.
func temporaryStudioDirectory(_ name: String = #function) throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("throbber-studio-\(name.filter(\.isLetter))-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
