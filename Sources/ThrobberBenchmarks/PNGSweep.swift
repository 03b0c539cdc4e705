import Foundation
import Throbber
import ThrobberBatch
import ThrobberPNG
import ThrobberRender
import ThrobberCPU

/// `throbber bench --png-sweep`: every PNG encoder × level × row filter on the scenes' frames at
/// several sizes, timed and sized, and the two settings Throbber names chosen by their rules
/// (docs/png-encoders.md): the default, the fastest setting whose files are no larger than
/// libpng's at its own defaults (zlib 6, adaptive filters) at every size; and `small`, the
/// setting with the smallest files.
public enum PNGSweep {
    /// libpng at its own defaults, the yardstick for file size.
    public static let reference = PNGEncoder.libpng(level: 6, filter: .adaptive)

    /// One encoder setting's figures, per size.
    public struct Candidate: Codable {
        var encoder: String
        var level: Int
        var filter: String
        /// Per size (in `sizes` order): the median over repeats of the mean ms to encode a frame.
        var msPerFrame: [Double]
        /// Per size: the mean bytes of a frame's file.
        var bytesPerFrame: [Double]
        /// Per size and scene (in `scenes` order): the median over repeats of the mean ms to
        /// encode one of that scene's frames, and their mean bytes.
        var sceneMsPerFrame: [[Double]] = []
        var sceneBytesPerFrame: [[Double]] = []
        /// Per size: bytes over the reference's for the same frames.
        var sizeRatio: [Double] = []
        /// The geometric mean over sizes of ms per frame, each size counting alike.
        var meanMs: Double = 0
        /// The geometric mean over sizes of `sizeRatio`.
        var meanSizeRatio: Double = 0
        var isReference = false
        /// No larger than the reference at every size.
        var noLarger = false
        var chosenDefault = false
        var chosenSmallest = false
        /// No other setting is both as fast and as small (mean ms and mean size), one of them strictly.
        var onFrontier = false
        /// Sheets: the rule's choice for sheets and previews (``chooseForSheets(_:)``).
        var chosenForSheets = false

        var setting: String { "\(encoder) \(level) \(filter)" }
    }

    /// The rule applied to one scene at one size: the fastest setting whose files are no larger
    /// than the reference's for that scene's frames (what `auto` chose by scene name until it
    /// chose from the frames, `PNGRuleSweep`).
    public struct SceneChoice: Codable {
        var scene: String
        var size: Int
        var encoder: String
        var level: Int
        var filter: String
        var ms: Double
        var sizeRatio: Double

        var setting: String { "\(encoder) \(level) \(filter)" }
    }

    public struct Report: Codable {
        var scenes: [String]
        var sizes: [Int]
        var framesPerSceneAndSize: Int
        var repeats: Int
        var candidates: [Candidate]
        var perScene: [SceneChoice] = []
        /// Whether the sweep timed sheets (cells of `sizes` px) rather than frames.
        var sheets = false
    }

    /// The sheet rule's tolerance: a setting's sheets may be this much larger than the smallest
    /// setting's at each cell size.
    public static let sheetSizeTolerance = 1.10

    /// Marks the speed/size frontier, and the sheets' default: the fastest setting whose sheets
    /// are within ``sheetSizeTolerance`` of the smallest setting's at every cell size. A sheet is
    /// written once and shipped, so its bytes count more than a frame's; but the smallest setting
    /// takes ~30× the time of one 10 % larger, so within 10 % time decides, and `small` stays for
    /// the last bytes.
    public static func chooseForSheets(_ candidates: inout [Candidate]) {
        for i in candidates.indices {
            candidates[i].onFrontier = !candidates.indices.contains { j in
                j != i && candidates[j].meanMs <= candidates[i].meanMs && candidates[j].meanSizeRatio <= candidates[i].meanSizeRatio
                    && (candidates[j].meanMs < candidates[i].meanMs || candidates[j].meanSizeRatio < candidates[i].meanSizeRatio)
            }
        }
        guard let first = candidates.first else { return }
        let smallest = first.sizeRatio.indices.map { size in candidates.map { $0.sizeRatio[size] }.min()! }
        let within = candidates.indices.filter { i in
            zip(candidates[i].sizeRatio, smallest).allSatisfy { $0 <= $1 * sheetSizeTolerance }
        }
        if let fastest = within.min(by: { candidates[$0].meanMs < candidates[$1].meanMs }) {
            candidates[fastest].chosenForSheets = true
        }
    }

    /// Every setting: each encoder at each of its levels with each row filter (of `encoders`, at
    /// their levels when given, and `filters` when given), and the reference always, whose bytes every rule reads.
    public static func settings(encoders: [(name: String, levels: ClosedRange<Int>?)]? = nil,
                                filters: [PNGRowFilter]? = nil) -> [PNGEncoder] {
        var all = (encoders ?? PNGEncoderCatalog.encoders.map { ($0, nil) }).flatMap { name, levels in
            (levels ?? PNGEncoder.levels(for: name)!).flatMap { level in
                (filters ?? PNGRowFilter.allCases).map { filter in try! PNGEncoder(name: name, level: level, filter: filter) }
            }
        }
        if !all.contains(reference) { all.append(reference) }
        return all
    }

    /// Every setting.
    public static var settings: [PNGEncoder] { settings() }

    /// The most frames of each scene the sweep encodes at each size (`--frames`, at most this).
    public static let maximumFramesPerScene = 4

    /// Frames a sheet of the sheet sweep holds: 24 of a 60 fps clip, 6 columns by 4 rows.
    public static let sheetFrames = 24, sheetColumns = 6

    /// The frames the sweep encodes of scene `id` at `size` px a side: `count + 1` consecutive
    /// frames of a 60 fps clip from t = 0, as a batch renders them. The first only primes the
    /// sequence (untimed); the others are timed in order, each taking the unchanged segments of
    /// the one before as a clip's frames do.
    public static func frames(of id: String, size: Int, count: Int, renderer: CPURenderer) throws -> [Image] {
        clipFrames(try Benchmarks.scene(id, size: size), from: 0, count: count, renderer: renderer)
    }

    /// `count + 1` consecutive frames of a 60 fps clip of `scene` from `start`, as a batch renders them.
    static func clipFrames(_ scene: LaidOutScene, from start: Double, count: Int, renderer: CPURenderer) -> [Image] {
        (0...count).map { renderer.render(scene.drawList(at: start + Double($0) / 60)) }
    }

    /// `frames` encoded by `encoder` in one sequence, as a clip's are: the first primes it
    /// (untimed), each later one is timed after the one before. The mean ms of a timed frame, and
    /// the timed frames' bytes.
    static func timedInSequence(_ encoder: PNGEncoder, _ frames: [Image]) throws -> (ms: Double, bytes: Int) {
        let sequence = PNGSequence()
        _ = try encoder.encode(frames[0], sequence: sequence)
        var bytes = 0
        let clock = ContinuousClock()
        let start = clock.now
        for frame in frames.dropFirst() { bytes += try encoder.encode(frame, sequence: sequence).count }
        return ((clock.now - start).seconds * 1000 / Double(frames.count - 1), bytes)
    }

    /// The sheet the sheet sweep encodes of scene `id` with cells of `size` px a side: the first
    /// ``sheetFrames`` frames of a 60 fps clip, ``sheetColumns`` across, as a `sheet` output
    /// composes them.
    public static func sheet(of id: String, size: Int, renderer: CPURenderer) throws -> Image {
        let scene = try Benchmarks.scene(id, size: size)
        let cells = (0..<sheetFrames).map { renderer.render(scene.drawList(at: Double($0) / 60)) }
        return SpriteSheet.Builder.sheet(of: cells, columns: sheetColumns, rows: (sheetFrames + sheetColumns - 1) / sheetColumns)
    }

    /// Runs the sweep: unless scenes or sizes are given (`scenesGiven`, `sizesGiven`), every scene
    /// at 64, 512 and 1024 px (sheets: cells of 64, 128 and 256 px). Frames are timed in
    /// sequences on one thread; sheets (`settings.sweepSheets`) on every usable core, as a sheet
    /// output encodes its pages.
    ///
    /// - Parameter starting: told, once the frames are rendered and before the first is encoded,
    ///   how many settings, frames and repeats the sweep times (the command line prints it).
    public static func run(_ settings: Benchmarks.Settings, scenesGiven: Bool, sizesGiven: Bool, json: ReportFile?,
                           starting: (_ settings: Int, _ frames: Int, _ repeats: Int) -> Void = { _, _, _ in }) throws {
        let scenes = scenesGiven ? settings.scenes : SceneRegistry.ids
        let sheets = settings.sweepSheets
        let sizes = sizesGiven ? settings.sizes : sheets ? [64, 128, 256] : [64, 512, 1024]
        let perSceneAndSize = sheets ? 1 : max(1, min(settings.frames, maximumFramesPerScene))
        let threads = UsableCPUs.current.usable
        let cpu = CPURenderer(threadCount: threads)
        // frames[i][j]: scene j's frames at sizes[i] (the sequence's primer first), or its sheet.
        let frames = try sizes.map { size in
            try scenes.map { sheets ? [try Self.sheet(of: $0, size: size, renderer: cpu)]
                                    : try Self.frames(of: $0, size: size, count: perSceneAndSize, renderer: cpu) }
        }
        let all = Self.settings(encoders: settings.sweepEncoders, filters: settings.sweepFilters)
        starting(all.count, sizes.count * scenes.count * perSceneAndSize, settings.repeats)
        let clock = ContinuousClock()
        var candidates: [Candidate] = []
        for encoder in all {
            var candidate = Candidate(encoder: encoder.name, level: encoder.level, filter: encoder.filter.rawValue,
                                      msPerFrame: [], bytesPerFrame: [])
            for atSize in frames {
                // Untimed first: the thread's compressor for this setting and its buffers for
                // this size are made on first use, which would count against the first scene.
                _ = try encoder.encode(atSize[0][0], threads: sheets ? threads : 1)
                // Each scene's frames timed apart, so the rule can be applied per scene too.
                var sceneMs: [Double] = []
                var sceneBytes: [Double] = []
                for sceneFrames in atSize {
                    var repeatMeans: [Double] = []
                    var total = 0
                    for _ in 0..<settings.repeats {
                        total = 0
                        if sheets {
                            let start = clock.now
                            total = try encoder.encode(sceneFrames[0], threads: threads).count
                            repeatMeans.append((clock.now - start).seconds * 1000)
                            continue
                        }
                        let timed = try timedInSequence(encoder, sceneFrames)
                        total = timed.bytes
                        repeatMeans.append(timed.ms)
                    }
                    sceneMs.append(Summary(repeatMeans).median)
                    sceneBytes.append(Double(total) / Double(perSceneAndSize))
                }
                candidate.sceneMsPerFrame.append(sceneMs)
                candidate.sceneBytesPerFrame.append(sceneBytes)
                // Every scene has as many frames: the size's figures are the scenes' means.
                candidate.msPerFrame.append(sceneMs.reduce(0, +) / Double(sceneMs.count))
                candidate.bytesPerFrame.append(sceneBytes.reduce(0, +) / Double(sceneBytes.count))
            }
            candidates.append(candidate)
        }
        choose(&candidates)
        if sheets { chooseForSheets(&candidates) }
        let report = Report(scenes: scenes, sizes: sizes, framesPerSceneAndSize: perSceneAndSize,
                            repeats: settings.repeats, candidates: candidates,
                            perScene: sheets ? [] : choosePerScene(candidates, scenes: scenes, sizes: sizes), sheets: sheets)
        print(markdown(report), terminator: "")
        try json?.write(try JSONOutput.encoder.encode(report))
    }

    /// Marks the reference, the settings no larger than it at every size, the default (the
    /// fastest of those) and the smallest (the least mean size ratio).
    public static func choose(_ candidates: inout [Candidate]) {
        func geometricMean(_ values: [Double]) -> Double {
            exp(values.map { log(max($0, 1e-9)) }.reduce(0, +) / Double(max(values.count, 1)))
        }
        guard let ref = candidates.firstIndex(where: {
            $0.encoder == reference.name && $0.level == reference.level && $0.filter == reference.filter.rawValue
        }) else { return }
        let referenceBytes = candidates[ref].bytesPerFrame
        for i in candidates.indices {
            candidates[i].isReference = i == ref
            candidates[i].sizeRatio = zip(candidates[i].bytesPerFrame, referenceBytes).map { $0 / $1 }
            candidates[i].noLarger = candidates[i].sizeRatio.allSatisfy { $0 <= 1 }
            candidates[i].meanMs = geometricMean(candidates[i].msPerFrame)
            candidates[i].meanSizeRatio = geometricMean(candidates[i].sizeRatio)
        }
        if let fastest = candidates.indices.filter({ candidates[$0].noLarger }).min(by: { candidates[$0].meanMs < candidates[$1].meanMs }) {
            candidates[fastest].chosenDefault = true
        }
        if let smallest = candidates.indices.min(by: {
            (candidates[$0].meanSizeRatio, candidates[$0].meanMs) < (candidates[$1].meanSizeRatio, candidates[$1].meanMs)
        }) {
            candidates[smallest].chosenSmallest = true
        }
    }

    /// The rule per scene and size: of every setting whose files are no larger than the
    /// reference's for that scene's frames, the fastest at that size (its time over every
    /// scene's frames, the steadier figure).
    public static func choosePerScene(_ candidates: [Candidate], scenes: [String], sizes: [Int]) -> [SceneChoice] {
        guard let reference = candidates.first(where: \.isReference) else { return [] }
        var choices: [SceneChoice] = []
        for (j, scene) in scenes.enumerated() {
            for (i, size) in sizes.enumerated() {
                let limit = reference.sceneBytesPerFrame[i][j]
                guard let best = candidates.filter({ $0.sceneBytesPerFrame[i][j] <= limit })
                    .min(by: { $0.msPerFrame[i] < $1.msPerFrame[i] }) else { continue }
                choices.append(SceneChoice(scene: scene, size: size, encoder: best.encoder, level: best.level, filter: best.filter,
                                           ms: best.msPerFrame[i], sizeRatio: best.sceneBytesPerFrame[i][j] / limit))
            }
        }
        return choices
    }

    public static func markdown(_ report: Report) -> String {
        let sizes = report.sizes.map { "\($0) px" }
        var text = report.sheets
            ? "## PNG encoders × levels × row filters on sprite sheets: \(report.scenes.joined(separator: ", ")), "
                + "\(sheetFrames) frames (\(sheetColumns) across) of \(report.sizes.map(String.init).joined(separator: ", ")) px cells, "
                + "on \(UsableCPUs.current.usable) threads, median of \(report.repeats)\n\n"
            : "## PNG encoders × levels × row filters: \(report.scenes.joined(separator: ", ")), "
                + "\(report.framesPerSceneAndSize) frames each in a sequence at \(report.sizes.map(String.init).joined(separator: ", ")) px, "
                + "median of \(report.repeats)\n\n"
        text += "Size: bytes over libpng's at its defaults (\(reference.setting)) for the same frames. "
            + "Mean: the geometric mean over sizes. Sorted by mean ms.\n\n"
        text += "| setting | " + sizes.map { "ms \($0)" }.joined(separator: " | ") + " | mean ms | "
            + sizes.map { "size \($0)" }.joined(separator: " | ") + " | mean size | |\n"
        text += "|---|" + String(repeating: "---:|", count: 2 * sizes.count + 2) + "---|\n"
        for c in report.candidates.sorted(by: { $0.meanMs < $1.meanMs }) {
            var marks: [String] = []
            if c.chosenDefault { marks.append("**default**") }
            if c.chosenSmallest { marks.append("**smallest**") }
            if c.chosenForSheets { marks.append("**sheet default**") }
            if c.isReference { marks.append("reference") }
            if c.onFrontier { marks.append("frontier") }
            if marks.isEmpty, c.noLarger { marks.append("no larger") }
            text += "| \(c.setting) | " + c.msPerFrame.map { String(format: "%.3f", $0) }.joined(separator: " | ")
                + String(format: " | %.3f | ", c.meanMs)
                + c.sizeRatio.map { String(format: "%.3f", $0) }.joined(separator: " | ")
                + String(format: " | %.3f | ", c.meanSizeRatio) + marks.joined(separator: ", ") + " |\n"
        }
        for (title, pick) in [("Default (fastest no larger than the reference at every size)", \Candidate.chosenDefault),
                              ("Smallest files", \Candidate.chosenSmallest),
                              ("Sheets (the fastest within 10 % of the smallest at every size)", \Candidate.chosenForSheets)] {
            if let c = report.candidates.first(where: { $0[keyPath: pick] }) {
                text += String(format: "\n%@: %@, %.3f mean ms, %.3f mean size", title, c.setting, c.meanMs, c.meanSizeRatio)
            }
        }
        if !report.perScene.isEmpty {
            text += "\n\n## Per scene: the fastest setting no larger than the reference on that scene's frames (its size "
                + "ratio); `auto` chooses from the frames instead (`--derive`)\n\n"
            text += "| scene | " + sizes.joined(separator: " | ") + " |\n|---|" + String(repeating: "---|", count: sizes.count) + "\n"
            for scene in report.scenes {
                let cells = report.sizes.map { size in
                    report.perScene.first { $0.scene == scene && $0.size == size }
                        .map { String(format: "%@ (%.2f)", $0.setting, $0.sizeRatio) } ?? "—"
                }
                text += "| \(scene) | " + cells.joined(separator: " | ") + " |\n"
            }
        }
        return text + "\n"
    }
}
