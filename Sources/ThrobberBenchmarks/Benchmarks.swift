import Foundation
import Glibc
import Throbber
import ThrobberBatch
import ThrobberCPU
import ThrobberDigest
import ThrobberGL
import ThrobberPNG
import ThrobberRender

/// The benchmark: every stage of the pipeline timed on the same frames, beside the ceilings it
/// is judged against (memcpy, a GL backend's clear + readback, the encoder alone on every core),
/// with CPU time per frame and the budgets that bound the pipeline (bench/README.md has the
/// method). `throbber bench` parses its options into `Settings` and prints the report.
public enum Benchmarks {
    public static let allStages = ["render", "readback", "frame", "frame1", "async", "encode", "hash", "write", "pipeline"]

    public struct Settings: Sendable {
        public init(scenes: [String], sizes: [Int], backends: [Backend], stages: Set<String>, frames: Int, repeats: Int, warmup: Int,
                    png: PNGEncoder, startup: Bool, device: Int?) {
            self.scenes = scenes; self.sizes = sizes; self.backends = backends; self.stages = stages; self.frames = frames
            self.repeats = repeats; self.warmup = warmup; self.png = png; self.startup = startup; self.device = device
        }

        public var scenes: [String]
        public var sizes: [Int]
        public var backends: [Backend]
        public var stages: Set<String>
        public var frames: Int
        public var repeats: Int
        public var warmup: Int
        /// The encoder of the encode, write and pipeline stages and their ceilings.
        public var png: PNGEncoder
        public var startup: Bool
        public var device: Int?
    }

    /// The scene `id` scaled so its longer side is `size` px.
    public static func scene(_ id: String, size: Int) throws -> Scene {
        let model = try SceneRegistry.model(id)
        let longer = max(model.canvasSize.width, model.canvasSize.height)
        let scene = Scene(model, scale: Double(size) / longer)
        try scene.validate()
        return scene
    }

    public static let encodeCeilingName = "png encode, all cores"

    /// The share of the row bands the CPU renderer painted between two readings of its
    /// statistics (nil when it rendered none).
    public static func paintedShare(from before: ReuseStatistics, to after: ReuseStatistics) -> Double? {
        let painted = after.paintedBands - before.paintedBands
        let total = painted + after.keptBands - before.keptBands + after.copiedBands - before.copiedBands
        return total > 0 ? Double(painted) / Double(total) : nil
    }

    public static func measure(_ settings: Settings, configuration: String) throws -> BenchReport {
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
        let renderers = try settings.backends.map { try FrameRenderer($0, device: $0 == .egl ? settings.device : nil) }
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
                                    samples.append(milliseconds { digest = SHA256.hex(data) })
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
                            try AtomicFile.prepareDirectory(directory)
                            let clip = try Clip(scene: scene, frames: settings.frames, fps: 60, outputs: [
                                // The bench's encoder itself (`auto` stays auto: per frame size).
                                .png(pattern: FramePattern(literalPrefix: directory.appendingPathComponent("f/").path, width: 5, suffix: ".png"),
                                     encoder: settings.png.name, level: settings.png.level),
                            ])
                            let job = try Job(name: "bench \(id) \(size) px", clips: [clip])
                            let run = BatchRun(job: job, backend: renderer.backend,
                                               manifestPath: directory.appendingPathComponent("job.manifest.json").path,
                                               manifestSource: .commandLine)
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
                        let renderer = try FrameRenderer(backend)
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
    public static func budgets(_ rows: [BenchReport.Row], encodeCpuMs encode: Double,
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
    public static func fits(_ rows: [BenchReport.Row]) -> [BenchReport.Fit] {
        let groups = Dictionary(grouping: rows) { "\($0.scene)|\($0.backend)|\($0.stage)" }
        return groups.keys.sorted().compactMap { key in
            let group = groups[key]!
            guard let fit = LinearFit(group.map { (x: $0.megapixels, y: $0.ms.median) }) else { return nil }
            return .init(backend: "\(group[0].backend) (\(group[0].scene))", stage: group[0].stage,
                         overheadMs: fit.intercept, msPerMegapixel: fit.slope, r2: fit.r2)
        }
    }

    public static func methodInfo(_ settings: Settings, gl: GLInfo?, configuration: String) -> BenchReport.Method {
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
    public static func commit() -> String {
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
public func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}
