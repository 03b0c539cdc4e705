import Foundation
import Throbber
import ThrobberBatch
import ThrobberCPU
import ThrobberPNG
import ThrobberRender
import ThrobberText

/// `throbber bench --png-sweep --derive`: where `auto`'s rule (``AutomaticRule``) comes from, and
/// `--check-rule`: how it does on frames it was not derived from, against the table it replaced.
///
/// Both draw their frames from many scenes: every built-in (random paths included) at its
/// defaults and in `--sets` parameter sets the sampler draws (``ParameterSampler``, `--seed`),
/// and every scene file given (`--rule-scenes`, by default examples/scenes) at its defaults and
/// in one drawn set; each scaled so its longer side is each size of `--sizes`. A case is the
/// frames of a 60 fps clip from the drawn time: the first primes a sequence, the next
/// `--frames` are timed in it, as a clip encodes them (a *sequence* point, whose traits are the
/// second frame's against the first); and the second is timed alone, as a sheet page or a
/// preview is written (an *alone* point, with no frame before).
public enum PNGRuleSweep {
    /// The settings the derivation chooses among unless `--sweep-encoders`/`--sweep-filters` say
    /// otherwise: every level the earlier sweeps found fastest under the line somewhere (isal
    /// 0–2, libdeflate 1–6, zlib 3–5), unfiltered, `sub`, `up` and `adaptive` (the drawn sets
    /// hold frames of one colour and stripes where only a filter brings the files under libpng's).
    /// igzip 3, libdeflate above 6 and zlib above 5 took at least 1.8× the time of the fastest
    /// no larger than libpng's defaults wherever the full sweep measured them (docs/png-encoders.md).
    public static let candidateEncoders: [(name: String, levels: ClosedRange<Int>?)] = [("isal", 0...2), ("libdeflate", 1...6), ("zlib", 3...5)]
    public static let candidateFilters: [PNGRowFilter] = [.unfiltered, .sub, .up, .adaptive]
    /// Sizes the derivation measures unless `--sizes` says: each is the top of one step.
    public static let defaultSizes = [64, 128, 256, 512, 1024, 2048]
    /// A setting fits a point when its files come out at most this share of libpng's defaults'
    /// (the trial's margin, ``AutomaticRule/sampleMargin``).
    public static let sizeMargin = AutomaticRule.sampleMargin
    /// A split is kept when it saves at least this share of the step's time.
    public static let splitGain = 0.02
    /// Neither side of a split holds fewer than this many points (nor less than a tenth of the step's).
    public static let smallestSide = 4

    /// One scene as a case of the sweep: its id or file, the set's number (nil: the defaults).
    public struct CaseSpec: Codable, Sendable {
        var scene: String
        var set: Int?
        var time: Double
        var settings: [String]
        var label: String { "\(scene)" + (set.map { " #\($0)" } ?? " (defaults)") }
    }

    /// One point: a case at a size, timed in a sequence or alone.
    public struct Point: Codable, Sendable {
        var scene: String
        var set: Int?
        var size: Int
        var width: Int
        var height: Int
        var inSequence: Bool
        var side: Int
        var changed: Double?
        var flat: Double
        var transparent: Double
        /// Per setting (in `settings` order): the median over repeats of the mean ms a frame, and the mean bytes.
        var ms: [Double]
        var bytes: [Double]
        var referenceBytes: Double

        var traits: FrameTraits { FrameTraits(side: side, transparent: transparent, flat: flat, changed: changed) }
    }

    public struct Report: Codable {
        var seed: UInt64
        var sets: Int
        var sizes: [Int]
        var frames: Int
        var repeats: Int
        var settings: [String]
        var cases: [CaseSpec]
        var points: [Point]
        /// Case × size pairs left out: the scene refused to draw at that size.
        var leftOut: Int
        var steps: [StepReport] = []
        var literal = ""
    }

    /// A step as derived, with what it does on the points it was derived from.
    public struct StepReport: Codable {
        var side: Int
        var points: Int
        /// The step's decision in words (``describe(_:)``).
        var decision: String
        /// Points whose chain's first candidate fits, and points none of whose candidates does
        /// (written by libpng's defaults).
        var firstFits: Int
        var toYardstick: Int
        /// The step's time over libpng's defaults' at each point, mean; and the fastest setting
        /// that fits at each point, over libpng's defaults', mean (what a perfect choice would do).
        var meanTimeOverReference: Double
        var bestTimeOverReference: Double
    }

    /// The cases: built-ins (paths included) at their defaults and `sets` drawn sets, scene files
    /// at their defaults and one drawn set.
    static func cases(seed: UInt64, sets: Int, files: [String]) throws -> [(spec: CaseSpec, model: any SceneModel, scene: Scene)] {
        let sampler = ParameterSampler(seed: seed, maximumPixelSide: 1 << 20)
        var out: [(CaseSpec, any SceneModel, Scene)] = []
        let prepare: (Scene) throws -> LaidOutScene = { try $0.layingOutText() }
        for (reference, count) in SceneRegistry.parityIDs.map({ ($0, sets) }) + files.map({ ($0, min(sets, 1)) }) {
            let model = try SceneReference.model(reference)
            out.append((CaseSpec(scene: reference, set: nil, time: 0, settings: []), model, Scene(model)))
            for index in 0..<count {
                let drawn = try sampler.draw(model, index: index, prepare: prepare)
                out.append((CaseSpec(scene: reference, set: index, time: drawn.time,
                                     settings: drawn.settings.filter { $0.name != "scale" }.map { "\($0.name)=\($0.value)" }),
                            model, drawn.scene))
            }
        }
        return out
    }

    /// `scene` scaled so its longer side is `size` px, its text laid out.
    static func scaled(_ scene: Scene, size: Int) throws -> LaidOutScene {
        var scene = scene
        scene.scale = 1
        let canvas = try scene.validated().layingOutText().model.canvasSize
        scene.scale = Double(size) / max(canvas.width, canvas.height)
        return try scene.validated().layingOutText()
    }

    /// The example scene files beside the working directory, when there are any.
    static func defaultFiles() -> [String] {
        let directory = "examples/scenes"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".scene.json") }.sorted().map { "\(directory)/\($0)" }
    }

    /// Times `settings` on one case's frames at one size: a sequence point and an alone point.
    static func measure(_ frames: [Image], spec: CaseSpec, size: Int, settings: [PNGEncoder], repeats: Int) throws -> [Point] {
        let clock = ContinuousClock()
        let timed = frames.count - 1
        func point(inSequence: Bool) throws -> Point {
            let traits = inSequence ? FrameTraits(frames[1], previous: frames[0]) : FrameTraits(frames[1])
            var ms: [Double] = [], bytes: [Double] = []
            for encoder in settings {
                // Untimed first: the thread's compressor and buffers for this setting and size.
                _ = try encoder.encode(frames[1])
                var means: [Double] = []
                var total = 0
                for _ in 0..<repeats {
                    total = 0
                    if inSequence {
                        let run = try PNGSweep.timedInSequence(encoder, frames)
                        total = run.bytes
                        means.append(run.ms)
                    } else {
                        let start = clock.now
                        total = try encoder.encode(frames[1]).count
                        means.append((clock.now - start).seconds * 1000)
                    }
                }
                ms.append(Summary(means).median)
                bytes.append(Double(total) / Double(inSequence ? timed : 1))
            }
            let reference = settings.firstIndex(of: PNGSweep.reference)!
            return Point(scene: spec.scene, set: spec.set, size: size, width: frames[0].width, height: frames[0].height,
                         inSequence: inSequence, side: traits.side, changed: traits.changed, flat: traits.flat,
                         transparent: traits.transparent, ms: ms, bytes: bytes, referenceBytes: bytes[reference])
        }
        return [try point(inSequence: true), try point(inSequence: false)]
    }

    /// Runs the derivation and prints the rule (`--json` keeps every point).
    public static func derive(_ settings: Benchmarks.Settings, sizesGiven: Bool, sets: Int, seed: UInt64, files: [String]?,
                              json: ReportFile?, progress: (String) -> Void) throws {
        let sizes = sizesGiven ? settings.sizes : defaultSizes
        let encoders = PNGSweep.settings(encoders: settings.sweepEncoders ?? candidateEncoders,
                                         filters: settings.sweepFilters ?? candidateFilters)
        let frames = max(1, min(settings.frames, PNGSweep.maximumFramesPerScene))
        let cases = try Self.cases(seed: seed, sets: sets, files: files ?? defaultFiles())
        let cpu = CPURenderer(threadCount: UsableCPUs.current.usable)
        var points: [Point] = []
        var skipped = 0
        for (number, item) in cases.enumerated() {
            progress("\(number + 1)/\(cases.count) \(item.spec.label)")
            for size in sizes {
                // A drawn set may be too costly to draw at a large size (ten thousand ticks at
                // 2048 px): that size is left out for it, and the report counts it.
                let scene: LaidOutScene
                do { scene = try scaled(item.scene, size: size) } catch {
                    progress("  left out at \(size) px: \(error)")
                    skipped += 1
                    continue
                }
                let images = PNGSweep.clipFrames(scene, from: item.spec.time, count: frames, renderer: cpu)
                points += try measure(images, spec: item.spec, size: size, settings: encoders, repeats: settings.repeats)
            }
        }
        var report = Report(seed: seed, sets: sets, sizes: sizes, frames: frames, repeats: settings.repeats,
                            settings: encoders.map(\.setting), cases: cases.map(\.spec), points: points, leftOut: skipped)
        let (rule, steps) = Self.rule(points: points, sizes: sizes, settings: encoders)
        report.steps = steps
        report.literal = literal(rule)
        print(markdown(report), terminator: "")
        try json?.write(try JSONOutput.encoder.encode(report))
    }

    /// Derives the rule again from the points a `--derive --json` run kept (`--derive-from`),
    /// measuring nothing: the derivation is deterministic, so the same file gives the same rule.
    ///
    /// - Throws: a data error naming the file when it is not such a report.
    public static func derive(from path: String) throws {
        let bytes = try InputFile.read(path, what: "--derive-from report")
        let refused = ThrobberError("\(ThrobberError.echoed(path, longest: ThrobberError.longestPathEcho)) is not a report written by "
                                    + "`throbber bench --png-sweep --derive --json`", kind: .badData)
        // What was measured, not what was derived from it then.
        struct Saved: Decodable {
            var seed: UInt64, sets: Int, sizes: [Int], frames: Int, repeats: Int, settings: [String], cases: [CaseSpec], points: [Point]
            var leftOut: Int?
        }
        guard let saved = try? JSONDecoder().decode(Saved.self, from: Data(bytes)) else { throw refused }
        var report = Report(seed: saved.seed, sets: saved.sets, sizes: saved.sizes, frames: saved.frames, repeats: saved.repeats,
                            settings: saved.settings, cases: saved.cases, points: saved.points, leftOut: saved.leftOut ?? 0)
        let settings = try report.settings.map { name -> PNGEncoder in
            let parts = name.split(separator: " ").map(String.init)
            guard parts.count == 3, let level = Int(parts[1]), let filter = PNGRowFilter(rawValue: parts[2]),
                  let encoder = try? PNGEncoder(name: parts[0], level: level, filter: filter) else { throw refused }
            return encoder
        }
        guard settings.contains(PNGSweep.reference),
              report.points.allSatisfy({ $0.ms.count == settings.count && $0.bytes.count == settings.count }) else { throw refused }
        let (rule, steps) = Self.rule(points: report.points, sizes: report.sizes, settings: settings)
        report.steps = steps
        report.literal = literal(rule)
        print(markdown(report), terminator: "")
    }

    static func markdown(_ report: Report) -> String {
        let sequencePoints = report.points.filter(\.inSequence).count
        var text = "## auto's rule: \(report.cases.count) cases (built-ins at their defaults and \(report.sets) drawn sets each, seed \(report.seed); "
            + "scene files at their defaults and one set) at \(report.sizes.map(String.init).joined(separator: ", ")) px; "
            + "\(sequencePoints) points in sequences (\(report.frames) frames timed after a primer) and as many alone; "
            + "\(report.settings.count) settings, median of \(report.repeats)"
            + (report.leftOut > 0 ? "; \(report.leftOut) case × size pairs left out (too costly to draw there)" : "") + "\n\n"
        text += "| up to px | points | decision (a chain is tried in order) | first fits | to libpng | time | best |\n"
            + "|---:|---:|---|---:|---:|---:|---:|\n"
        for step in report.steps {
            text += "| \(step.side) | \(step.points) | \(step.decision) | \(step.firstFits) | \(step.toYardstick) | "
                + String(format: "%.3f | %.3f |\n", step.meanTimeOverReference, step.bestTimeOverReference)
        }
        text += "\nFits: writes the point's frames within \(Int((sizeMargin * 100).rounded())) % of libpng's defaults' bytes (zlib 6, "
            + "adaptive filters). First fits: points whose chain's first candidate fits; to libpng: points no candidate fits, "
            + "which libpng's defaults write. Time: the chain's (its first candidate that fits) over libpng's defaults' at each "
            + "point, mean; best: the fastest setting that fits at each point, over libpng's defaults', mean.\n\n"
        text += "As `AutomaticRule.current`:\n\n```swift\n" + report.literal + "\n```\n"
        return text
    }
}
