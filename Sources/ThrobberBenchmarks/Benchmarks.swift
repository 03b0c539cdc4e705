import Foundation
import Glibc
import Throbber
import ThrobberText
import ThrobberBatch
import ThrobberGL
import ThrobberPNG
import ThrobberRender

/// The benchmark: every stage of the pipeline timed on the same frames, beside the ceilings it
/// is judged against (memcpy, a GL backend's clear + readback, the encoder alone on every core),
/// with CPU time per frame and the budgets that bound the pipeline (bench/README.md has the
/// method). `throbber bench` parses its options into `Settings` and prints the report.
///
/// Each stage and ceiling is a `Benchmark` of its own (Stages/, Ceilings/), `StageRegistry`
/// says which times what, and `BenchHarness` takes and reports their samples.
public enum Benchmarks {
    /// What `throbber bench` was asked to measure.
    public struct Settings: Sendable {
        /// Settings with every field given.
        public init(scenes: [String], sizes: [Int], backends: [Backend], stages: Set<BenchStage>, frames: Int, repeats: Int, warmup: Int,
                    png: PNGEncoder, startup: Bool, device: Int?) {
            self.scenes = scenes; self.sizes = sizes; self.backends = backends; self.stages = stages; self.frames = frames
            self.repeats = repeats; self.warmup = warmup; self.png = png; self.startup = startup; self.device = device
        }

        /// Scene ids, in report order.
        public var scenes: [String]
        /// Longer canvas sides, in px.
        public var sizes: [Int]
        /// Backends to measure; the first renders the frames that encode, hash and write take.
        public var backends: [Backend]
        /// The stages to time.
        public var stages: Set<BenchStage>
        /// Frames per sample set.
        public var frames: Int
        /// Sample sets per stage.
        public var repeats: Int
        /// Frames rendered on each renderer before its stages are timed.
        public var warmup: Int
        /// The encoder of the encode, write and pipeline stages and their ceilings.
        public var png: PNGEncoder
        /// Whether to run the frames-per-job sweep.
        public var startup: Bool
        /// With egl: the EGL device.
        public var device: Int?
        /// `--png-sweep`: the encoders and row filters it times (nil: all), and whether it
        /// times sprite sheets instead of frames in sequences.
        public var sweepEncoders: [(name: String, levels: ClosedRange<Int>?)]? = nil
        public var sweepFilters: [PNGRowFilter]? = nil
        public var sweepSheets = false
        /// The encoder of the sheet and preview stages and their ceilings: `--png-encoder` when
        /// given, else what sheets and previews are written with (`compact`).
        public var sheetPNG = try! PNGEncoder(name: PNGEncoderCatalog.sheetDefaultName)
    }

    /// A scene as the bench names it: an id, optionally with parameters set, `ID:NAME=VALUE:…`
    /// (`wave-ball:label=on`), so a scene with and without a feature are measured side by side.
    public struct SceneSpec: Sendable {
        /// The scene's id, or its scene file's path.
        public var id: String
        /// The scene at its defaults: read once, here, for every size.
        public var model: any SceneModel
        /// The parameters set, in order.
        public var settings: [(name: String, value: String)]

        /// Parses `spec`.
        ///
        /// - Throws: a usage error for an unknown scene, a setting that is not NAME=VALUE, `scale`
        ///   (the size sets it) or a value the parameter refuses.
        public init(_ spec: String) throws {
            let parts = spec.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            id = parts[0]
            // A built-in's id, or a scene file (docs/scene-files.md), read here so a bad one fails at once.
            model = try SceneReference.model(id)
            settings = try parts.dropFirst().map { part in
                guard let equals = part.firstIndex(of: "="), equals != part.startIndex else {
                    throw ThrobberError.invalid("--scenes", spec, allowed: "ID or ID:NAME=VALUE[:NAME=VALUE…], e.g. wave-ball:label=on")
                }
                let name = String(part[..<equals])
                guard name != "scale" else {
                    throw ThrobberError.invalid("--scenes", spec, allowed: "parameters other than scale (--sizes sets the scale)")
                }
                return (name, String(part[part.index(after: equals)...]))
            }
        }

        /// The scene with the settings applied, scaled so its longer side is `size` px, validated
        /// and with its text not yet laid out (a clip lays it out, as a batch does).
        public func scene(size: Int) throws -> Scene {
            var scene = Scene(model)
            for setting in settings { scene = try scene.setting(setting.name, to: setting.value) }
            // The canvas the settings make (a hud's screen, or the HUD around its status), in pt.
            let canvas = try scene.validated().layingOutText().model.canvasSize
            scene.scale = Double(size) / max(canvas.width, canvas.height)
            return try scene.validated()
        }
    }

    /// The scene `spec` (an id, or `SceneSpec`'s `ID:NAME=VALUE…`) scaled so its longer side is
    /// `size` px, with its text laid out.
    public static func scene(_ spec: String, size: Int) throws -> LaidOutScene {
        try SceneSpec(spec).scene(size: size).layingOutText()
    }

    /// Measures every case of `settings` (scene × size), stage by stage, and the start-up sweep.
    ///
    /// Per case: the floors (memcpy, each GL backend's clear + readback) first, so every stage can
    /// be set against them; then the reference frames, rendered by the first backend; the stages
    /// that need no renderer; each renderer's stages after its warm-up; last the encode ceiling,
    /// with the samples the pipeline took before each of its sets, and the pipeline's budget.
    /// `StageRegistry` says which benchmark times which stage, `BenchHarness` how.
    ///
    /// - Parameter configuration: how this binary was built ("release", "debug"), for the method.
    /// - Throws: when a backend cannot be opened or a stage fails.
    public static func measure(_ settings: Settings, configuration: String) throws -> BenchReport {
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
        let harness = BenchHarness(repeats: settings.repeats, warmup: settings.warmup)

        for id in settings.scenes {
            for size in settings.sizes {
                let bench = try BenchCase(id, size: size, settings: settings, scratch: scratch)
                if let outlines = bench.pathOutlines { report.pathOutlines = (report.pathOutlines ?? []) + [outlines] }
                var ceilings: [String: Double] = [:]
                func add(_ ceiling: BenchReport.Ceiling) {
                    report.ceilings.append(ceiling)
                    ceilings[ceiling.name] = ceiling.framesPerSecond
                }
                for floor in StageRegistry.floors(bench, renderers: renderers) { add(try harness.ceiling(floor, bench)) }
                try bench.renderReference(with: renderers[0])
                let encodeCeiling = EncodeCeiling(images: bench.reference, png: bench.png)
                if StageRegistry.samplesEncodeCeilingAlone(settings.stages) { _ = try harness.measure(encodeCeiling) }

                var rows: [BenchReport.Row] = []
                for stage in StageRegistry.frameStages(settings.stages, bench) { rows += try harness.rows(stage, bench, ceilings: ceilings) }
                var renderCpuMs: [String: Double] = [:]
                for renderer in renderers {
                    try harness.warmUp(renderer, bench)
                    for stage in try StageRegistry.rendererStages(settings.stages, renderer, bench, encodeCeiling: encodeCeiling) {
                        rows += try harness.rows(stage, bench, ceilings: ceilings)
                        if let cpuMs = stage.budgetRenderCpuMs { renderCpuMs[stage.backend] = cpuMs }
                        // The sheet's and preview's ceilings, sampled by the stages themselves.
                        if let own = (stage as? any OwnCeilingStage)?.encodeCeiling, !own.taken.isEmpty {
                            add(harness.entry(own.name + " (\(stage.backend))", Measurement(sets: own.taken), bench))
                        }
                    }
                }
                report.rows += rows
                if !encodeCeiling.taken.isEmpty {
                    let ceiling = harness.entry(EncodeCeiling.name, Measurement(sets: encodeCeiling.taken), bench)
                    add(ceiling)
                    // Empty without a pipeline row: the encode stage alone has no budget.
                    report.budgets += budgets(rows, encodeCpuMs: ceiling.cpuMs ?? .nan, renderCpuMs: renderCpuMs)
                }
            }
        }

        if settings.startup, let size = settings.sizes.min() {
            // Every scene measured, so one with text sits beside the same scene without. A job's
            // first frame pays for its scene too: parameters, text laid out (fonts opened,
            // shaped, rasterised into the atlas), the provenance its frames carry (each font
            // file hashed: the process keeps those digests, so they are forgotten first) and the
            // renderer's context and shaders.
            for id in settings.scenes {
                let spec = try SceneSpec(id)
                for backend in settings.backends {
                    for framesPerJob in [1, 10, 100, 1000] {
                        FontDigests.shared.forget()
                        let total = try Stopwatch.milliseconds {
                            let scene = try spec.scene(size: size).layingOutText()
                            let renderer = try FrameRenderer(backend)
                            _ = FrameText(scene, backend: backend.rawValue, driver: renderer.driver)
                            for k in 0..<framesPerJob { _ = try renderer.render(scene.drawList(at: Double(k) / 60)) }
                        }
                        report.startup.append(.init(backend: backend.rawValue, scene: id, size: size, framesPerJob: framesPerJob,
                                                    totalMs: total, msPerFrame: total / Double(framesPerJob)))
                    }
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
        func cpu(_ backend: String, _ stage: BenchStage) -> Double? {
            rows.first { $0.backend == backend && $0.stage == stage.rawValue }?.cpuMs
        }
        guard let hash = cpu("sha256", .hash), let write = cpu("file", .write) else { return [] }
        return rows.filter { $0.stage == BenchStage.pipeline.rawValue }.compactMap { pipeline in
            guard let render = renderCpuMs[pipeline.backend] ?? cpu(pipeline.backend, .frame),
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

    /// The method recorded with the figures: commit, machine, GL renderer, `LP_NUM_THREADS`, settings.
    public static func methodInfo(_ settings: Settings, gl: GLInfo?, configuration: String) -> BenchReport.Method {
        let cpuInfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuInfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last!.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
        let date = ISO8601DateFormatter().string(from: Date())
        return .init(commit: commit(), date: date, cpu: model, cores: UsableCPUs.current.usable,
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
