import Foundation
import Testing
import ThrobberTestSupport

/// Stops within a second: on the first SIGINT or SIGTERM a video's ffmpeg is killed and the frames
/// bound for it are dropped (no partial video, exit 130, one line); a heavy frame is given up
/// between bands (CPU) or draws (GL). And a GIF made in two passes has the bytes of one filter graph.
@Suite(.serialized)
struct VideoStopTests {
    static let signals: [Int32] = [SIGINT, SIGTERM]
    /// The bound the tests hold a stop to: the target is 1 s, with slack for a loaded machine.
    static let stopBound = 1.5

    /// Waits until `child` has a child process named ffmpeg (the encoder runs).
    func waitForFFmpeg(_ child: SpawnedThrobber, seconds: Double = 60) -> Bool {
        child.wait(seconds: seconds) {
            guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(child.pid)/task") else { return false }
            for task in tasks {
                let children = (try? String(contentsOfFile: "/proc/\(child.pid)/task/\(task)/children", encoding: .utf8)) ?? ""
                for pid in children.split(separator: " ") {
                    if let name = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8), name.hasPrefix("ffmpeg") { return true }
                }
            }
            return false
        }
    }

    /// Sends `signal` (to the process, or to its whole process group as a terminal's Ctrl-C
    /// does) and returns the exit status and the seconds until it ended.
    func stop(_ child: SpawnedThrobber, _ signal: Int32, group: Bool = false) -> (Int32, Double) {
        let start = Date()
        if group { kill(-getpgid(child.pid), signal) } else { child.send(signal) }
        let status = child.finish(seconds: 60)
        return (status, Date().timeIntervalSince(start))
    }

    @Test(.enabled(if: VideoTests.hasFFmpeg), arguments: ["webm", "mp4", "gif", "webp"], signals)
    func aVideoStopsWithinASecondLeavingNothing(format: String, signal: Int32) throws {
        let directory = try temporaryDirectory("videoStop-\(format)-\(signal)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let job = directory.appendingPathComponent("job.json")
        // PNG frames beside the video: they finish whole, the video is dropped.
        try """
            {"renders": [{"scene": "wave-ball", "scale": 2, "frames": 3000, "outputs": [
              {"type": "video", "path": "v/ball.\(format)"}, {"type": "png", "pattern": "f/%05d.png"}]}]}
            """.write(to: job, atomically: true, encoding: .utf8)
        let child = try SpawnedThrobber(["batch", job.path, "--backend", "cpu"], stderrIn: directory)
        #expect(child.waitUntilSignalsAreCaught())
        #expect(waitForFFmpeg(child), "ffmpeg never started: \(child.stderr)")
        _ = child.wait(seconds: 30) { ((try? listing(directory.appendingPathComponent("f")).count) ?? 0) >= 20 }
        let (status, seconds) = stop(child, signal)
        let stderr = child.stderr
        #expect(status == 130, "\(stderr)")
        #expect(seconds < Self.stopBound, "stopped after \(seconds) s")
        #expect(stderr.split(separator: "\n").count == 1 && stderr.contains("interrupted by \(signal == SIGTERM ? "SIGTERM" : "SIGINT")"),
                "\(stderr)")
        #expect((try? listing(directory.appendingPathComponent("v"))) ?? [] == [], "a video was left")
        #expect(hiddenFiles(under: directory).isEmpty, "temporary files left: \(hiddenFiles(under: directory))")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("job.manifest.json.lock").path))
    }

    @Test(.enabled(if: VideoTests.hasFFmpeg), arguments: ["webm", "gif"])
    func ctrlCToTheWholeGroupIsAStopNotAFailure(format: String) throws {
        // A terminal's Ctrl-C reaches ffmpeg too, which then stops reading: that is the stop, not an I/O error.
        let directory = try temporaryDirectory("videoGroupStop-\(format)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let job = directory.appendingPathComponent("job.json")
        try """
            {"renders": [{"scene": "wave-ball", "scale": 2, "frames": 3000, "outputs": [{"type": "video", "path": "ball.\(format)"}]}]}
            """.write(to: job, atomically: true, encoding: .utf8)
        // In a process group of its own, so that the signal to the group reaches it and ffmpeg only.
        let child = try SpawnedThrobber(["batch", job.path, "--backend", "cpu"], stderrIn: directory, newProcessGroup: true)
        #expect(child.waitUntilSignalsAreCaught())
        #expect(waitForFFmpeg(child), "ffmpeg never started: \(child.stderr)")
        usleep(300_000)
        let (status, seconds) = stop(child, SIGINT, group: true)
        #expect(status == 130, "\(child.stderr)")
        #expect(seconds < Self.stopBound, "stopped after \(seconds) s")
        #expect(child.stderr.split(separator: "\n").count == 1, "\(child.stderr)")
        let left = try listing(directory).filter { !$0.hasPrefix("stderr-") }
        #expect(left == ["job.json"], "left: \(left)")
        #expect(hiddenFiles(under: directory).isEmpty, "temporary files left: \(hiddenFiles(under: directory))")
    }

    /// A scene file of `count` rotating translucent boxes over a 300 pt canvas: seconds a frame.
    static func heavyScene(count: Int) -> String {
        """
        {"format": "throbber-scene/1", "id": "heavy-boxes", "summary": "\(count) rotating translucent boxes",
         "canvas": {"width": 300, "height": 300, "background": "none"},
         "clocks": [{"name": "spin", "duration": 2, "repeat": "forever"}],
         "content": [{"type": "replicator", "id": "boxes", "count": \(count), "content": [
           {"type": "box", "id": "box", "center": [150, 150], "size": [200, 200], "rotation": "spin.u * 360 + i * 0.036",
            "color": [0.2, 0.4, 0.8, 0.05]}]}]}
        """
    }

    @Test(arguments: ["cpu", "gl"], signals)
    func aHeavyFrameIsGivenUpWithinASecond(backend: String, signal: Int32) throws {
        let directory = try temporaryDirectory("heavyStop-\(backend)-\(signal)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let scene = directory.appendingPathComponent("heavy.scene.json")
        try Self.heavyScene(count: 10_000).write(to: scene, atomically: true, encoding: .utf8)
        let frames = directory.appendingPathComponent("frames")
        let child = try SpawnedThrobber(["render", scene.path, "--frames", "20", "--backend", backend, "-o", frames.path], stderrIn: directory)
        #expect(child.waitUntilSignalsAreCaught())
        // Well inside the first frames (seconds each, even in a release build).
        usleep(1_500_000)
        let (status, seconds) = stop(child, signal)
        let stderr = child.stderr
        #expect(status == 130, "\(stderr)")
        #expect(seconds < Self.stopBound, "\(backend): stopped after \(seconds) s")
        // One line for the stop; a preflight past a second (a debug build) says where it is first.
        #expect(stderr.split(separator: "\n").filter { !$0.hasPrefix("throbber: checking the frames of ") }.count == 1, "\(stderr)")
        #expect(hiddenFiles(under: directory).isEmpty, "temporary files left: \(hiddenFiles(under: directory))")
    }

    @Test(.enabled(if: VideoTests.hasFFmpeg), arguments: [("wave-ball", 128, nil), ("ring", 40, "#336699"), ("activity", 200, nil)] as [(String, Int, String?)])
    func aGIFInTwoPassesHasTheBytesOfOneFilterGraph(scene: String, threshold: Int, matte: String?) throws {
        // The same frames through the single graph the GIF was made with before (split →
        // palettegen → paletteuse): the palette and the mapping are ffmpeg's either way.
        let directory = try temporaryDirectory("gifTwoPasses-\(scene)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let job = directory.appendingPathComponent("job.json")
        let setting = matte.map { "\"matte\": \"\($0)\"" } ?? "\"alphaThreshold\": \(threshold)"
        try """
            {"renders": [{"scene": "\(scene)", "frames": 45, "fps": 30, "outputs": [
              {"type": "video", "path": "out.gif", "loopCount": 3, \(setting)}, {"type": "rgba", "path": "out.rgba"}]}]}
            """.write(to: job, atomically: true, encoding: .utf8)
        let result = try runThrobber(["batch", job.path, "-q", "--backend", "cpu"])
        #expect(result.status == 0, "\(result.stderr)")
        let raw = try Data(contentsOf: directory.appendingPathComponent("out.rgba"))
        let side = Int((Double(raw.count / 45 / 4)).squareRoot().rounded())
        #expect(side * side * 4 * 45 == raw.count, "square frames")
        var pixels = [UInt8](raw)
        if let matte {
            // The matte as the sink composites it (transparent pixels kept).
            let hex = Int(matte.dropFirst(), radix: 16)!
            let background = [hex >> 16 & 0xff, hex >> 8 & 0xff, hex & 0xff]
            for i in stride(from: 0, to: pixels.count, by: 4) {
                let a = Int(pixels[i + 3])
                if a == 255 || a == 0 { continue }
                for c in 0..<3 { pixels[i + c] = UInt8((Int(pixels[i + c]) * a + background[c] * (255 - a) + 127) / 255) }
                pixels[i + 3] = 255
            }
        }
        let input = directory.appendingPathComponent("in.rgba")
        try Data(pixels).write(to: input)
        let step = String(format: "%.17g", 100.0 / 30)
        let last = Int((45 * 100.0 / 30).rounded()) - Int((44 * 100.0 / 30).rounded())
        let reference = directory.appendingPathComponent("one-graph.gif")
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        ffmpeg.arguments = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "rawvideo", "-pix_fmt", "rgba",
                            "-s", "\(side)x\(side)", "-framerate", "30", "-i", input.path, "-filter_complex",
                            "[0:v]settb=1/100,setpts=round(N*\(step)),split[a][b];[a]palettegen=reserve_transparent=1:stats_mode=full[p];"
                            + "[b][p]paletteuse=alpha_threshold=\(matte == nil ? threshold : 128)",
                            "-enc_time_base", "1/100", "-final_delay", "\(last)", "-loop", "2", "-f", "gif", reference.path]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        #expect(ffmpeg.terminationStatus == 0)
        #expect(try Data(contentsOf: directory.appendingPathComponent("out.gif")) == Data(contentsOf: reference))
        #expect(hiddenFiles(under: directory).isEmpty, "the spool was left: \(hiddenFiles(under: directory))")
    }

    @Test(.enabled(if: VideoTests.hasFFmpeg), arguments: [("activity", 1.0, 12), ("activity", 0.001, 16), ("ring", 0.5, 3)] as [(String, Double, Int)])
    func aWebPOfEqualFramesIsAnAnimation(scene: String, fps: Double, frames: Int) throws {
        // libwebp writes a still when every frame is the same and their length fits 24 bits of ms.
        let directory = try temporaryDirectory("webpStill-\(scene)-\(frames)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let job = directory.appendingPathComponent("job.json")
        try """
            {"renders": [{"scene": "\(scene)", "frames": \(frames), "fps": \(fps), "outputs": [{"type": "video", "path": "out.webp"}]}]}
            """.write(to: job, atomically: true, encoding: .utf8)
        let result = try runThrobber(["batch", job.path, "-q", "--backend", "cpu"])
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent("out.webp")))
        let chunks = TestScenes.riffChunks(bytes)
        #expect(chunks.contains { $0.name == "ANIM" } && chunks.contains { $0.name == "ANMF" }, "\(chunks.map(\.name))")
        // The frames' durations add up to the clip's length in milliseconds.
        let total = chunks.filter { $0.name == "ANMF" }.reduce(0) { sum, chunk in
            sum + (0..<3).reversed().reduce(0) { $0 << 8 | Int(bytes[chunk.offset + 12 + $1]) }
        }
        #expect(total == Int((Double(frames) * 1000 / fps).rounded()), "\(total) ms")
        #expect(try listing(directory).contains("out.webp"))
    }
}
