import Foundation
import Testing
import ThrobberTestSupport

/// A batch owns its outputs: every path it writes is resolved before anything is written, two
/// that are one file (or one that is the job file) are refused naming both, and a second run of
/// the same job is refused while the first holds its lock.
@Suite(.serialized)
struct OutputClaimTests {
    /// Writes `text` as `name` in `directory` and returns its path.
    func job(_ text: String, _ name: String = "job.json", in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func aJobThatWouldOverwriteItselfIsRefusedAndKept() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = #"{"renders":[{"scene":"ring","frames":1,"outputs":[{"type":"rgba","path":"c5.json"}]}]}"#
        let path = try job(text, "c5.json", in: directory)
        for options in [["--overwrite"], [], ["--skip-existing"]] {
            let result = try runThrobber(["batch", path, "--backend", "cpu"] + options)
            #expect(result.status == 65, "\(options): \(result.stderr)")
            #expect(result.stderr.contains("rgba output") && result.stderr.contains("is the job file \(path)"), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == text, "the job file was changed")
            #expect(try listing(directory) == ["c5.json"], "something was written: \((try? listing(directory)) ?? [])")
        }
    }

    /// Collisions inside a job file: each refused with 65 before anything is written, naming both.
    @Test(arguments: [
        // A sheet whose atlas is the sheet itself.
        (#"[{"type":"sheet","path":"s.png","json":"s.png"}]"#, "sheet output", "sheet atlas (json) output"),
        // A sheet named like one of the PNG frames.
        (#"[{"type":"png","pattern":"f_%d.png"},{"type":"sheet","path":"f_1.png"}]"#, "PNG frame", "sheet output"),
        // Two patterns spelled differently that number the same files.
        (#"[{"type":"png","pattern":"a/%d.png"},{"type":"png","pattern":"a/./%01d.png"}]"#, "PNG frame", "PNG frame"),
        // An output that is the manifest beside the job file.
        (#"[{"type":"rgba","path":"job.manifest.json"}]"#, "rgba output", "the manifest"),
        // A stream written to another output's atlas.
        (#"[{"type":"sheet","path":"s.png","json":"s.json"},{"type":"y4m","path":"s.json"}]"#, "sheet atlas (json) output", "y4m output"),
        // Pages (three 84 px frames, one a page): every page and every page's atlas is claimed.
        (#"[{"type":"sheet","path":"s.png","maxSize":100},{"type":"y4m","path":"s-2.json"}]"#, "sheet page 2 atlas (json) output", "y4m output"),
        (#"[{"type":"png","pattern":"s-%d.png"},{"type":"sheet","path":"s.png","maxSize":100}]"#, "PNG frame", "sheet page 0 output"),
    ])
    func collisionsInsideAJobAreRefusedBeforeWriting(outputs: String, first: String, second: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try job(#"{"renders":[{"scene":"ring","frames":3,"outputs":\#(outputs)}]}"#, in: directory)
        for options in [[], ["--overwrite"]] {
            let result = try runThrobber(["batch", path, "--backend", "cpu"] + options)
            #expect(result.status == 65, "\(outputs) \(options): \(result.stderr)")
            #expect(result.stderr.hasPrefix("throbber: \(path): "), "\(result.stderr)")
            #expect(result.stderr.contains(first) && result.stderr.contains(second) && result.stderr.contains("are the same file"),
                    "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(try listing(directory) == ["job.json"], "something was written: \((try? listing(directory)) ?? [])")
        }
    }

    @Test func pathsAreComparedAfterResolvingSymlinkedDirectories() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let real = directory.appendingPathComponent("real")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("link").path, withDestinationPath: real.path)
        // The same file through a symlinked directory.
        let viaLink = try job(#"{"renders":[{"scene":"ring","frames":2,"outputs":[{"type":"rgba","path":"real/x.rgba"},{"type":"y4m","path":"link/x.rgba"}]}]}"#,
                              in: directory)
        let linked = try runThrobber(["batch", viaLink, "--backend", "cpu"])
        #expect(linked.status == 65, "\(linked.stderr)")
        #expect(linked.stderr.contains("\(real.path)/x.rgba") && linked.stderr.contains("/link/x.rgba"), "\(linked.stderr)")
        #expect(try listing(real).isEmpty)
    }

    /// Frames into a directory that is absent or empty are claimed without a lookup each; one
    /// that holds anything is looked up per frame, so a single file among many is still found
    /// (and kept), whichever frame it is.
    @Test func anExistingFrameIsFoundWhereverItIsInTheSequence() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out")
        let render = ["render", "ring", "--frames", "6", "--scale", "0.2", "--backend", "cpu", "-o", out.path, "-q"]
        // Absent: every frame is written.
        let fresh = try runThrobber(render)
        #expect(fresh.status == 0, "\(fresh.stderr)")
        let names = try listing(out)
        #expect(names.count == 6)
        for name in [names.first!, names[3], names.last!] {
            for other in try listing(out) where other != name { try FileManager.default.removeItem(at: out.appendingPathComponent(other)) }
            let kept = try Data(contentsOf: out.appendingPathComponent(name))
            let again = try runThrobber(render)
            #expect(again.status == 73, "\(name): \(again.stderr)")
            #expect(again.stderr == "throbber: output file \(out.path)/\(name) exists; pass --overwrite to replace what exists\n",
                    "\(again.stderr)")
            #expect(try listing(out) == [name])
            #expect(try Data(contentsOf: out.appendingPathComponent(name)) == kept)
            // Empty: every frame is written again.
            try FileManager.default.removeItem(at: out.appendingPathComponent(name))
            let refilled = try runThrobber(render)
            #expect(refilled.status == 0, "\(refilled.stderr)")
            #expect(try listing(out) == names)
        }
    }

    @Test func aHardLinkToTheJobFileIsTheJobFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = #"{"renders":[{"scene":"ring","frames":2,"outputs":[{"type":"rgba","path":"other-name.rgba"}]}]}"#
        let path = try job(text, in: directory)
        #expect(link(path, directory.appendingPathComponent("other-name.rgba").path) == 0)
        let result = try runThrobber(["batch", path, "--backend", "cpu", "--overwrite"])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("other-name.rgba is the job file \(path)"), "\(result.stderr)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
    }

    @Test func aManifestOptionThatCollidesIsAUsageError() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = #"{"renders":[{"scene":"ring","frames":2,"outputs":[{"type":"rgba","path":"x.rgba"}]}]}"#
        let path = try job(text, in: directory)
        for manifest in [path, directory.appendingPathComponent("x.rgba").path, directory.appendingPathComponent("sub/../x.rgba").path] {
            let result = try runThrobber(["batch", path, "--backend", "cpu", "--overwrite", "--manifest", manifest])
            #expect(result.status == 64, "\(manifest): \(result.stderr)")
            #expect(result.stderr.contains("the manifest \(manifest)"), "\(result.stderr)")
            #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
            #expect(try listing(directory) == ["job.json"], "something was written: \((try? listing(directory)) ?? [])")
        }
    }

    @Test func aSecondRunOfTheSameJobIsRefusedWhileTheFirstHoldsTheLock() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try job(#"{"renders":[{"scene":"ring","frames":3,"outputs":[{"type":"png","pattern":"f/%d.png"}]}]}"#, in: directory)
        let lockPath = directory.appendingPathComponent("job.manifest.json.lock").path
        // Held by this process, as a running batch holds it.
        let fd = open(lockPath, O_RDWR | O_CREAT, 0o644)
        #expect(fd >= 0)
        #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
        let pid = "\(getpid())\n"
        _ = pid.withCString { write(fd, $0, strlen($0)) }
        let refused = try runThrobber(["batch", path, "--backend", "cpu"])
        #expect(refused.status == 73, "\(refused.stderr)")
        #expect(refused.stderr.contains("(pid \(getpid())) holds \(lockPath)"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)
        #expect(((try? listing(directory.appendingPathComponent("f"))) ?? []).isEmpty, "frames were written")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("job.manifest.json").path))
        // Released (the file stays, as after a crash): the next run takes it and removes it.
        close(fd)
        let result = try runThrobber(["batch", path, "--backend", "cpu"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: lockPath), "the lock file was left")
        #expect(try listing(directory.appendingPathComponent("f")) == ["0.png", "1.png", "2.png"])
    }

    @Test func twoRunningBatchesOfOneJobDoNotBothWrite() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try job(#"{"renders":[{"scene":"ring","frames":3,"outputs":[{"type":"png","pattern":"f/%d.png"}]}]}"#, in: directory)
        let first = try SpawnedThrobber(["batch", path, "--backend", "cpu", "-q"],
                                        environment: ["THROBBER_TEST_PLANNING_PAUSE": "2"], stderrIn: directory)
        #expect(first.wait(seconds: 60) { first.stderr.contains("planning paused") }, "\(first.stderr)")
        let second = try runThrobber(["batch", path, "--backend", "cpu", "--overwrite"])
        #expect(second.status == 73, "\(second.stderr)")
        #expect(second.stderr.contains("(pid \(first.pid))"), "\(second.stderr)")
        #expect(first.finish() == 0, "\(first.stderr)")
        #expect(try runThrobber(["verify", directory.appendingPathComponent("job.manifest.json").path]).status == 0)
    }
}
