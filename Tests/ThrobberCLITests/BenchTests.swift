import Foundation
import Testing
import ThrobberTestSupport

/// `throbber bench` as a user runs it: never timed here, only its shape checked.
@Suite(.serialized)
struct BenchTests {
    /// A debug build refuses to time anything (exit 64, saying how to build for release) unless
    /// allowed; a release build runs. Which one the binary under test is (the tests are a debug
    /// build, THROBBER_BINARY may be a release one) is read from the configuration the bench
    /// records in its method, which the same `#if DEBUG` as the refusal decides.
    @Test func debugBuildsAreRefusedUnlessAllowed() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("bench.json")
        let tiny = ["--scenes", "ring", "--sizes", "16", "--backends", "cpu", "--stages", "encode", "--frames", "1",
                    "--repeat", "1", "--warmup", "0", "--no-startup"]
        let allowed = try runThrobber(["bench", "--allow-debug"] + tiny + ["--json", json.path])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        let configuration = try #require((report["method"] as? [String: Any])?["configuration"] as? String)

        let result = try runThrobber(["bench"] + tiny)
        switch configuration {
        case "debug":
            #expect(allowed.stderr.contains("WARNING: this is a DEBUG build"), "\(allowed.stderr)")
            #expect(result.status == 64, "a debug build ran the bench: \(result.stderr)")
            #expect(result.stderr.contains("swift build -c release") && result.stderr.contains("--allow-debug"), "\(result.stderr)")
        case "release":
            #expect(!allowed.stderr.contains("DEBUG"), "\(allowed.stderr)")
            #expect(result.status == 0, "a release build refused the bench: \(result.stderr)")
        default:
            Issue.record("the bench reports an unknown configuration '\(configuration)'")
        }
    }

    /// `--baseline`: a saved run doctored so one figure was 10× slower (now faster), one 10×
    /// faster (now slower) and two spread over all of time (within noise); a baseline that is
    /// not a report is one line, exit 65.
    @Test func baselineGivesANoiseAwareVerdictPerFigure() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appendingPathComponent("first.json"), doctored = directory.appendingPathComponent("old.json")
        let arguments = ["bench", "--allow-debug", "--scenes", "ring", "--sizes", "32", "--backends", "cpu",
                         "--stages", "render,encode,hash", "--frames", "3", "--repeat", "3", "--warmup", "1", "--no-startup"]
        #expect(try runThrobber(arguments + ["--json", first.path]).status == 0)
        var report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: first)) as? [String: Any])
        var rows = try #require(report["rows"] as? [[String: Any]])
        func doctor(_ stage: String, backend: String? = nil, _ change: ([Double]) -> [Double]) throws {
            let index = try #require(rows.firstIndex { $0["stage"] as? String == stage && (backend == nil || $0["backend"] as? String == backend) })
            let medians = try #require(rows[index]["repeatMedians"] as? [Double])
            #expect(medians.count == 3)
            let changed = change(medians)
            rows[index]["repeatMedians"] = changed
            var ms = try #require(rows[index]["ms"] as? [String: Any])
            ms["median"] = changed.sorted()[1]
            rows[index]["ms"] = ms
        }
        try doctor("render") { $0.map { $0 * 10 + 1 } }
        try doctor("encode") { $0.map { $0 / 1000 } }
        try doctor("hash", backend: "sha256") { _ in [0, 1, 1e9] }
        try doctor("hash", backend: "sha256 pixels") { _ in [0, 1, 1e9] }
        report["rows"] = rows
        try JSONSerialization.data(withJSONObject: report).write(to: doctored)
        let result = try runThrobber(arguments + ["--baseline", doctored.path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        func verdict(_ backend: String, _ stage: String) -> String? {
            lines.first { $0.hasPrefix("| ring | 32 | \(backend) | \(stage) |") }?.split(separator: "|").last
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
        #expect(result.stdout.contains("## Against the baseline"))
        #expect(verdict("cpu", "render") == "faster", "\(result.stdout)")
        #expect(verdict("png", "encode") == "slower", "\(result.stdout)")
        #expect(verdict("sha256", "hash") == "within noise", "\(result.stdout)")
        #expect(verdict("sha256 pixels", "hash") == "within noise", "\(result.stdout)")
        #expect(result.stdout.contains("4 figures compared: 1 faster, 1 slower, 2 within noise"), "\(result.stdout)")

        try Data("{}".utf8).write(to: doctored)
        let bad = try runThrobber(arguments + ["--baseline", doctored.path])
        #expect(bad.status == 65 && bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
        let missing = try runThrobber(arguments + ["--baseline", directory.appendingPathComponent("none.json").path])
        #expect(missing.status == 66 && missing.stderr.contains("No such file"), "\(missing.stderr)")
    }

    /// `--png-encoder` times the chosen encoder in encode, write and the pipeline (whose job gets
    /// it too) and says so in the method; its files are smaller or larger than libpng's.
    @Test func benchTimesTheChosenEncoder() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var bytes: [String: UInt64] = [:]
        for encoder in ["libpng", "isal"] {
            let json = directory.appendingPathComponent("\(encoder).json")
            let result = try runThrobber(["bench", "--allow-debug", "--scenes", "ring", "--sizes", "48", "--backends", "cpu",
                                          "--stages", "encode,pipeline", "--frames", "2", "--repeat", "1", "--warmup", "0",
                                          "--no-startup", "--png-encoder", encoder, "--json", json.path])
            #expect(result.status == 0, "\(result.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
            let method = try #require(report["method"] as? [String: Any])
            #expect(method["pngEncoder"] as? String == encoder)
            #expect(method["pngLevel"] as? Int == (encoder == "isal" ? 1 : 7))
            let rows = try #require(report["rows"] as? [[String: Any]])
            #expect(rows.contains { $0["stage"] as? String == "pipeline" }, "the pipeline ran with \(encoder)")
            // The encode stage's checksum is the bytes it wrote.
            let encode = try #require(rows.first { $0["stage"] as? String == "encode" })
            bytes[encoder] = (encode["checksum"] as? NSNumber)?.uint64Value
        }
        #expect(bytes["libpng"] != nil && bytes["libpng"] != bytes["isal"], "\(bytes)")
        let bad = try runThrobber(["bench", "--allow-debug", "--png-encoder", "isal", "--png-level", "9"])
        #expect(bad.status == 64 && bad.stderr.contains("invalid --png-level '9'"), "\(bad.stderr)")
    }

    @Test func tinyMatrixWritesCompleteJSONAndPlot() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("bench.json"), plot = directory.appendingPathComponent("bench.svg")
        let result = try runThrobber(["bench", "--allow-debug", "--scenes", "ring,activity", "--sizes", "32,48",
                                      "--backends", "gl,cpu", "--frames", "2", "--repeat", "1", "--warmup", "1",
                                      "--json", json.path, "--plot", plot.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("| scene | px | backend | stage |"))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        let method = try #require(report["method"] as? [String: Any])
        for key in ["commit", "cpu", "cores", "glRenderer", "glVersion", "lpNumThreads", "configuration"] {
            #expect(method[key] != nil, "method lacks \(key)")
        }
        #expect(method["configuration"] as? String == "debug")
        let rows = try #require(report["rows"] as? [[String: Any]])
        let stages = Set(rows.map { "\($0["backend"]!) \($0["stage"]!)" })
        for stage in ["gl render", "gl readback", "gl frame", "gl frame1", "gl async", "gl pipeline", "gl sheet", "gl preview",
                      "cpu render", "cpu pipeline", "cpu sheet", "cpu preview", "png encode", "sha256 hash", "sha256 pixels hash", "file write"] {
            #expect(stages.contains(stage), "no \(stage) row")
        }
        let rowsPerCase = 4 + 8 + 5  // encode, two hashes and write, eight GL stages, five CPU stages
        #expect(rows.count == 4 * rowsPerCase)
        for row in rows {
            let ms = try #require(row["ms"] as? [String: Any])
            #expect((ms["median"] as? Double ?? -1) > 0)
            // Every stage consumes what its work made, so the work cannot be optimised away.
            #expect(((row["checksum"] as? NSNumber)?.uint64Value ?? 0) != 0, "\(row["backend"]!) \(row["stage"]!) consumes nothing: checksum 0")
        }
        for stage in ["pipeline", "sheet", "preview"] {
            #expect(rows.contains { $0["stage"] as? String == stage && $0["ratioToCeiling"] as? Double != nil }, "\(stage) has no ceiling")
        }
        for row in rows where ["frame", "encode", "hash", "write", "pipeline"].contains(row["stage"] as? String) {
            #expect((row["cpuMs"] as? Double ?? -1) > 0, "\(row["backend"]!) \(row["stage"]!) has no CPU time")
        }
        // One budget per scene × size × backend: the parts' CPU costs and the bound they allow.
        let budgets = try #require(report["budgets"] as? [[String: Any]])
        #expect(budgets.count == 2 * 2 * 2)
        for budget in budgets {
            let parts = ["encodeCpuMs", "renderCpuMs", "hashCpuMs", "writeCpuMs"].map { budget[$0] as? Double ?? -1 }
            #expect(parts.allSatisfy { $0 > 0 }, "\(budget)")
            let bound = try #require(budget["bound"] as? Double)
            #expect(abs(bound - parts[0] / parts.reduce(0, +)) < 1e-9)
        }
        #expect(result.stdout.contains("| scene | px | backend | encode (ceiling) | frame | SHA-256 | write | bound |"))
        let ceilings = Set((report["ceilings"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String })
        #expect(ceilings == ["memcpy", "gl clear+readback", "png encode, all cores", "sheet encode, all cores (gl)", "sheet encode, all cores (cpu)",
                             "preview encode, all cores (gl)", "preview encode, all cores (cpu)"])
        #expect((report["fits"] as? [[String: Any]])?.isEmpty == false)
        // The start-up sweep per scene × backend × job length (1, 10, 100, 1000 frames).
        let startup = try #require(report["startup"] as? [[String: Any]])
        #expect(startup.count == 2 * 2 * 4)
        #expect(Set(startup.compactMap { $0["scene"] as? String }).count == 2)
        let svg = try String(contentsOf: plot, encoding: .utf8)
        #expect(svg.hasPrefix("<svg") && svg.contains("<polyline") && svg.contains("ns per pixel"))
        #expect(svg.contains("stroke-dasharray") && svg.contains("ceiling: sheet encode, all cores (cpu)"), "the ceilings are drawn dashed")
    }

    @Test func badMatricesAreUsageErrors() throws {
        #expect(try runThrobber(["bench", "--allow-debug", "--sizes", "0"]).status == 64)
        #expect(try runThrobber(["bench", "--allow-debug", "--stages", "paint"]).stderr.contains("render, readback"))
        #expect(try runThrobber(["bench", "--allow-debug", "--backends", "vulkan"]).status == 64)
        for (arguments, says) in [(["--sheets"], "--sheets goes with --png-sweep only"),
                                  (["--sweep-filters", "none"], "--sweep-filters goes with --png-sweep only"),
                                  (["--png-sweep", "--sweep-encoders", "gzip"], "invalid --sweep-encoders 'gzip'"),
                                  (["--png-sweep", "--sweep-encoders", "zlib:10"], "zlib levels in [0, 9]"),
                                  (["--png-sweep", "--sweep-encoders", "isal:3-1"], "isal levels in [0, 3]"),
                                  (["--png-sweep", "--sweep-filters", "left"], "invalid --sweep-filters 'left'")] {
            let result = try runThrobber(["bench", "--allow-debug"] + arguments)
            #expect(result.status == 64 && result.stderr.contains(says), "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
    }

    /// `--png-sweep --sheets` on a few settings: every one is on sheets, the reference is added,
    /// the frontier is the settings no other beats on both time and size, and the sheet default is
    /// the fastest within 10 % of the smallest at every cell size — read back from the JSON.
    @Test func sheetSweepAppliesItsRule() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("sweep.json")
        let result = try runThrobber(["bench", "--allow-debug", "--png-sweep", "--sheets", "--scenes", "ring,activity", "--sizes", "16,24",
                                      "--sweep-encoders", "zlib:7-9,isal:1,libdeflate:12", "--sweep-filters", "none", "--repeat", "1",
                                      "--json", json.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("on sprite sheets") && result.stdout.contains("**sheet default**"), "\(result.stdout)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        #expect(report["sheets"] as? Bool == true)
        let candidates = try #require(report["candidates"] as? [[String: Any]])
        #expect(Set(candidates.map { "\($0["encoder"]!) \($0["level"]!) \($0["filter"]!)" })
                == ["zlib 7 none", "zlib 8 none", "zlib 9 none", "isal 1 none", "libdeflate 12 none", "libpng 6 adaptive"])
        func value(_ c: [String: Any], _ key: String) -> Double { (c[key] as? Double) ?? .nan }
        func ratios(_ c: [String: Any]) -> [Double] { (c["sizeRatio"] as? [Double]) ?? [] }
        let smallest = (0..<2).map { i in candidates.map { ratios($0)[i] }.min()! }
        let within = candidates.filter { c in zip(ratios(c), smallest).allSatisfy { $0 <= $1 * 1.10 } }
        let fastest = within.min { value($0, "meanMs") < value($1, "meanMs") }
        let chosen = candidates.filter { $0["chosenForSheets"] as? Bool == true }
        #expect(chosen.count == 1 && chosen.first?["encoder"] as? String == fastest?["encoder"] as? String
                && chosen.first?["level"] as? Int == fastest?["level"] as? Int)
        for c in candidates {
            let beaten = candidates.contains { d in
                value(d, "meanMs") <= value(c, "meanMs") && value(d, "meanSizeRatio") <= value(c, "meanSizeRatio")
                    && (value(d, "meanMs") < value(c, "meanMs") || value(d, "meanSizeRatio") < value(c, "meanSizeRatio"))
            }
            #expect((c["onFrontier"] as? Bool) == !beaten, "\(c)")
        }
    }
}
