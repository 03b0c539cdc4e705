import Foundation
import Testing
import ThrobberPNG
import ThrobberTestSupport

/// SIGINT and SIGTERM stop every command that writes with exit 130 and one line, and leave
/// nothing partial: no temporary file, no half-written output, no lock. Each child starts with
/// the signals at their default actions, so a command that does not handle them is killed by the
/// signal and the test fails.
@Suite(.serialized)
struct InterruptTests {
    static let signals: [Int32] = [SIGINT, SIGTERM]

    static func name(_ signal: Int32) -> String { signal == SIGTERM ? "SIGTERM" : "SIGINT" }

    @Test(arguments: signals)
    func renderFinishesTheFramesInFlightAndExits130(signal: Int32) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let frames = directory.appendingPathComponent("frames")
        let child = try SpawnedThrobber(["render", "wave-ball", "--frames", "5000", "--scale", "2", "--backend", "cpu",
                                         "--png-level", "9", "-o", frames.path], stderrIn: directory)
        #expect(child.waitUntilSignalsAreCaught(), "render never caught SIGINT/SIGTERM")
        _ = child.wait(seconds: 60) { ((try? listing(frames).count) ?? 0) >= 3 }
        child.send(signal)
        let status = child.finish()
        let stderr = child.stderr
        #expect(status == 130, "\(stderr)")
        let lines = stderr.split(separator: "\n")
        #expect(lines.count == 1 && stderr.contains("interrupted by \(InterruptTests.name(signal))"), "\(stderr)")
        let written = try listing(frames)
        #expect(written.count < 5000)
        #expect(hiddenFiles(under: directory).isEmpty, "temporary files left: \(hiddenFiles(under: directory))")
        for name in written {
            #expect((try? PNGCodec.decode(Data(contentsOf: frames.appendingPathComponent(name)))) != nil, "\(name) is not whole")
        }
    }

    @Test(arguments: signals)
    func previewIsAbandonedWithNothingWritten(signal: Int32) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sheet = directory.appendingPathComponent("out/sheet.png")
        // 400 frames at @2x, then a 20×20 sheet (about 12,000 px a side, inside the sheet limit)
        // at zlib level 9: seconds of work in any build.
        let child = try SpawnedThrobber(["preview", "wave-ball", "--frames", "400", "--scale", "2", "--backend", "cpu",
                                         "-o", sheet.path], stderrIn: directory)
        #expect(child.waitUntilSignalsAreCaught(), "preview never caught SIGINT/SIGTERM")
        usleep(300_000)
        child.send(signal)
        let status = child.finish()
        let stderr = child.stderr
        #expect(status == 130, "\(stderr)")
        #expect(stderr == "throbber: interrupted by \(InterruptTests.name(signal)) during preview; nothing partial was left\n", "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: sheet.path))
        #expect(hiddenFiles(under: directory).isEmpty, "temporary files left: \(hiddenFiles(under: directory))")
    }

    @Test(arguments: signals)
    func batchInterruptedWhilePlanningWritesNothingAndDropsItsLock(signal: Int32) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let job = directory.appendingPathComponent("job.json")
        try #"{"renders":[{"scene":"ring","frames":50,"outputs":[{"type":"png","pattern":"f/%03d.png"},{"type":"sheet","path":"s.png"}]}]}"#
            .write(to: job, atomically: true, encoding: .utf8)
        let lock = directory.appendingPathComponent("job.manifest.json.lock").path
        let child = try SpawnedThrobber(["batch", job.path, "--backend", "cpu"],
                                        environment: ["THROBBER_TEST_PLANNING_PAUSE": "60"], stderrIn: directory)
        #expect(child.wait(seconds: 60) { child.stderr.contains("planning paused") }, "\(child.stderr)")
        #expect(FileManager.default.fileExists(atPath: lock), "the lock is taken while planning")
        child.send(signal)
        let status = child.finish()
        let stderr = child.stderr
        #expect(status == 130, "\(stderr)")
        #expect(stderr.hasSuffix("throbber: interrupted by \(InterruptTests.name(signal)) during batch planning; nothing partial was left\n"),
                "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: lock), "the lock file was left")
        #expect(try listing(directory).filter { !$0.hasPrefix("stderr-") } == ["f", "job.json"], "\((try? listing(directory)) ?? [])")
        #expect(try listing(directory.appendingPathComponent("f")).isEmpty)
        #expect(hiddenFiles(under: directory).isEmpty, "temporary files left: \(hiddenFiles(under: directory))")
        // The lock left nothing behind that stops the next run.
        #expect(try runThrobber(["batch", job.path, "--backend", "cpu", "-q"]).status == 0)
    }

    @Test func parityReportIsAbandonedWithNothingWritten() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("parity.json")
        let child = try SpawnedThrobber(["parity", "--random", "500", "--seed", "3", "--backend", "cpu", "--json", report.path],
                                        stderrIn: directory)
        #expect(child.waitUntilSignalsAreCaught(), "parity never caught SIGINT/SIGTERM")
        usleep(300_000)
        child.send(SIGINT)
        let status = child.finish()
        #expect(status == 130, "\(child.stderr)")
        #expect(child.stderr.contains("interrupted by SIGINT during parity"), "\(child.stderr)")
        #expect(!FileManager.default.fileExists(atPath: report.path))
        #expect(hiddenFiles(under: directory).isEmpty)
    }
}
