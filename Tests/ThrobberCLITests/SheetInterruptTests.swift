import Foundation
import Testing
import ThrobberTestSupport

/// A signal that arrives while a sheet's pages are written is obeyed within a second: the pages
/// and atlases already written are removed, nothing temporary is left, and the exit is 130.
@Suite(.serialized)
struct SheetInterruptTests {
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalWhilePagesAreWrittenStopsWithinASecondLeavingNoPage(signal: Int32) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let job = directory.appendingPathComponent("job.json")
        // 10,000 one-frame pages: 20,000 files, seconds of writing in any build.
        try #"{"renders":[{"scene":"ring","frames":10000,"parameters":{"hudSize":12,"hudCornerRadius":2},"outputs":[{"type":"sheet","path":"q/s{page}.png","maxSize":12}]}]}"#
            .write(to: job, atomically: true, encoding: .utf8)
        let q = directory.appendingPathComponent("q")
        let child = try SpawnedThrobber(["batch", job.path, "--backend", "cpu", "-q"], stderrIn: directory)
        #expect(child.waitUntilSignalsAreCaught(), "batch never caught SIGINT/SIGTERM")
        // The pages are written only once every frame is drawn: wait for the first.
        #expect(child.wait(seconds: 120) { ((try? listing(q).count) ?? 0) >= 2 }, "no page was written: \(child.stderr)")
        let sent = Date()
        child.send(signal)
        let status = child.finish()
        let latency = Date().timeIntervalSince(sent)
        let stderr = child.stderr
        #expect(status == 130, "\(stderr)")
        #expect(latency < 1.5, "exited \(latency) s after the signal")
        #expect(stderr.contains("interrupted by \(signal == SIGTERM ? "SIGTERM" : "SIGINT")"), "\(stderr)")
        let left = try listing(q)
        #expect(left.isEmpty, "left: \(left.prefix(6))")
        #expect(hiddenFiles(under: directory).isEmpty, "temporary files left: \(hiddenFiles(under: directory))")
    }
}
