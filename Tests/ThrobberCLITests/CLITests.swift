import Foundation
import Testing
import Throbber
import ThrobberCPU
import ThrobberPNG
import ThrobberTestSupport

/// The built `throbber` binary, run as a user would.
@Suite(.serialized)
struct CLITests {
    @Test func helpListsTheCommandsAndExitCodes() throws {
        let result = try runThrobber(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("render SCENE -o DIR"))
        #expect(result.stdout.contains("64 usage"))
        let render = try runThrobber(["render", "--help"])
        #expect(render.status == 0)
        #expect(render.stdout.contains("--frames N"))
        #expect(render.stdout.contains("--shader-dir"))
    }

    /// `throbber scenes` gives every scene's default loop, as text and as JSON.
    @Test func scenesListEachDefaultLoop() throws {
        let text = try runThrobber(["scenes"])
        #expect(text.status == 0, "\(text.stderr)")
        for line in ["canvas 300 × 300 pt, loops every 4 s by default (largest part speed change 1.30%)",
                     "canvas 375 × 200 pt, loops every 33.333 s by default (largest part speed change 0.53%)",
                     "canvas 375 × 24 pt, loops every 20 s by default (largest part speed change 1.30%)",
                     "canvas 84 × 84 pt, loops every 1 s by default (largest part speed change 0.00%)"] {
            #expect(text.stdout.contains(line), "\(line)")
        }
        let json = try runThrobber(["scenes", "--json"])
        let listings = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let loops = Dictionary(uniqueKeysWithValues: listings.map { ($0["id"] as! String, $0["loop"] as? [String: Double] ?? [:]) })
        let seconds = loops.mapValues { $0["seconds"] ?? -1 }
        #expect(seconds.count == SceneRegistry.ids.count && seconds.values.allSatisfy { $0 > 0 })
        #expect(seconds["wave-ball"] == 4 && seconds["pull-wave"] == 20 && abs(seconds["double-wave"]! - 100.0 / 3) < 1e-9)
        #expect(loops.values.allSatisfy { ($0["speedChangePercent"] ?? 99) <= LoopPlan.defaultMaxSpeedChange })
    }

    /// `scenes --json` is typed: numbers and integers as JSON numbers, colours as four numbers,
    /// an unset optional parameter as null with what it follows, ranges as bounds, choices as a
    /// list, and the rules between parameters.
    @Test func scenesJSONIsTyped() throws {
        let json = try runThrobber(["scenes", "--json"])
        let listings = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        func parameter(_ scene: String, _ name: String) throws -> [String: Any] {
            let listing = try #require(listings.first { $0["id"] as? String == scene })
            return try #require((listing["parameters"] as? [[String: Any]])?.first { $0["name"] as? String == name })
        }
        let ticks = try parameter("wave-ball", "tickCount")
        #expect(ticks["type"] as? String == "integer" && ticks["default"] as? Int == 100)
        let range = try #require(ticks["range"] as? [String: Any])
        #expect(range["min"] as? Double == 1 && range["max"] as? Double == 10_000 && range["minInclusive"] as? Bool == true)
        let colour = try parameter("wave-ball", "tickLit")
        let components = try #require(colour["default"] as? [Double])
        #expect(components.count == 4 && components.allSatisfy { (0...1).contains($0) })
        let ringColor = try parameter("ring", "ringColor")
        #expect(ringColor["default"] is NSNull && ringColor["optional"] as? Bool == true && ringColor["unset"] as? String == "style")
        #expect(try parameter("ring", "style")["choices"] as? [String] == ["light", "dark"])
        let hud = try parameter("ring", "hudSize")
        #expect((hud["range"] as? [String: Any])?["minInclusive"] as? Bool == false, "hudSize > 0")
        let waveBall = try #require(listings.first { $0["id"] as? String == "wave-ball" })
        #expect((waveBall["relations"] as? [String])?.first?.contains("size >") == true)
        // No default is a string but a choice's, a text's or a pair's (`390x844`, `0,-40`).
        let pair = try parameter("hud", "screen")
        #expect(pair["type"] as? String == "size" && pair["default"] is NSNull && pair["unset"] as? String == "none")
        #expect(try parameter("hud", "offset")["default"] as? String == "0,0")
        for listing in listings {
            for p in listing["parameters"] as? [[String: Any]] ?? [] where !["choice", "text", "size", "offset"].contains(p["type"] as? String) {
                #expect(!(p["default"] is String), "\(listing["id"]!) \(p["name"]!)")
            }
        }
    }

    @Test func versionPrintsTheVersion() throws {
        let result = try runThrobber(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "throbber \(throbberVersion)\n")
    }

    @Test(arguments: ["gl", "cpu"])
    func renderWritesNumberedPNGsThatMatchTheReference(backend: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try runThrobber(["render", "wave-ball", "-o", directory.path, "--frames", "3", "--fps", "10",
                                      "--start", "1", "--scale", "0.5", "--backend", backend, "--set", "tickCount=60",
                                      "--progress", "0.8"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try listing(directory) == ["wave-ball_00000.png", "wave-ball_00001.png", "wave-ball_00002.png"])
        var model = WaveBall()
        model.tickCount = 60
        model.progress = 0.8
        let scene = try LaidOutScene(Scene(model, scale: 0.5))
        for k in 0..<3 {
            let data = try Data(contentsOf: directory.appendingPathComponent(String(format: "wave-ball_%05d.png", k)))
            let image = try PNGCodec.decode(data)
            let expected = CPURenderer().render(scene.drawList(at: 1 + Double(k) / 10))
            let diff = ImageDiff(expected: expected, observed: image, tolerance: 2)
            #expect(diff.pixelsOverTolerance == 0, "frame \(k): \(diff.failureLines)")
            let text = Dictionary(try PNGCodec.textChunks(data), uniquingKeysWith: { a, _ in a })
            #expect(text["Throbber:scene"] == "wave-ball")
            #expect(text["Throbber:time"] == formatNumber(1 + Double(k) / 10))
            #expect(text["Throbber:parameters"]?.contains("tickCount=60") == true)
        }
    }

    @Test(arguments: [
        (["render", "wave-bal", "-o", "X"], "did you mean 'wave-ball'"),
        (["render", "wave-ball", "-o", "X", "--set", "tickCont=3"], "did you mean 'tickCount'"),
        (["render", "wave-ball", "-o", "X", "--set", "progress=nan"], "invalid progress 'nan'"),
        (["render", "wave-ball", "-o", "X", "--progress", "1.5"], "invalid progress '1.5': a number in [0, 1]"),
        (["render", "wave-ball", "-o", "X", "--set", "size=0"], "invalid size '0'"),
        (["render", "wave-ball", "-o", "X", "--set", "size=-5"], "invalid size '-5'"),
        (["render", "wave-ball", "-o", "X", "--fps", "0"], "invalid --fps '0'"),
        (["render", "wave-ball", "-o", "X", "--frames", "0"], "invalid --frames '0'"),
        (["render", "wave-ball", "-o", "X", "--scale", "-1"], "invalid scale '-1'"),
        (["render", "wave-ball", "-o", "X", "--backend", "vulkan"], "invalid --backend 'vulkan'"),
        (["render", "wave-ball", "-o", "X", "--fsp", "3"], "did you mean '--fps'"),
        (["render", "wave-ball", "-o", "X", "--set", "size=20000"], "20000 px"),
        (["render", "wave-ball", "-o", "X", "--scale", "60"], "18000 px"),
        (["render", "wave-ball", "-o", "X", "--png-encoder", "pigz"], "invalid --png-encoder 'pigz': one of auto, libpng, libdeflate, isal, zlib, fast, small"),
        (["render", "wave-ball", "-o", "X", "--png-encoder", "isal", "--png-level", "4"], "invalid --png-level '4': an integer in [0, 3]"),
        (["render", "wave-ball", "-o", "X", "--png-encoder", "libdeflate", "--png-level", "13"], "invalid --png-level '13': an integer in [0, 12]"),
        (["render", "wave-ball", "-o", "X", "--png-level", "-1"], "invalid --png-level '-1': an integer in [0, 12]"),
        (["render", "wave-ball", "-o", "X", "--png-encoder", "fast", "--png-level", "1"], "invalid --png-level '1': no level with 'fast'"),
        (["render", "wave-ball"], "-o DIR"),
        (["rendr"], "did you mean 'render'"),
    ])
    func badInputIsOneLineAndExit64(arguments: [String], expected: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out").path
        let result = try runThrobber(arguments.map { $0 == "X" ? output : $0 })
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(expected), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output), "a rejected command created its output")
    }

    @Test func unwritableOutputIsExit73() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        let result = try runThrobber(["render", "wave-ball", "-o", file.appendingPathComponent("sub").path, "--backend", "cpu"])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.contains(file.path))
    }

    @Test func existingFramesAreNotOverwrittenWithoutTheFlag() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appendingPathComponent("wave-ball_00001.png")
        try Data("keep me".utf8).write(to: first)
        let refused = try runThrobber(["render", "wave-ball", "-o", directory.path, "--frames", "3", "--backend", "cpu"])
        #expect(refused.status == 73, "\(refused.stderr)")
        #expect(refused.stderr.contains("--overwrite"))
        #expect(try listing(directory) == ["wave-ball_00001.png"], "nothing else may be written")
        #expect(try Data(contentsOf: first) == Data("keep me".utf8))
        let replaced = try runThrobber(["render", "wave-ball", "-o", directory.path, "--frames", "3", "--backend", "cpu",
                                        "--overwrite", "--quiet"])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(replaced.stderr.isEmpty)
        #expect(try listing(directory) == ["wave-ball_00000.png", "wave-ball_00001.png", "wave-ball_00002.png"])
        #expect(try PNGCodec.decode(Data(contentsOf: first)).width == 300)
    }

    @Test func missingOSMesaNamesThePackageAndCPUStillWorks() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["THROBBER_OSMESA_LIBRARY": "/nonexistent/libOSMesa.so.8"]
        let gl = try runThrobber(["render", "wave-ball", "-o", directory.path, "--backend", "gl"], environment: environment)
        #expect(gl.status == 69, "\(gl.stderr)")
        #expect(gl.stderr.contains("libosmesa6"))
        #expect(try listing(directory).isEmpty)
        let cpu = try runThrobber(["render", "wave-ball", "-o", directory.path, "--backend", "cpu"], environment: environment)
        #expect(cpu.status == 0, "\(cpu.stderr)")
        #expect(try listing(directory) == ["wave-ball_00000.png"])
    }

    @Test func brokenShaderDirectoryReportsTheFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let shaders = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Shaders")
        let copy = directory.appendingPathComponent("shaders")
        try FileManager.default.copyItem(at: shaders, to: copy)
        let layers = copy.appendingPathComponent("layers.frag")
        try String(contentsOf: layers, encoding: .utf8).replacingOccurrences(of: "resolvePixel(dst)", with: "resolvePixe(dst)")
            .write(to: layers, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("out")
        let result = try runThrobber(["render", "wave-ball", "-o", output.path, "--shader-dir", copy.path])
        #expect(result.status == 70, "\(result.stderr)")
        #expect(result.stderr.contains("layers.frag"))
        #expect(result.stderr.contains("resolvePixe"))
        // The shaders are checked before anything is written: not even the directory is made.
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}

/// `throbber info` and backend selection.
@Suite(.serialized)
struct InfoTests {
    @Test func infoListsBackendsAndWhyNot() throws {
        let result = try runThrobber(["info", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let entries = try #require(report["entries"] as? [[String: Any]])
        let osmesa = try #require(entries.first { $0["backend"] as? String == "gl" })
        #expect(osmesa["available"] as? Bool == true)
        #expect((osmesa["renderer"] as? String)?.isEmpty == false)
        #expect((osmesa["maxCanvasSide"] as? Int ?? 0) >= 4096)
        #expect(entries.contains { $0["backend"] as? String == "cpu" && $0["available"] as? Bool == true })
        #expect((report["auto"] as? String)?.isEmpty == false)

        let withoutEGL = try runThrobber(["info"], environment: ["THROBBER_EGL_LIBRARY": "/nonexistent/libEGL.so.1"])
        #expect(withoutEGL.status == 0)
        #expect(withoutEGL.stdout.contains("no    egl"))
        #expect(withoutEGL.stdout.contains("libegl1"))
        let nothing = try runThrobber(["info"], environment: ["THROBBER_EGL_LIBRARY": "/nonexistent/libEGL.so.1",
                                                              "THROBBER_OSMESA_LIBRARY": "/nonexistent/libOSMesa.so.8"])
        #expect(nothing.stdout.contains("--backend auto picks cpu"), "\(nothing.stdout)")
    }

    /// Issue 17.5: under `taskset -c 0` (a 1-CPU Slurm task) the process may use one CPU, and
    /// says why; the CPU renderer then runs one thread unless `--threads` says otherwise.
    @Test func infoReportsTheCPUsTheAffinityMaskAllows() throws {
        let pinned = try runThrobber(["info", "--json"], launcher: ["taskset", "-c", "0"])
        #expect(pinned.status == 0, "\(pinned.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(pinned.stdout.utf8)) as? [String: Any])
        let cpus = try #require(report["cpus"] as? [String: Any], "\(pinned.stdout)")
        #expect(cpus["usable"] as? Int == 1, "\(cpus)")
        #expect(cpus["affinity"] as? Int == 1, "\(cpus)")
        let online = try #require(cpus["online"] as? Int)
        #expect(cpus["limit"] as? String == (online > 1 ? "affinity" : "online CPUs"), "\(cpus)")
        let cpu = (report["entries"] as? [[String: Any]])?.first { $0["backend"] as? String == "cpu" }
        #expect(cpu?["renderer"] as? String == "Throbber CPU reference (1 threads)", "\(String(describing: cpu))")
        let text = try runThrobber(["info"], launcher: ["taskset", "-c", "0"])
        #expect(text.stdout.contains("CPUs: 1 usable"), "\(text.stdout)")

        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let render = try runThrobber(["render", "ring", "--backend", "cpu", "--threads", "3", "-o", directory.path],
                                     launcher: ["taskset", "-c", "0"])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stderr.contains("Throbber CPU reference (3 threads)"), "\(render.stderr)")
    }

    /// `auto` is the fastest backend: a GPU where EGL opens one, else the CPU renderer (never
    /// llvmpipe, which it outdraws); `parity`, whose point is GL, still gets software GL.
    @Test func autoTakesAGPUElseTheCPURenderer() throws {
        let result = try runThrobber(["info", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let entries = try #require(report["entries"] as? [[String: Any]])
        let gpu = entries.contains { entry in
            (entry["backend"] as? String)?.hasPrefix("egl --device") == true && entry["available"] as? Bool == true
                && ((entry["device"] as? [String: Any])?["extensions"] as? [String])?.contains("EGL_MESA_device_software") == false
        }
        let auto = try #require(report["auto"] as? String)
        let forGL = try #require(report["autoForGL"] as? String)
        if gpu {
            #expect(auto.hasPrefix("egl: ") && auto.contains("a GPU through EGL"), "\(auto)")
        } else {
            #expect(auto.hasPrefix("cpu: ") && auto.contains("the CPU renderer draws these scenes faster"), "\(auto)")
            #expect(forGL.hasPrefix("gl: ") || forGL.hasPrefix("egl: "), "\(forGL)")
        }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let render = try runThrobber(["render", "ring", "-o", directory.path])
        #expect(render.status == 0 && render.stderr.contains(gpu ? "[auto: a GPU through EGL]" : "[auto: no GPU opened through EGL"),
                "\(render.stderr)")
        let parity = try runThrobber(["parity", "--scenes", "ring", "--scales", "1", "--at", "0"])
        #expect(parity.status == 0 && parity.stdout.hasPrefix("parity: " + (gpu ? "egl" : "gl")), "\(parity.stdout)")
    }

    @Test func autoSaysWhichBackendItChose() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try runThrobber(["render", "ring", "-o", directory.path],
                                     environment: ["THROBBER_OSMESA_LIBRARY": "/nonexistent/libOSMesa.so.8"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("egl: ") || result.stderr.contains("cpu: "), "\(result.stderr)")
        let wrong = try runThrobber(["render", "ring", "-o", directory.path, "--backend", "gl", "--device", "1"])
        #expect(wrong.status == 64)
    }
}
