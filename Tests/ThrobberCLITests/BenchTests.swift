import Foundation
import Testing

/// `throbber bench` as a user runs it: never timed here, only its shape checked.
@Suite(.serialized)
struct BenchTests {
    @Test func debugBuildsAreRefusedUnlessAllowed() throws {
        let result = try runThrobber(["bench", "--sizes", "32"])
        // The test binary is a debug build (swift test); a release-built THROBBER_BINARY may run.
        if result.status == 64 {
            #expect(result.stderr.contains("swift build -c release"))
        } else {
            #expect(result.status == 0)
        }
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
        for stage in ["gl render", "gl readback", "gl frame", "gl frame1", "gl async", "gl pipeline", "cpu render", "cpu pipeline", "png encode",
                      "sha256 hash", "file write"] {
            #expect(stages.contains(stage), "no \(stage) row")
        }
        let rowsPerCase = 3 + 6 + 3  // encode, hash and write, six GL stages, three CPU stages
        #expect(rows.count == 4 * rowsPerCase)
        for row in rows {
            let ms = try #require(row["ms"] as? [String: Any])
            #expect((ms["median"] as? Double ?? -1) > 0)
        }
        #expect(rows.contains { $0["stage"] as? String == "pipeline" && $0["ratioToCeiling"] as? Double != nil })
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
        #expect(ceilings == ["memcpy", "gl clear+readback", "png encode, all cores"])
        #expect((report["fits"] as? [[String: Any]])?.isEmpty == false)
        #expect((report["startup"] as? [[String: Any]])?.count == 8)
        let svg = try String(contentsOf: plot, encoding: .utf8)
        #expect(svg.hasPrefix("<svg") && svg.contains("<polyline"))
    }

    @Test func badMatricesAreUsageErrors() throws {
        #expect(try runThrobber(["bench", "--allow-debug", "--sizes", "0"]).status == 64)
        #expect(try runThrobber(["bench", "--allow-debug", "--stages", "paint"]).stderr.contains("render, readback"))
        #expect(try runThrobber(["bench", "--allow-debug", "--backends", "vulkan"]).status == 64)
    }
}
