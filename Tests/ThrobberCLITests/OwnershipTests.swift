import Foundation
import Testing
import ThrobberPNG
import ThrobberTestSupport

/// What an outside sweep found (each failed on the build before these tests): files not the
/// run's touched (a lock file taken over, names that climb out of the output directory, report
/// files replaced without --overwrite), readers that allocated gigabytes from a few bytes, resumes
/// that kept the wrong thing or left temporary files, signals that waited, and refusals that came
/// late. Every case runs the real binary, as a user would.
@Suite(.serialized)
struct OwnershipTests {
    func write(_ text: String, _ name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// The file's bytes, inode and link count, to show it was not touched.
    func fingerprint(_ path: String) throws -> (Data, UInt64, Int) {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (try Data(contentsOf: URL(fileURLWithPath: path)), (attributes[.systemFileNumber] as! NSNumber).uint64Value,
                (attributes[.referenceCount] as! NSNumber).intValue)
    }

    // MARK: 1. Own what you write, and only that

    /// A hard link, a user's file, a FIFO or a symbolic link at `MANIFEST.lock` is refused with 73
    /// naming it, and left as it was; the victim keeps its bytes.
    @Test(arguments: ["hardlink", "foreign", "fifo", "symlink"])
    func aLockPathThatIsNotOursIsRefusedAndLeftAlone(kind: String) throws {
        let directory = try temporaryDirectory("lock-\(kind)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let victim = try write("VICTIM\n", "v.txt", in: directory)
        let job = try write(#"{"renders":[{"scene":"ring","frames":1,"outputs":[{"type":"png"}]}]}"#, "j.json", in: directory)
        let lock = directory.appendingPathComponent("j.manifest.json.lock").path
        switch kind {
        case "hardlink": #expect(link(victim, lock) == 0)
        case "foreign": _ = try write("my notes, not a pid\n", "j.manifest.json.lock", in: directory)
        case "fifo": #expect(mkfifo(lock, 0o644) == 0)
        default: #expect(symlink(victim, lock) == 0)
        }
        var before = stat()
        #expect(lstat(lock, &before) == 0)
        let victimBefore = try fingerprint(victim)
        let result = try runThrobber(["batch", job, "--backend", "cpu", "-q"])
        #expect(result.status == 73, "\(kind): \(result.stderr)")
        #expect(result.stderr.contains(lock) && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        var after = stat()
        #expect(lstat(lock, &after) == 0 && after.st_ino == before.st_ino && after.st_mode == before.st_mode, "the lock path was changed")
        let victimAfter = try fingerprint(victim)
        #expect(victimAfter.0 == victimBefore.0 && victimAfter.1 == victimBefore.1, "the victim was changed")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("ring@1x_00000.png").path))
    }

    /// A lock file a killed run left (a pid in a regular file with one link) blocks nothing.
    @Test func aStaleLockFileOfOursIsTakenOver() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let job = try write(#"{"renders":[{"scene":"ring","frames":1,"outputs":[{"type":"png"}]}]}"#, "j.json", in: directory)
        _ = try write("99999999\n", "j.manifest.json.lock", in: directory)
        let result = try runThrobber(["batch", job, "--backend", "cpu", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try listing(directory) == ["j.json", "j.manifest.json", "ring@1x_00000.png"])
    }

    /// A name is a path component: ".", "..", a slash or more than 255 bytes is refused with 65
    /// naming the field when the job is read, and nothing is written anywhere.
    @Test(arguments: ["..", ".", "a/b", String(repeating: "n", count: 256)])
    func aNameThatIsNotOneComponentIsRefused(name: String) throws {
        let directory = try temporaryDirectory("name-\(name.count)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("o")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let job = try write(#"{"renders":[{"scene":"ring","name":"\#(name)","frames":1,"outputs":[{"type":"png","pattern":"o/{name}/x_%05d.png"}]}]}"#,
                            "j.json", in: directory)
        let result = try runThrobber(["batch", job, "--backend", "cpu", "-q"])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("invalid name") && result.stderr.contains("j.json:1:"), "\(result.stderr)")
        #expect(try listing(directory) == ["j.json", "o"])
        #expect(try listing(out) == [])
    }

    /// A file name over 255 bytes or a path over 4,095 made by a pattern is refused before the
    /// first frame (65, naming the output), not at the frame that reaches it.
    @Test func anOutputPathTooLongForLinuxIsRefusedBeforeRendering() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let long = String(repeating: "p", count: 250)
        let job = try write(#"{"renders":[{"scene":"ring","frames":3,"outputs":[{"type":"png","pattern":"\#(long)_%05d.png"}]}]}"#,
                            "j.json", in: directory)
        let result = try runThrobber(["batch", job, "--backend", "cpu", "-q"])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("255 bytes") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try listing(directory) == ["j.json"])
    }

    /// `compare --diff`, `parity --json`, `parity --out`'s images and `bench --json/--plot` refuse a
    /// file that exists (73) before doing any work, and replace it only with --overwrite.
    @Test func reportFilesAreNeverReplacedWithoutOverwrite() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try runThrobber(["render", "ring", "--frames", "1", "--backend", "cpu", "-o", directory.path, "-q"]).status == 0)
        let image = directory.appendingPathComponent("ring_00000.png").path
        let precious = try write("precious\n", "p.txt", in: directory)
        let commands: [[String]] = [
            ["compare", image, image, "--diff", precious],
            ["parity", "--scenes", "ring", "--scales", "1", "--times", "1", "--backend", "cpu", "--quiet", "--json", precious],
            ["bench", "--allow-debug", "--scenes", "ring", "--sizes", "16", "--frames", "1", "--repeat", "1", "--backends", "cpu",
             "--stages", "render", "--no-startup", "--json", precious],
            ["bench", "--allow-debug", "--scenes", "ring", "--sizes", "16", "--frames", "1", "--repeat", "1", "--backends", "cpu",
             "--stages", "render", "--no-startup", "--plot", precious],
        ]
        for command in commands {
            let result = try runThrobber(command)
            #expect(result.status == 73, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("exists") && result.stderr.contains("--overwrite"), "\(result.stderr)")
            #expect(try String(contentsOfFile: precious, encoding: .utf8) == "precious\n", "\(command) replaced the file")
        }
        let replaced = try runThrobber(["compare", image, image, "--diff", precious, "--overwrite"])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: precious)).prefix(4) == Data([137, 80, 78, 71]))
        // A failing case's images in --out, looked for before rendering.
        let out = directory.appendingPathComponent("pf")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let stale = try write("old\n", "ring_seed1_case0_diff.png", in: out)
        let parity = try runThrobber(["parity", "--scenes", "ring", "--random", "1", "--backend", "cpu", "--quiet", "--out", out.path])
        #expect(parity.status == 73 && parity.stderr.contains(stale), "\(parity.stderr)")
        #expect(try String(contentsOfFile: stale, encoding: .utf8) == "old\n")
    }

    /// Two outputs into one character device are written into, not refused as one file.
    @Test func twoOutputsToOneDeviceAreAllowed() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let job = try write(#"{"renders":[{"scene":"ring","frames":2,"outputs":[{"type":"rgba","path":"/dev/null"},{"type":"y4m","path":"/dev/null"}]}]}"#,
                            "j.json", in: directory)
        let result = try runThrobber(["batch", job, "--backend", "cpu", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// A file at the manifest's path that is not a manifest is refused without --overwrite.
    @Test func aForeignFileAtTheManifestPathIsRefused() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let job = try write(#"{"renders":[{"scene":"ring","frames":1,"outputs":[{"type":"png"}]}]}"#, "j.json", in: directory)
        let manifest = try write("my own notes\n", "j.manifest.json", in: directory)
        let result = try runThrobber(["batch", job, "--backend", "cpu", "-q"])
        #expect(result.status == 73 && result.stderr.contains("not a Throbber manifest"), "\(result.stderr)")
        #expect(try String(contentsOfFile: manifest, encoding: .utf8) == "my own notes\n")
        #expect(try runThrobber(["batch", job, "--backend", "cpu", "-q", "--overwrite"]).status == 0)
    }

    /// A symbolic link to a directory at the manifest's path, or at a stream's path on a resume,
    /// is the user's: refused, and left pointing where it pointed (found by the fuzzer, seed 90211).
    @Test func aLinkToADirectoryAtTheManifestOrAStreamIsLeftAlone() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let victim = directory.appendingPathComponent("victim")
        try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
        let job = try write(#"{"renders":[{"scene":"ring","frames":2,"outputs":[{"type":"rgba","path":"s.rgba"}]}]}"#, "j.json", in: directory)
        let manifest = directory.appendingPathComponent("j.manifest.json").path
        #expect(symlink(victim.path, manifest) == 0)
        let refused = try runThrobber(["batch", job, "--backend", "cpu", "-q"])
        #expect(refused.status == 73 && refused.stderr.contains("not a Throbber manifest"), "\(refused.stderr)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: manifest)) == victim.path)
        try FileManager.default.removeItem(atPath: manifest)
        let stream = directory.appendingPathComponent("s.rgba").path
        #expect(symlink(victim.path, stream) == 0)
        let resumed = try runThrobber(["batch", job, "--backend", "cpu", "-q", "--skip-existing"])
        #expect(resumed.status == 65 && resumed.stderr.contains("symbolic link"), "\(resumed.stderr)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: stream)) == victim.path)
    }

    // MARK: 2. Every reader bounded before it allocates

    /// A real frame with a tEXt chunk whose length field says 2³¹ − 1.
    func hostileLength(in directory: URL) throws -> (good: String, bad: String) {
        #expect(try runThrobber(["render", "ring", "--frames", "1", "--backend", "cpu", "-o", directory.path, "-q"]).status == 0)
        let good = directory.appendingPathComponent("ring_00000.png").path
        var bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        bytes.insert(contentsOf: [0x7f, 0xff, 0xff, 0xff] + Array("tEXtabc".utf8), at: 33)
        let bad = directory.appendingPathComponent("bad.png")
        try bytes.write(to: bad)
        return (good, bad.path)
    }

    /// compare, reproduce and verify refuse a chunk longer than the file at once, in one line,
    /// with 65 (verify: 1, naming it), and under 64 MB of memory.
    @Test func aChunkLengthPastTheFileIsRefusedWithoutAllocatingIt() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (good, bad) = try hostileLength(in: directory)
        for command in [["compare", bad, good], ["reproduce", bad]] {
            let result = try measured(command)
            #expect(result.status == 65, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("truncated") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.peakKiB < 64 * 1024, "\(command) peaked at \(result.peakKiB) KiB")
        }
    }

    /// `reproduce /dev/zero` is refused before the device is opened (issue 46: the input rule
    /// reads no device), and an endless pipe after its first bytes, not after gigabytes.
    @Test func anEndlessInputIsRefusedFromItsFirstBytes() throws {
        for command in [["reproduce", "/dev/zero"], ["compare", "/dev/zero", "/dev/zero"]] {
            let result = try measured(command)
            #expect(result.status == 64 && result.stderr.contains("it is a character device"), "\(command): \(result.stderr)")
            #expect(result.peakKiB < 64 * 1024, "\(command) peaked at \(result.peakKiB) KiB")
        }
        for command in ["reproduce <(cat /dev/zero)", "compare <(cat /dev/zero) <(cat /dev/zero)"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", "exec \"$0\" \(command)", try throbberBinary().path]
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 65 && stderr.contains("not a PNG"), "\(command): \(stderr)")
        }
    }

    /// A frame whose tEXt claims scale 64 and five cells: the canvas it describes is compared with
    /// the header before a cell is rendered.
    @Test func reproduceComparesTheDescribedCanvasBeforeRendering() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try runThrobber(["render", "ring", "--frames", "1", "--backend", "cpu", "-o", directory.path, "-q"]).status == 0)
        let file = directory.appendingPathComponent("ring_00000.png")
        let data = try Data(contentsOf: file)
        let chunks = try PNGCodec.textChunks(data).map { $0.0 == "Throbber:scale" ? ($0.0, "64") : $0 }
            + [("Throbber:cells", "layout=grid columns=5 times=0,1,2,3,4")]
        try PNGCodec.encode(try PNGCodec.decode(data), text: chunks).write(to: file)
        let result = try measured(["reproduce", file.path])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("84×84") && result.stderr.contains("nothing was rendered"), "\(result.stderr)")
        #expect(result.peakKiB < 64 * 1024, "reproduce peaked at \(result.peakKiB) KiB")
    }

    /// verify names what a listed path really is and hashes large files in bounded memory.
    @Test func verifyNamesTheRealProblemInBoundedMemory() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let job = try write(#"{"renders":[{"scene":"ring","frames":4,"outputs":[{"type":"png"}]}]}"#, "j.json", in: directory)
        #expect(try runThrobber(["batch", job, "--backend", "cpu", "-q"]).status == 0)
        let manifestPath = directory.appendingPathComponent("j.manifest.json").path
        var manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifestPath))) as! [String: Any]
        var frames = manifest["frames"] as! [[String: Any]]
        let dir = directory.appendingPathComponent("adir").path, fifo = directory.appendingPathComponent("afifo").path
        let big = directory.appendingPathComponent("big.png").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        #expect(mkfifo(fifo, 0o644) == 0)
        // 600 MB of zeros, sparse: no disk, but a reader that loads it whole shows it.
        #expect(FileManager.default.createFile(atPath: big, contents: nil) && truncate(big, 600 << 20) == 0)
        for (index, path) in [dir, fifo, big].enumerated() { frames[index]["file"] = path }
        manifest["frames"] = frames
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: manifestPath))
        let result = try measured(["verify", manifestPath])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("\(dir): is a directory") && result.stdout.contains("\(fifo): is a FIFO"), "\(result.stdout)")
        #expect(result.stdout.contains("\(big): not a readable PNG"), "\(result.stdout)")
        #expect(result.peakKiB < 64 * 1024, "verify peaked at \(result.peakKiB) KiB")
        let quick = try measured(["verify", "--quick", manifestPath])
        #expect(quick.status == 1 && !quick.stdout.contains(big), "\(quick.stdout)")
        #expect(quick.peakKiB < 64 * 1024, "verify --quick peaked at \(quick.peakKiB) KiB")
    }

    // MARK: 3. Resume keeps only what is right

    /// Frame 3 replaced by frame 7, the rgba stream cut to 5 bytes, and a temporary file a killed
    /// run left: the resume re-renders both, says so, removes the leftover, and ends byte for
    /// byte equal to a run that was never interrupted; verify agrees.
    @Test func aResumeReplacesWhatIsNotThisRunsAndRemovesLeftovers() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = #"{"renders":[{"scene":"ring","frames":8,"outputs":[{"type":"png"},{"type":"rgba","path":"x.rgba"},{"type":"y4m","path":"x.y4m"},{"type":"sheet"}]}]}"#
        let reference = directory.appendingPathComponent("ref"), resumed = directory.appendingPathComponent("run")
        var files: [String] = []
        for run in [reference, resumed] {
            try FileManager.default.createDirectory(at: run, withIntermediateDirectories: true)
            let job = try write(text, "j.json", in: run)
            #expect(try runThrobber(["batch", job, "--backend", "cpu", "-q"]).status == 0)
            files = try listing(run)
        }
        let frame3 = resumed.appendingPathComponent("ring@1x_00003.png").path
        try FileManager.default.removeItem(atPath: frame3)
        try FileManager.default.copyItem(atPath: resumed.appendingPathComponent("ring@1x_00007.png").path, toPath: frame3)
        try Data("12345".utf8).write(to: resumed.appendingPathComponent("x.rgba"))
        let leftover = resumed.appendingPathComponent(".x.y4m.99999999.12345.tmp").path
        let others = resumed.appendingPathComponent(".notours.99999999.1.tmp").path
        #expect(FileManager.default.createFile(atPath: leftover, contents: Data(count: 1000)))
        #expect(FileManager.default.createFile(atPath: others, contents: Data("keep".utf8)))
        let result = try runThrobber(["batch", resumed.appendingPathComponent("j.json").path, "--backend", "cpu", "-q", "--skip-existing"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("replaced \(frame3): its tEXt Throbber:time"), "\(result.stderr)")
        #expect(result.stderr.contains("x.rgba: it has 5 bytes"), "\(result.stderr)")
        #expect(result.stderr.contains("removed \(leftover)"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: leftover) && FileManager.default.fileExists(atPath: others))
        for name in files {
            let a = try Data(contentsOf: reference.appendingPathComponent(name)), b = try Data(contentsOf: resumed.appendingPathComponent(name))
            #expect(a == b || name == "j.manifest.json", "\(name) differs after the resume")
        }
        let verify = try runThrobber(["verify", resumed.appendingPathComponent("j.manifest.json").path])
        #expect(verify.status == 0, "\(verify.stdout)")
        // A resume with nothing to do keeps everything and says nothing.
        let again = try runThrobber(["batch", resumed.appendingPathComponent("j.json").path, "--backend", "cpu", "-q", "--skip-existing"])
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
    }

    // MARK: 4. Signals within a second

    /// A first SIGINT while a big sheet page compresses (tens of seconds on one core) ends the
    /// run within a second with 130 and nothing partial left; so does one while a FIFO output
    /// waits for a reader that never comes, and one while 3000 px frames compress at libdeflate 12.
    @Test(arguments: ["sheet", "fifo", "frame"])
    func aFirstSignalEndsLongWaitsWithinASecond(kind: String) throws {
        let directory = try temporaryDirectory("signal-\(kind)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let render = switch kind {
        case "sheet": #"{"scene":"wave-ball","scale":0.6,"frames":1600,"outputs":[{"type":"sheet","maxSize":16384,"encoder":"small"}]}"#
        case "fifo": #"{"scene":"wave-ball","scale":0.6,"frames":2,"outputs":[{"type":"rgba","path":"fifo"}]}"#
        // 3000 × 3000 px frames at libdeflate 12: seconds each.
        default: #"{"scene":"wave-ball","scale":10,"frames":20,"outputs":[{"type":"png","encoder":"libdeflate","level":12}]}"#
        }
        if kind == "fifo" { #expect(mkfifo(directory.appendingPathComponent("fifo").path, 0o644) == 0) }
        let job = try write(#"{"renders":[\#(render)]}"#, "j.json", in: directory)
        let child = try SpawnedThrobber(["batch", job, "--backend", "cpu", "-q"], stderrIn: directory)
        #expect(child.waitUntilSignalsAreCaught(), "batch never caught SIGINT")
        // Every frame rendered and the page in the compressor, or the stream waiting at the FIFO.
        Thread.sleep(forTimeInterval: kind == "fifo" ? 2 : kind == "frame" ? 4 : 6)
        let clock = ContinuousClock(), sent = clock.now
        child.send(SIGINT)
        let status = child.finish(seconds: 60)
        let waited = (clock.now - sent) / .seconds(1)
        #expect(status == 130, "\(child.stderr)")
        #expect(waited < 1.5, "\(kind): stopped \(waited) s after SIGINT")
        #expect(child.stderr.split(separator: "\n").count == 1 && child.stderr.contains("interrupted by SIGINT"), "\(child.stderr)")
        #expect(hiddenFiles(under: directory).isEmpty, "left: \(hiddenFiles(under: directory))")
        let left = try listing(directory).filter { !$0.hasPrefix("stderr-") }
        // Frames that landed before the signal are whole files; nothing else is there.
        #expect(Set(left.filter { !$0.hasSuffix(".png") }).isSubset(of: ["j.json", "fifo"]), "\(left)")
        for name in left where name.hasSuffix(".png") {
            #expect((try? PNGCodec.decode(Data(contentsOf: directory.appendingPathComponent(name)))) != nil, "\(name) is not whole")
        }
    }

    // MARK: 5. Refuse early what cannot be written

    /// A GIF whose delays would not fit 16 bits is refused when the job is read.
    @Test func aGIFTooSlowForItsDelaysIsRefusedBeforeRendering() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let job = try write(#"{"renders":[{"scene":"ring","fps":0.001,"frames":2,"outputs":[{"type":"video","path":"a.gif"}]}]}"#,
                            "j.json", in: directory)
        let result = try runThrobber(["batch", job, "--backend", "cpu", "-q"])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("a GIF holds at least") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try listing(directory) == ["j.json"])
    }

    func measured(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String, peakKiB: Int) {
        try runThrobberMeasured(arguments)
    }
}
