import Foundation
import Testing

/// Outputs that are not files of ours: a character device or a FIFO given as an output path is
/// written into and stays what it was; it is never unlinked or replaced (once `/dev/null` was
/// replaced by a 28 KB file).
@Suite(.serialized)
struct SpecialOutputTests {
    /// The type bits of what is at `path`.
    func fileType(_ path: String) -> mode_t {
        var status = stat()
        guard lstat(path, &status) == 0 else { return 0 }
        return status.st_mode & S_IFMT
    }

    @Test func devNullStaysADevice() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var runs: [[String]] = []
        for type in ["rgba", "y4m", "sheet"] {
            let job = directory.appendingPathComponent("\(type).json")
            try #"{"renders":[{"scene":"ring","frames":2,"outputs":[{"type":"\#(type)","path":"/dev/null"\#(type == "sheet" ? #","json":"\#(directory.path)/s.json""# : "")}]}]}"#
                .write(to: job, atomically: true, encoding: .utf8)
            runs.append(["batch", job.path, "--overwrite", "--backend", "cpu"])
        }
        runs += [
            ["preview", "ring", "--frames", "2", "-o", "/dev/null", "--overwrite", "--backend", "cpu"],
            ["parity", "--scenes", "ring", "--scales", "1", "--times", "1", "--backend", "cpu", "--json", "/dev/null"],
        ]
        for arguments in runs {
            let result = try runThrobber(arguments)
            #expect(result.status == 0, "\(arguments.joined(separator: " ")): \(result.stderr)")
            #expect(fileType("/dev/null") == S_IFCHR, "\(arguments.joined(separator: " ")) replaced /dev/null")
        }
    }

    @Test func aFIFOIsWrittenIntoAndStaysAFIFO() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("frames.rgba").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let job = directory.appendingPathComponent("job.json")
        try #"{"renders":[{"scene":"ring","frames":3,"outputs":[{"type":"rgba","path":"\#(fifo)"}]}]}"#
            .write(to: job, atomically: true, encoding: .utf8)
        // A reader on another thread, as another program would read the pipe.
        let received = Received()
        let reader = Thread {
            let fd = open(fifo, O_RDONLY)
            var buffer = [UInt8](repeating: 0, count: 65536)
            while fd >= 0 {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                received.add(count)
            }
            close(fd)
            received.finish()
        }
        reader.start()
        let result = try runThrobber(["batch", job.path, "--overwrite", "--backend", "cpu"])
        #expect(result.status == 0, "\(result.stderr)")
        // A FIFO replaced by a file would leave the reader waiting for a writer forever.
        #expect(received.wait(seconds: 20) == 84 * 84 * 4 * 3)
        #expect(fileType(fifo) == S_IFIFO)
    }

    @Test func aBlockDeviceOrDirectoryIsRefusedByName() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("here")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let result = try runThrobber(["parity", "--scenes", "ring", "--scales", "1", "--times", "1", "--backend", "cpu",
                                      "--json", target.path])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.contains("\(target.path) is a directory"))
        #expect(fileType(target.path) == S_IFDIR)
    }
}

/// Bytes a reader thread received, handed to the test thread.
final class Received: @unchecked Sendable {
    private let lock = NSCondition()
    private var count = 0
    private var done = false

    func add(_ bytes: Int) { lock.withLock { count += bytes } }
    func finish() { lock.withLock { done = true; lock.broadcast() } }
    /// The bytes received once the reader has finished, or nil if it has not after `seconds`.
    func wait(seconds: Double) -> Int? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        return lock.withLock {
            while !done { if !lock.wait(until: deadline) { return nil } }
            return count
        }
    }
}
