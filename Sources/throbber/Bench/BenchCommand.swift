import Foundation
import Throbber
import ThrobberCPU
import ThrobberGL
import ThrobberPNG
import ThrobberDigest

/// `throbber bench`: throughput stage by stage, with the ceilings measured in the same run.
enum BenchCommand: Subcommand {
    static let help = """
        USAGE: throbber bench [options]

        Times each stage per scene × size × backend — render (until the driver is done), readback,
        frame (render + readback), PNG encode, SHA-256 of the PNG file as the manifest records
        it (hash; beside it the SHA-256 of the pixels, for comparison), write, and the
        end-to-end pipeline (`batch`: render, encode, hash and write on every core) — with
        min/median/max ms per frame, frames/s, Mpix/s and the process's CPU time per frame (every
        thread, user + system). Ceilings measured in the same run put a ratio beside each figure:
        memory copy of a frame (readback), GL clear + readback (frame), libpng encoding on all
        cores (pipeline). A budget table adds up what the pipeline's parts cost in CPU time alone
        and the best ratio to the encode ceiling that leaves.
        A least-squares fit ms = overhead + cost·Mpix per scene, backend and stage shows per-frame
        overhead; a frames-per-job sweep shows start-up (context, shader compile) is paid once.
        Release builds only: a debug build's figures mean nothing.

        OPTIONS:
          --scenes all|A,B       scenes to measure (default wave-ball)
          --sizes N,…            canvas sizes: the longer side in px (default 64,128,256,512,1024)
          --backends gl,cpu      backends to measure (default gl,cpu)
          --stages S,…           render,readback,frame,frame1,async,encode,hash,write,pipeline
                                 (default all); frame renders GL frames as render and batch do,
                                 a stack of frames per draw and per readback (a sample is a
                                 stack's time per frame); frame1 one frame per draw; async is
                                 render + readback through a ring of pixel-buffer objects mapped
                                 a frame late (GL backends), against frame1
          --device N             with egl: EGL device N (see `throbber info`)
          --frames N             frames per sample set (default 60)
          --repeat R             sample sets per stage (default 3)
          --warmup W             frames rendered before timing (default 5)
          --png-encoder NAME     the encoder of encode/write/pipeline and their ceilings, and
          --png-level L          its level, as render takes them (default libdeflate 1)

        The pipeline stage is `throbber batch` itself on a job of the same frames (render, PNG with
        tEXt chunks, SHA-256 of the file, atomic write, manifest); its ceiling encodes the same
        frames with the same settings on every core and does nothing else, sampled right before
        each pipeline repeat; the ratio is the median over repeats of each repeat's frames/s over
        its own ceiling sample's. Frames are rendered in time order, as a batch renders them:
        the CPU renderer keeps the rows an earlier frame drew from the same things and paints the
        rest; its rows say what share of row bands it painted.
          --no-startup           skip the frames-per-job sweep
          --png-sweep            instead: encode time and file size of every PNG encoder × level ×
                                 row filter on 4 frames (--frames, at most 4) of each scene (all
                                 unless --scenes) at 64, 512 and 1024 px (or --sizes), and the two
                                 settings chosen by rule: the default (the fastest whose files are
                                 no larger than libpng 6 adaptive's at every size) and the smallest
          --json FILE            write the full report as JSON
          --plot FILE.svg        write frames/s against pixel count (log–log)
          --baseline OLD.json    compare each figure with a run saved by --json: its change and
                                 a verdict (faster / slower / within noise) from the spread of
                                 both runs' repeats
          --allow-debug          run from a debug build anyway (figures are marked)
          -h, --help             show this help
        """

    static let options = PNGOptions.specs + [
        OptionSpec("--scenes"), OptionSpec("--sizes"), OptionSpec("--backends"), OptionSpec("--stages"),
        OptionSpec("--device"), OptionSpec("--frames"), OptionSpec("--repeat"), OptionSpec("--warmup"),
        OptionSpec("--no-startup", value: false), OptionSpec("--png-sweep", value: false), OptionSpec("--json"), OptionSpec("--plot"), OptionSpec("--baseline"),
        OptionSpec("--allow-debug", value: false),
    ]

    static let allStages = ["render", "readback", "frame", "frame1", "async", "encode", "hash", "write", "pipeline"]

    struct Settings {
        var scenes: [String]
        var sizes: [Int]
        var backends: [Backend]
        var stages: Set<String>
        var frames: Int
        var repeats: Int
        var warmup: Int
        /// The encoder of the encode, write and pipeline stages and their ceilings.
        var png: PNGEncoder
        var startup: Bool
        var device: Int?
    }

    static func execute(_ arguments: ParsedArguments) throws {
        var configuration = "release"
        #if DEBUG
        configuration = "debug"
        guard arguments.has("--allow-debug") else {
            throw ThrobberError("bench refuses to time a debug build; build with `swift build -c release` and run "
                                + ".build/release/throbber bench (or pass --allow-debug)", exitCode: .usage)
        }
        #endif
        guard arguments.positionals.isEmpty else {
            throw ThrobberError("bench takes no positional arguments: \(arguments.positionals.joined(separator: " "))", exitCode: .usage)
        }
        let settings = try parse(arguments)
        // Read before measuring: a bad baseline is an error in a second, not after the run.
        let baseline = try arguments.value("--baseline").map { try BenchBaseline(path: $0) }
        #if DEBUG
        // After the options are checked, so a usage error stays one line.
        FileHandle.standardError.write(Data("throbber bench: WARNING: this is a DEBUG build; its figures are not representative\n".utf8))
        #endif
        if arguments.has("--png-sweep") {
            try PNGSweep.run(settings, scenesGiven: arguments.value("--scenes") != nil,
                             sizesGiven: arguments.value("--sizes") != nil, jsonPath: arguments.value("--json"))
            return
        }
        let jsonPath = arguments.value("--json")
        let plotPath = arguments.value("--plot")
        for path in [jsonPath, plotPath].compactMap({ $0 }) {
            try AtomicFile.prepareDirectory(URL(fileURLWithPath: path).deletingLastPathComponent())
        }
        var report = try measure(settings, configuration: configuration)
        report.fits = fits(report.rows)
        print(report.markdown, terminator: "")
        if let baseline {
            print(baseline.markdown(report, baseline.compare(report)), terminator: "")
        }
        if let jsonPath {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try AtomicFile.write(try encoder.encode(report), to: URL(fileURLWithPath: jsonPath), overwrite: true)
        }
        if let plotPath {
            try AtomicFile.write(Data(report.svg.utf8), to: URL(fileURLWithPath: plotPath), overwrite: true)
        }
    }

    static func parse(_ arguments: ParsedArguments) throws -> Settings {
        /// A comma-separated list option; an empty list is a usage error (every list names
        /// something to measure, and the bench indexes its first entry).
        func list(_ name: String, _ fallback: String) throws -> [String] {
            let items = (arguments.value(name) ?? fallback).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard !items.isEmpty, !items.contains(where: \.isEmpty) else {
                throw ThrobberError.invalid(name, arguments.value(name) ?? fallback, allowed: "a non-empty comma-separated list, e.g. \(fallback)")
            }
            return items
        }
        var scenes = try list("--scenes", "wave-ball")
        if scenes == ["all"] { scenes = SceneRegistry.ids }
        for id in scenes where !SceneRegistry.ids.contains(id) {
            throw ThrobberError.unknown("scene", id, known: SceneRegistry.ids)
        }
        let sizes = try list("--sizes", "64,128,256,512,1024").map { text -> Int in
            guard let size = Int(text), (1...Scene.maximumPixelSide).contains(size) else {
                throw ThrobberError.invalid("--sizes", text, allowed: "integers in [1, \(Scene.maximumPixelSide)], comma-separated")
            }
            return size
        }
        let backends = try list("--backends", "gl,cpu").map { text -> Backend in
            guard let backend = Backend(rawValue: text) else {
                throw ThrobberError.invalid("--backends", text, allowed: Backend.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return backend
        }
        let stages = try list("--stages", allStages.joined(separator: ",")).map { text -> String in
            guard allStages.contains(text) else {
                throw ThrobberError.invalid("--stages", text, allowed: allStages.joined(separator: ", "))
            }
            return text
        }
        return Settings(scenes: scenes, sizes: sizes, backends: backends, stages: Set(stages),
                        frames: try arguments.integer("--frames", default: 60, range: 1...100_000),
                        repeats: try arguments.integer("--repeat", default: 3, range: 1...1000),
                        warmup: try arguments.integer("--warmup", default: 5, range: 0...10_000),
                        png: try PNGOptions.encoder(arguments),
                        startup: !arguments.has("--no-startup"),
                        device: try arguments.value("--device").map { _ in try arguments.integer("--device", default: 0, range: 0...1024) })
    }

    /// The scene `id` scaled so its longer side is `size` px.
    static func scene(_ id: String, size: Int) throws -> Scene {
        let model = try SceneRegistry.model(id)
        let longer = max(model.canvasSize.width, model.canvasSize.height)
        let scene = Scene(model, scale: Double(size) / longer)
        try scene.validate()
        return scene
    }

    static let encodeCeilingName = "png encode, all cores"

    /// The share of the row bands the CPU renderer painted between two readings of its
    /// statistics (nil when it rendered none).
    static func paintedShare(from before: ReuseStatistics, to after: ReuseStatistics) -> Double? {
        let painted = after.paintedBands - before.paintedBands
        let total = painted + after.keptBands - before.keptBands + after.copiedBands - before.copiedBands
        return total > 0 ? Double(painted) / Double(total) : nil
    }

    static func measure(_ settings: Settings, configuration: String) throws -> BenchReport {
        let clock = ContinuousClock()
        func milliseconds(_ body: () throws -> Void) rethrows -> Double {
            let start = clock.now
            try body()
            return (clock.now - start).seconds * 1000
        }
        /// Runs `body` and returns the CPU time the whole process spent meanwhile (user + system,
        /// every thread: llvmpipe's and the encoders' too), in ms.
        func cpuMilliseconds(_ body: () throws -> Void) rethrows -> Double {
            let start = processCPUSeconds()
            try body()
            return (processCPUSeconds() - start) * 1000
        }
        let renderers = try settings.backends.map { try FrameRenderer($0, device: $0 == .egl ? settings.device : nil, shaderDirectory: nil) }
        let gl = renderers.compactMap(\.glRenderer).first
        var report = BenchReport(method: methodInfo(settings, gl: gl?.info, configuration: configuration))
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("throbber-bench-\(getpid())")
        try AtomicFile.prepareDirectory(scratch)
        // Removed however the bench ends: a signal outside its batch stage exits at once.
        let scratchUndo = InFlightFiles.shared.register(undo: { [path = scratch.path] in try? FileManager.default.removeItem(atPath: path) })
        defer {
            try? FileManager.default.removeItem(at: scratch)
            InFlightFiles.shared.finished(scratchUndo)
        }

        for id in settings.scenes {
            for size in settings.sizes {
                let scene = try scene(id, size: size)
                let (width, height) = scene.pixelSize
                let megapixels = Double(width * height) / 1e6
                let lists = (0..<settings.frames).map { scene.drawList(at: Double($0) / 60) }
                var buffer = [UInt8](repeating: 0, count: width * height * 4)
                var reference: [Image] = []
                var ceilings: [String: Double] = [:]

                func addRow(_ backend: String, _ stage: String, _ samples: [Double], _ checksum: UInt64, ceiling: String? = nil,
                            ratioToCeiling: Double? = nil, cpuMs: Double? = nil, paintedBands: Double? = nil) {
                    let summary = Summary(samples)
                    let fps = 1000 / summary.median
                    let ratio = ratioToCeiling ?? ceiling.flatMap { ceilings[$0] }.map { fps / $0 }
                    // The samples come in repeat order: each repeat's share is one sample set.
                    let perRepeat = max(1, samples.count / settings.repeats)
                    let repeatMedians = stride(from: 0, to: samples.count, by: perRepeat).map {
                        Summary(Array(samples[$0..<min(samples.count, $0 + perRepeat)])).median
                    }
                    report.rows.append(.init(scene: id, size: size, width: width, height: height, megapixels: megapixels,
                                             backend: backend, stage: stage, ms: summary, framesPerSecond: fps,
                                             megapixelsPerSecond: fps * megapixels, ceiling: ratio == nil ? nil : ceiling,
                                             ratioToCeiling: ratio, cpuMs: cpuMs, paintedBands: paintedBands, checksum: checksum,
                                             repeatMedians: Array(repeatMedians.prefix(settings.repeats))))
                }
                func addCeiling(_ name: String, _ samples: [Double], cpuMs: Double? = nil) {
                    let summary = Summary(samples)
                    ceilings[name] = 1000 / summary.median
                    report.ceilings.append(.init(name: name, size: size, width: width, height: height, ms: summary,
                                                 framesPerSecond: 1000 / summary.median, cpuMs: cpuMs))
                }

                // Ceilings first, so every stage can be set against them.
                var source = [UInt8](repeating: 7, count: buffer.count)
                var copies: [Double] = []
                for _ in 0..<(settings.frames * settings.repeats) {
                    copies.append(milliseconds { buffer.withUnsafeMutableBytes { out in source.withUnsafeBytes { out.copyMemory(from: $0) } } })
                    source[copies.count % source.count] &+= 1
                }
                addCeiling("memcpy", copies)
                // Each GL backend's own floor: clear + readback with no drawing.
                for renderer in renderers {
                    guard let gl = renderer.glRenderer else { continue }
                    var floor: [Double] = []
                    for _ in 0..<(settings.frames * settings.repeats) {
                        floor.append(try milliseconds { try buffer.withUnsafeMutableBytes { try gl.clearAndReadBack(width: width, height: height, into: $0.baseAddress!) } })
                    }
                    addCeiling("\(renderer.backend.rawValue) clear+readback", floor)
                }
                let referenceRenderer = renderers.first!
                reference = try lists.map { try referenceRenderer.render($0) }
                // The encoder alone on every core over the same frames: the pipeline's ceiling.
                var encodeCeilingCPU = 0.0
                func encodeCeilingSample() -> Double {
                    let images = reference
                    let png = settings.png
                    var wall = 0.0
                    encodeCeilingCPU += cpuMilliseconds {
                        wall = milliseconds {
                            DispatchQueue.concurrentPerform(iterations: images.count) { index in
                                _ = try? png.encode(images[index])
                            }
                        }
                    }
                    return wall / Double(images.count)
                }
                // With the pipeline stage, the ceiling is sampled right before each pipeline repeat
                // instead (below), so drift in the machine's speed hits both alike.
                var encodeCeilingSamples: [Double] = []
                var pipelineRenderCpuMs: [String: Double] = [:]
                if settings.stages.contains("encode") && !settings.stages.contains("pipeline") {
                    let samples = (0..<settings.repeats).map { _ in encodeCeilingSample() }
                    addCeiling(encodeCeilingName, samples, cpuMs: encodeCeilingCPU / Double(samples.count * reference.count))
                }

                // Backend-independent stages: encode and write, one thread.
                var encoded: [Data] = []
                if settings.stages.contains("encode") {
                    var samples: [Double] = []
                    var checksum: UInt64 = 0
                    let cpu = try cpuMilliseconds {
                        for _ in 0..<settings.repeats {
                            encoded = []
                            for image in reference {
                                var data = Data()
                                samples.append(try milliseconds { data = try settings.png.encode(image) })
                                checksum &+= UInt64(data.count)
                                encoded.append(data)
                            }
                        }
                    }
                    addRow("png", "encode", samples, checksum, cpuMs: cpu / Double(samples.count))
                }
                if settings.stages.contains("hash") {
                    // The manifest's SHA-256 of each frame's file ("sha256"), one thread, beside
                    // the SHA-256 of its pixels that manifests recorded before ("sha256 pixels").
                    if encoded.isEmpty { encoded = try reference.map { try settings.png.encode($0) } }
                    for (name, inputs) in [("sha256", encoded), ("sha256 pixels", reference.map { Data($0.pixels) })] {
                        var samples: [Double] = []
                        var checksum: UInt64 = 0
                        let cpu = cpuMilliseconds {
                            for _ in 0..<settings.repeats {
                                for data in inputs {
                                    var digest = ""
                                    samples.append(milliseconds { digest = PixelDigest.sha256Hex(data) })
                                    checksum &+= UInt64(digest.utf8.first ?? 0)
                                }
                            }
                        }
                        addRow(name, "hash", samples, checksum, cpuMs: cpu / Double(samples.count))
                    }
                }
                if settings.stages.contains("write") {
                    if encoded.isEmpty { encoded = try reference.map { try settings.png.encode($0) } }
                    var samples: [Double] = []
                    // New files, as a batch makes them: unnamed (O_TMPFILE), then linked to the final name.
                    let cpu = try cpuMilliseconds {
                        for repeatIndex in 0..<settings.repeats {
                            for (index, data) in encoded.enumerated() {
                                let file = scratch.appendingPathComponent("w-\(id)-\(size)-\(repeatIndex)-\(index).png")
                                samples.append(try milliseconds { try AtomicFile.write(data, to: file, overwrite: false) })
                            }
                        }
                    }
                    addRow("file", "write", samples, UInt64(encoded.map(\.count).reduce(0, +)), cpuMs: cpu / Double(samples.count))
                }

                for renderer in renderers {
                    let name = renderer.backend.rawValue
                    for list in lists.prefix(settings.warmup) { _ = try renderer.render(list) }
                    var checksum: UInt64 = 0
                    if let gl = renderer.glRenderer {
                        if settings.stages.contains("render") {
                            var samples: [Double] = []
                            for _ in 0..<settings.repeats {
                                for list in lists { samples.append(try milliseconds { try gl.draw(list); gl.finish() }) }
                            }
                            addRow(name, "render", samples, 0)
                        }
                        if settings.stages.contains("readback") {
                            var samples: [Double] = []
                            for _ in 0..<settings.repeats {
                                for list in lists {
                                    try gl.draw(list)
                                    gl.finish()
                                    samples.append(milliseconds { buffer.withUnsafeMutableBytes { gl.readBack(into: $0.baseAddress!) } })
                                    checksum &+= UInt64(buffer[buffer.count / 2])
                                }
                            }
                            addRow(name, "readback", samples, checksum, ceiling: "memcpy")
                        }
                        if settings.stages.contains("frame") {
                            // As render and batch draw them: stacks of frames, one draw and one
                            // readback each; a sample is a stack's time per frame.
                            var samples: [Double] = []
                            let stack = gl.framesPerDraw(width: lists[0].width, height: lists[0].height)
                            var frames = 0
                            let cpu = try cpuMilliseconds {
                                for _ in 0..<settings.repeats {
                                    for first in stride(from: 0, to: lists.count, by: stack) {
                                        let chunk = Array(lists[first..<min(lists.count, first + stack)])
                                        var images: [Image] = []
                                        samples.append(try milliseconds { images = try gl.render(chunk) } / Double(chunk.count))
                                        for image in images { checksum &+= UInt64(image.pixels[image.pixels.count / 2]) }
                                        frames += chunk.count
                                    }
                                }
                            }
                            addRow(name, "frame", samples, checksum, ceiling: "\(name) clear+readback", cpuMs: cpu / Double(frames))
                        }
                        if settings.stages.contains("frame1") {
                            var samples: [Double] = []
                            let cpu = try cpuMilliseconds {
                                for _ in 0..<settings.repeats {
                                    for list in lists {
                                        samples.append(try milliseconds { try buffer.withUnsafeMutableBytes { try gl.render(list, into: $0.baseAddress!) } })
                                        checksum &+= UInt64(buffer[buffer.count / 2])
                                    }
                                }
                            }
                            addRow(name, "frame1", samples, checksum, ceiling: "\(name) clear+readback", cpuMs: cpu / Double(samples.count))
                        }
                        if settings.stages.contains("async") {
                            var samples: [Double] = []
                            for _ in 0..<settings.repeats {
                                samples.append(try milliseconds {
                                    for list in lists {
                                        if let image = try gl.renderPipelined(list) { checksum &+= UInt64(image.pixels[image.pixels.count / 2]) }
                                    }
                                    for image in try gl.drainPipelined() { checksum &+= UInt64(image.pixels[image.pixels.count / 2]) }
                                } / Double(lists.count))
                            }
                            addRow(name, "async", samples, checksum, ceiling: "\(name) clear+readback")
                        }
                    } else if let cpu = renderer.cpuRenderer, !settings.stages.isDisjoint(with: ["render", "frame"]) {
                        var samples: [Double] = []
                        let reuseBefore = cpu.reuseStatistics
                        let cpuTime = cpuMilliseconds {
                            for _ in 0..<settings.repeats {
                                for list in lists {
                                    var image: Image?
                                    samples.append(milliseconds { image = cpu.render(list) })
                                    // One byte, as for GL: a whole-image checksum would cost more CPU than the render.
                                    checksum &+= UInt64(image!.pixels[image!.pixels.count / 2])
                                }
                            }
                        }
                        // The CPU renderer writes straight into memory: render and frame are one stage.
                        let cpuMs = cpuTime / Double(samples.count)
                        let painted = paintedShare(from: reuseBefore, to: cpu.reuseStatistics)
                        if settings.stages.contains("render") { addRow(name, "render", samples, checksum, cpuMs: cpuMs, paintedBands: painted) }
                        if settings.stages.contains("frame") { addRow(name, "frame", samples, checksum, cpuMs: cpuMs, paintedBands: painted) }
                        // The pipeline renders on fewer threads (its encoders keep the cores busy);
                        // its budget takes the CPU time a frame costs that way.
                        let pipelineThreads = BatchRun.renderThreads(encoders: ProcessInfo.processInfo.activeProcessorCount)
                        if settings.stages.contains("pipeline") && pipelineThreads != cpu.threadCount {
                            pipelineRenderCpuMs[name] = cpuMilliseconds {
                                for list in lists { checksum &+= UInt64(cpu.render(list, threads: pipelineThreads).pixels[list.width * 2]) }
                            } / Double(lists.count)
                        }
                    }
                    if settings.stages.contains("pipeline") {
                        // The real thing: `throbber batch` on a job of these frames, manifest and all.
                        var samples: [Double] = []
                        var ceilingSamples: [Double] = []
                        var pipelineCPU = 0.0
                        let reuseBefore = renderer.cpuRenderer?.reuseStatistics
                        for repeatIndex in 0..<settings.repeats {
                            ceilingSamples.append(encodeCeilingSample())
                            let directory = scratch.appendingPathComponent("pipeline-\(name)-\(id)-\(size)-\(repeatIndex)")
                            let jobFile = directory.appendingPathComponent("job.json")
                            try AtomicFile.prepareDirectory(directory)
                            let text = """
                                {"pngEncoder": "\(settings.png.name)", "renders": [{"scene": "\(id)", "scale": \(scene.scale), "frames": \(settings.frames), "fps": 60,
                                  "outputs": [{"type": "png", "pattern": "f/%05d.png", "level": \(settings.png.level)}]}]}
                                """
                            try AtomicFile.write(Data(text.utf8), to: jobFile, overwrite: true)
                            let job = try Job.load(path: jobFile.path, backends: Backend.allCases.map(\.rawValue))
                            let run = try BatchRun(job: job, shard: .whole, backend: renderer.backend, overwrite: false, skipExisting: false,
                                                   threads: ProcessInfo.processInfo.activeProcessorCount,
                                                   manifestPath: directory.appendingPathComponent("job.manifest.json").path,
                                                   progress: false, quiet: true)
                            pipelineCPU += try cpuMilliseconds {
                                samples.append(try milliseconds { try run.execute(renderer: renderer) } / Double(settings.frames))
                            }
                            // The files stay until the end: deleting them here would make the next
                            // repeat pay for it (ext4 without a journal scans recently freed inodes
                            // on every file it creates: 4 % of a run in `perf`).
                        }
                        encodeCeilingSamples += ceilingSamples
                        addRow(name, "pipeline", samples, 0, ceiling: encodeCeilingName,
                               // Each repeat against the ceiling sampled just before it: the machine's
                               // drift between repeats cancels out of the ratio.
                               ratioToCeiling: Summary(zip(ceilingSamples, samples).map { $0 / $1 }).median,
                               cpuMs: pipelineCPU / Double(settings.repeats * settings.frames),
                               paintedBands: reuseBefore.flatMap { before in renderer.cpuRenderer.flatMap { paintedShare(from: before, to: $0.reuseStatistics) } })
                    }
                }
                if !encodeCeilingSamples.isEmpty {
                    let encodeCPU = encodeCeilingCPU / Double(encodeCeilingSamples.count * reference.count)
                    addCeiling(encodeCeilingName, encodeCeilingSamples, cpuMs: encodeCPU)
                    report.budgets += budgets(report.rows.filter { $0.scene == id && $0.size == size }, encodeCpuMs: encodeCPU,
                                              renderCpuMs: pipelineRenderCpuMs)
                }
            }
        }

        if settings.startup, let id = settings.scenes.first, let size = settings.sizes.min() {
            let scene = try scene(id, size: size)
            for backend in settings.backends {
                for framesPerJob in [1, 10, 100, 1000] {
                    let total = try milliseconds {
                        let renderer = try FrameRenderer(backend, shaderDirectory: nil)
                        for k in 0..<framesPerJob { _ = try renderer.render(scene.drawList(at: Double(k) / 60)) }
                    }
                    report.startup.append(.init(backend: backend.rawValue, scene: id, size: size, framesPerJob: framesPerJob,
                                                totalMs: total, msPerFrame: total / Double(framesPerJob)))
                }
            }
        }
        return report
    }

    /// What the pipeline could reach at best, from the CPU time each of its parts costs alone.
    ///
    /// On n busy cores a frame costs the pipeline at least (encode + render + hash + write) / n of
    /// wall time, while the ceiling spends encode / n; their ratio bounds the pipeline's ratio to
    /// the ceiling whatever the scheduling. Needs the encode ceiling, the hash and write stages
    /// and the backend's frame stage, all measured in this run.
    ///
    /// - Parameter renderCpuMs: per backend, the frame's CPU time as the pipeline renders it,
    ///   where that differs from the frame stage's.
    static func budgets(_ rows: [BenchReport.Row], encodeCpuMs encode: Double,
                        renderCpuMs: [String: Double] = [:]) -> [BenchReport.Budget] {
        func cpu(_ backend: String, _ stage: String) -> Double? { rows.first { $0.backend == backend && $0.stage == stage }?.cpuMs }
        guard let hash = cpu("sha256", "hash"), let write = cpu("file", "write") else { return [] }
        return rows.filter { $0.stage == "pipeline" }.compactMap { pipeline in
            guard let render = renderCpuMs[pipeline.backend] ?? cpu(pipeline.backend, "frame"),
                  let measured = pipeline.ratioToCeiling else { return nil }
            return .init(scene: pipeline.scene, size: pipeline.size, width: pipeline.width, height: pipeline.height,
                         backend: pipeline.backend, encodeCpuMs: encode, renderCpuMs: render, hashCpuMs: hash, writeCpuMs: write,
                         bound: encode / (encode + render + hash + write), measured: measured, pipelineCpuMs: pipeline.cpuMs ?? .nan)
        }
    }

    /// ms/frame = overhead + cost·Mpix per scene, backend and stage, over the sizes measured.
    static func fits(_ rows: [BenchReport.Row]) -> [BenchReport.Fit] {
        let groups = Dictionary(grouping: rows) { "\($0.scene)|\($0.backend)|\($0.stage)" }
        return groups.keys.sorted().compactMap { key in
            let group = groups[key]!
            guard let fit = LinearFit(group.map { (x: $0.megapixels, y: $0.ms.median) }) else { return nil }
            return .init(backend: "\(group[0].backend) (\(group[0].scene))", stage: group[0].stage,
                         overheadMs: fit.intercept, msPerMegapixel: fit.slope, r2: fit.r2)
        }
    }

    static func methodInfo(_ settings: Settings, gl: GLInfo?, configuration: String) -> BenchReport.Method {
        let cpuInfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuInfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last!.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
        let date = ISO8601DateFormatter().string(from: Date())
        return .init(commit: commit(), date: date, cpu: model, cores: ProcessInfo.processInfo.activeProcessorCount,
                     glVendor: gl?.vendor, glRenderer: gl?.renderer, glVersion: gl?.version,
                     lpNumThreads: ProcessInfo.processInfo.environment["LP_NUM_THREADS"] ?? "unset (llvmpipe: one per core)",
                     configuration: configuration, frames: settings.frames, repeats: settings.repeats,
                     warmup: settings.warmup, pngLevel: settings.png.level, pngEncoder: settings.png.name)
    }

    /// The commit of the working directory's checkout, or `THROBBER_COMMIT`, or "unknown".
    static func commit() -> String {
        if let commit = ProcessInfo.processInfo.environment["THROBBER_COMMIT"] { return commit }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "describe", "--always", "--dirty"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "unknown" }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return process.terminationStatus == 0 && !text.isEmpty ? text : "unknown"
    }
}

/// User + system CPU time of the whole process so far, in seconds.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}
