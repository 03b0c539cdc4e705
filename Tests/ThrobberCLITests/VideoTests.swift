import Foundation
import Testing
import ThrobberTestSupport

/// Videos through ffmpeg, and the error when it is missing.
@Suite(.serialized)
struct VideoTests {
    static var hasFFmpeg: Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/ffmpeg") }
    }

    @Test(.enabled(if: VideoTests.hasFFmpeg, "ffmpeg is not installed (scripts/setup --with-ffmpeg installs it)"))
    func gifAPNGAndMP4HaveEveryFrame() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("job.json")
        try """
            {"renders": [{"scene": "ring", "loop": true, "fps": 20, "outputs": [
              {"type": "video", "path": "v/ring.gif"}, {"type": "video", "path": "v/ring.apng"},
              {"type": "video", "path": "v/ring.mp4"}, {"type": "video", "path": "v/ring.webp"}]}]}
            """.write(to: path, atomically: true, encoding: .utf8)
        let result = try runThrobber(["batch", path.path, "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try listing(directory.appendingPathComponent("v")) == ["ring.apng", "ring.gif", "ring.mp4", "ring.webp"])
        for name in ["ring.gif", "ring.apng", "ring.mp4"] {
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            probe.arguments = ["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                               "stream=nb_read_frames,width", "-of", "csv=p=0", directory.appendingPathComponent("v/\(name)").path]
            let out = Pipe()
            probe.standardOutput = out
            try probe.run()
            probe.waitUntilExit()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(text == "84,20", "\(name): \(text)")
        }
        let webp = try Data(contentsOf: directory.appendingPathComponent("v/ring.webp"))
        #expect(webp.prefix(4) == Data("RIFF".utf8))
        #expect(String(decoding: webp, as: UTF8.self).components(separatedBy: "ANMF").count - 1 == 20, "20 animation frames")
        #expect(try runThrobber(["verify", directory.appendingPathComponent("job.manifest.json").path]).status == 0)
    }

    @Test func missingFFmpegIsAClearErrorBeforeRendering() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("job.json")
        try "{\"renders\": [{\"scene\": \"ring\", \"outputs\": [{\"type\": \"video\", \"path\": \"ring.gif\"}]}]}"
            .write(to: path, atomically: true, encoding: .utf8)
        let result = try runThrobber(["batch", path.path], environment: ["PATH": "/nonexistent"])
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("ffmpeg is not on PATH"))
        #expect(try listing(directory) == ["job.json"])
    }
}
