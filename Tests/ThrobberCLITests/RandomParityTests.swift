import Foundation
import Testing
import Throbber
import ThrobberPNG
import ThrobberTestSupport

/// `throbber parity --random`, `--seed` and `--set`, run as a user would.
@Suite(.serialized)
struct RandomParityTests {
    /// The words of a printed repro command (its words never need quoting), with `-o` redirected.
    func reproArguments(_ command: String, output: URL) throws -> [String] {
        var words = shellWords(command)
        #expect(words.first?.hasSuffix("throbber") == true, "\(command)")
        words.removeFirst()
        let o = try #require(words.firstIndex(of: "-o"))
        words[o + 1] = output.path
        return words
    }

    /// `command` split as a POSIX shell splits it: spaces between words, '…' quoting (a caption
    /// with spaces or a newline), a backslash escaping the next character outside quotes.
    func shellWords(_ command: String) -> [String] {
        var words: [String] = [], word = "", inWord = false, quoted = false, escaped = false
        for character in command {
            if escaped { word.append(character); escaped = false; continue }
            if quoted {
                if character == "'" { quoted = false } else { word.append(character) }
                continue
            }
            switch character {
            case "'": quoted = true; inWord = true
            case "\\": escaped = true; inWord = true
            case " ":
                if inWord { words.append(word); word = ""; inWord = false }
            default: word.append(character); inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }

    @Test func randomCasesAreTheSameForASeedAndCarryTheirCommand() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var reports: [[[String: Any]]] = []
        for run in 0..<2 {
            let json = directory.appendingPathComponent("parity\(run).json")
            let result = try runThrobber(["parity", "--random", "3", "--seed", "11", "--scenes", "ring,activity",
                                          "--json", json.path, "--out", directory.appendingPathComponent("fail").path])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("random: 3 cases per scene, seed 11"))
            #expect(result.stdout.contains("6 cases (2 scenes × 3 random, seed 11), 6 passed, 0 failed"))
            for index in 0..<3 {
                #expect(result.stdout.contains("pass ring #\(index) @"))
                #expect(result.stdout.contains("pass activity #\(index) @"))
            }
            let lines = result.stdout.split(separator: "\n").filter { $0.hasPrefix("pass ") }
            #expect(lines.count == 6 && lines.allSatisfy { $0.contains("throbber render ") && $0.contains(" --backend gl -o parity-repro") })
            let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
            #expect(report["seed"] as? Int == 11 && report["random"] as? Int == 3)
            reports.append(try #require(report["cases"] as? [[String: Any]]))
        }
        #expect(reports[0].count == 6)
        for (a, b) in zip(reports[0], reports[1]) {
            #expect(a["command"] as? String == b["command"] as? String)
            #expect(a["settings"] as? [String: String] == b["settings"] as? [String: String])
            #expect(a["index"] as? Int != nil && a["t"] as? Double == b["t"] as? Double)
        }
        // Another seed, other cases.
        let other = try runThrobber(["parity", "--random", "3", "--seed", "12", "--scenes", "ring,activity", "--quiet",
                                     "--json", directory.appendingPathComponent("other.json").path])
        let otherCases = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: directory.appendingPathComponent("other.json"))) as? [String: Any])["cases"] as? [[String: Any]]
        #expect(other.status == 0 && otherCases?.first?["command"] as? String != reports[0][0]["command"] as? String)
    }

    /// A failing random case's command, run, renders exactly the observed image; with
    /// `--backend cpu`, exactly the expected one. A zero bound makes llvmpipe's 1/255 rounding
    /// differences fail, so the failure path runs on real renderer output.
    @Test func aFailingCaseIsReproducedByItsCommand() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("fail"), json = directory.appendingPathComponent("parity.json")
        let result = try runThrobber(["parity", "--random", "3", "--seed", "1", "--scenes", "wave-ball", "--max-diff", "0",
                                      "--quiet", "--out", out.path, "--json", json.path])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        let failing = try #require((report["cases"] as? [[String: Any]])?.first { ($0["files"] as? [String]) != nil })
        let index = try #require(failing["index"] as? Int)
        let command = try #require(failing["command"] as? String)
        #expect(result.stdout.contains("FAIL wave-ball #\(index) @") && result.stdout.contains(command))
        let stem = "wave-ball_seed1_case\(index)"
        #expect(try listing(out).contains("\(stem)_observed.png"))
        for (backend, name) in [("gl", "observed"), ("cpu", "expected")] {
            let repro = directory.appendingPathComponent("repro-\(backend)")
            var arguments = try reproArguments(command, output: repro)
            arguments[try #require(arguments.firstIndex(of: "--backend")) + 1] = backend
            let render = try runThrobber(arguments)
            #expect(render.status == 0, "\(render.stderr)")
            let rendered = try PNGCodec.decode(Data(contentsOf: repro.appendingPathComponent("wave-ball_00000.png")))
            let saved = try PNGCodec.decode(Data(contentsOf: out.appendingPathComponent("\(stem)_\(name).png")))
            let same = rendered == saved  // not inside #expect, which would print every pixel
            #expect(same, "\(backend) repro of case \(index) differs from its \(name) image")
        }
    }

    /// Parity's `paths` scene (docs/parity.md): in the default scenes (the gallery in the matrix),
    /// drawn by random cases whose commands `render` takes, and not listed by `scenes`.
    @Test func pathCasesReachParityAndTheirCommandsRender() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let matrix = try runThrobber(["parity", "--dry-run", "--scales", "2", "--times", "2"])
        #expect(matrix.status == 0 && matrix.stdout.contains("paths @2x t=0 (192×192) — ") && matrix.stdout.contains("render paths --start 1 --scale 2"),
                "\(matrix.stdout)")
        let json = directory.appendingPathComponent("paths.json")
        let random = try runThrobber(["parity", "--random", "2", "--seed", "5", "--scenes", "paths", "--backend", "cpu", "--json", json.path])
        #expect(random.status == 0, "\(random.stdout)\(random.stderr)")
        let cases = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])["cases"] as? [[String: Any]]
        let command = try #require(cases?.first?["command"] as? String)
        #expect(command.contains(" render paths --start ") && command.contains("--set seed="), "\(command)")
        let repro = directory.appendingPathComponent("repro")
        let render = try runThrobber(try reproArguments(command, output: repro))
        let frames = try listing(repro)
        #expect(render.status == 0 && frames.contains("paths_00000.png"), "\(render.stderr)")
        let scenes = try runThrobber(["scenes"])
        #expect(scenes.status == 0 && !scenes.stdout.contains("paths"))
    }

    @Test func setFixesAParameterInEveryCase() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("matrix.json")
        let matrix = try runThrobber(["parity", "--scenes", "ring,progress-ring", "--scales", "1", "--times", "2", "--set", "thickness=5",
                                      "--set", "background=none", "--json", json.path])
        #expect(matrix.status == 0, "\(matrix.stdout)\(matrix.stderr)")
        let cases = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])["cases"] as? [[String: Any]]
        #expect(cases?.count == 4)
        #expect(cases?.allSatisfy { ($0["settings"] as? [String: String])?["thickness"] == "5" } == true)
        #expect(cases?.allSatisfy { ($0["command"] as? String)?.contains("--background none --set thickness=5") == true } == true)

        let random = try runThrobber(["parity", "--random", "4", "--scenes", "wave-ball,ring", "--set", "tickCount=6",
                                      "--set", "scale=2", "--at", "5"])
        #expect(random.status <= 1, "\(random.stdout)\(random.stderr)")
        #expect(random.stdout.contains("fixed: tickCount=6 scale=2"))
        let lines = random.stdout.split(separator: "\n").filter { $0.hasPrefix("pass ") || $0.hasPrefix("FAIL ") }
        #expect(lines.count == 8)
        for line in lines {
            #expect(line.contains("@2x t=5 ") && line.contains("--start 5 --scale 2 "), "\(line)")
            // tickCount is wave-ball's only.
            #expect(line.contains("--set tickCount=6") == line.contains(" wave-ball "), "\(line)")
        }
    }

    @Test func helpNamesTheRandomOptions() throws {
        let help = try runThrobber(["parity", "--help"])
        #expect(help.status == 0)
        for option in ["--random N", "--seed S", "--set NAME=VALUE", "--dry-run", "alpha is ≤ 1"] {
            #expect(help.stdout.contains(option), "\(option)")
        }
    }

    @Test func dryRunListsTheCasesWithoutRendering() throws {
        let result = try runThrobber(["parity", "--random", "2", "--seed", "11", "--scenes", "ring", "--dry-run"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("ring #0 @") && lines[1].hasPrefix("ring #1 @"), "\(result.stdout)")
        #expect(lines.allSatisfy { $0.contains("throbber render ring --start ") })
        #expect(!result.stdout.contains("GL_RENDERER"))
    }

    @Test func badRandomInputIsAUsageError() throws {
        let unknown = try runThrobber(["parity", "--random", "2", "--set", "tickCont=6"])
        #expect(unknown.status == 64 && unknown.stderr.contains("did you mean 'tickCount'"))
        #expect(try runThrobber(["parity", "--scenes", "ring", "--set", "tickCount=6"]).status == 64)
        #expect(try runThrobber(["parity", "--random", "2", "--set", "progress=3"]).stderr.contains("progress"))
        #expect(try runThrobber(["parity", "--seed", "3"]).status == 64)
        #expect(try runThrobber(["parity", "--random", "0"]).status == 64)
        #expect(try runThrobber(["parity", "--random", "2", "--seed", "-1"]).status == 64)
        #expect(try runThrobber(["parity", "--random", "2", "--times", "3"]).status == 64)
        #expect(try runThrobber(["parity", "--set", "scale=2", "--scales", "1"]).status == 64)
        let impossible = try runThrobber(["parity", "--random", "1", "--scenes", "wave-ball", "--set", "size=50", "--set", "scaleMargin=30"])
        #expect(impossible.status == 64 && impossible.stderr.contains("cannot draw a valid wave-ball case"))
    }

    /// With no GL backend to open, `parity` is a skip with the reason on one line and exit 69, not
    /// the CPU reference compared with itself and passed.
    @Test func parityWithoutGLIsSkippedWithTheReason() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("parity.json")
        let noGL = ["THROBBER_OSMESA_LIBRARY": "/nonexistent/libOSMesa.so.8", "THROBBER_EGL_LIBRARY": "/nonexistent/libEGL.so.1"]
        let result = try runThrobber(["parity", "--scenes", "ring", "--scales", "1", "--at", "0", "--json", json.path], environment: noGL)
        #expect(result.status == 69, "\(result.stdout)\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("throbber: parity skipped: no GL backend could be opened (")
                && lines[0].contains("libosmesa6"), "\(result.stderr)")
        #expect(!result.stdout.contains("passed"), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: json.path), "a skipped run wrote a report")
        // The CPU backend asked for by name is still compared with the reference.
        let cpu = try runThrobber(["parity", "--scenes", "ring", "--scales", "1", "--at", "0", "--backend", "cpu", "-q"], environment: noGL)
        #expect(cpu.status == 0 && cpu.stdout.contains("1 passed"), "\(cpu.stderr)")
    }
}
