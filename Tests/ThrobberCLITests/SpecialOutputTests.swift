import Foundation
import Testing
import ThrobberTestSupport

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

    /// The check made before rendering agrees with the writer: a device is written into, so it
    /// needs no --overwrite (it used to be refused as "exists; pass --overwrite").
    @Test func devNullNeedsNoOverwrite() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let job = directory.appendingPathComponent("job.json")
        try #"{"renders":[{"scene":"ring","frames":2,"outputs":[{"type":"rgba","path":"/dev/null"},{"type":"sheet","path":"s.png","json":"s.json"}]}]}"#
            .write(to: job, atomically: true, encoding: .utf8)
        let runs = [
            ["batch", job.path, "--backend", "cpu"],
            ["preview", "ring", "--frames", "2", "-o", "/dev/null", "--backend", "cpu"],
        ]
        for arguments in runs {
            let result = try runThrobber(arguments)
            #expect(result.status == 0, "\(arguments.joined(separator: " ")): \(result.stderr)")
            #expect(fileType("/dev/null") == S_IFCHR, "\(arguments.joined(separator: " ")) replaced /dev/null")
        }
        try #"{"renders":[{"scene":"ring","frames":2,"outputs":[{"type":"rgba","path":"/dev/null"},{"type":"png","pattern":"f/%d.png"}]}]}"#
            .write(to: job, atomically: true, encoding: .utf8)
        for options in [[], ["--overwrite"], ["--skip-existing"]] {
            let result = try runThrobber(["batch", job.path, "--backend", "cpu"] + options)
            #expect(result.status == 0, "\(options): \(result.stderr)")
            #expect(fileType("/dev/null") == S_IFCHR)
        }
    }

    /// Raw RGBA (3 frames, its size known) and Y4M, with and without `--overwrite`: a FIFO is
    /// written into, never replaced — a FIFO replaced by a file would leave its reader waiting
    /// for a writer forever.
    @Test(arguments: [(false, "y4m"), (true, "y4m"), (false, "rgba"), (true, "rgba")])
    func aFIFOIsWrittenIntoWithOrWithoutOverwrite(overwrite: Bool, type: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("frames.\(type)").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let job = directory.appendingPathComponent("job.json")
        try #"{"renders":[{"scene":"ring","frames":3,"outputs":[{"type":"\#(type)","path":"\#(fifo)"}]}]}"#
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
        let result = try runThrobber(["batch", job.path, "--backend", "cpu"] + (overwrite ? ["--overwrite"] : []))
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = received.wait(seconds: 20) ?? 0
        #expect(type == "rgba" ? bytes == 84 * 84 * 4 * 3 : bytes > 84 * 84 * 3)
        #expect(fileType(fifo) == S_IFIFO)
    }

    /// A directory or block device given as an output is refused before anything is rendered
    /// or written (it used to fail only when the frames were done).
    @Test func aDirectoryOrBlockDeviceIsRefusedBeforeRendering() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("here")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        var paths = [(target.path, "is a directory")]
        if let block = ["/dev/loop0", "/dev/sda", "/dev/vda", "/dev/nvme0n1"].first(where: { fileType($0) == S_IFBLK }) {
            paths.append((block, "is a block device"))
        }
        for (path, reason) in paths {
            let job = directory.appendingPathComponent("job.json")
            try #"{"renders":[{"scene":"ring","frames":2,"outputs":[{"type":"png","pattern":"f/%d.png"},{"type":"rgba","path":"\#(path)"}]}]}"#
                .write(to: job, atomically: true, encoding: .utf8)
            for options in [[], ["--overwrite"]] {
                let result = try runThrobber(["batch", job.path, "--backend", "cpu"] + options)
                #expect(result.status == 73, "\(result.stderr)")
                #expect(result.stderr == "throbber: \(path) \(reason); give a file name\n" || result.stderr.contains("\(path) \(reason)"),
                        "\(result.stderr)")
                #expect(try listing(directory) == ["here", "job.json"], "something was written: \((try? listing(directory)) ?? [])")
            }
        }
        let preview = try runThrobber(["preview", "ring", "--frames", "2", "-o", target.path, "--backend", "cpu"])
        #expect(preview.status == 73 && preview.stderr.contains("\(target.path) is a directory"), "\(preview.stderr)")
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
