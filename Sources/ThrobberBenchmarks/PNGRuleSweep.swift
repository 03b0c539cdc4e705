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
                        let sequence = PNGSequence()
                        _ = try encoder.encode(frames[0], sequence: sequence)
                        let start = clock.now
                        for frame in frames.dropFirst() { total += try encoder.encode(frame, sequence: sequence).count }
                        means.append((clock.now - start).seconds * 1000 / Double(timed))
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
                let images = (0...frames).map { cpu.render(scene.drawList(at: item.spec.time + Double($0) / 60)) }
                points += try measure(images, spec: item.spec, size: size, settings: encoders, repeats: settings.repeats)
            }
        }
        var report = Report(seed: seed, sets: sets, sizes: sizes, frames: frames, repeats: settings.repeats,
                            settings: encoders.map(PNGSweep.settingName), cases: cases.map(\.spec), points: points, leftOut: skipped)
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

    /// The rule from `points`: per size (a step up to it), the chain of settings that writes the
    /// points fastest (``chain(_:settings:)``), split by the trait and threshold that save the
    /// most time when that is at least ``splitGain``, and each side again so, at most
    /// ``maximumDepth`` deep; then runs of steps that came out alike, merged.
    public static func rule(points: [Point], sizes: [Int], settings: [PNGEncoder]) -> (AutomaticRule, [StepReport]) {
        var steps: [AutomaticRule.Step] = []
        var reports: [StepReport] = []
        let r = reference(settings)
        for (index, size) in sizes.enumerated() {
            let lower = index == 0 ? 0 : sizes[index - 1]
            let here = points.filter { $0.side > lower && $0.side <= size }
            guard !here.isEmpty else { continue }
            let least = max(smallestSide, here.count / 10)
            let (node, cost) = Self.node(here, settings: settings, depth: 0, least: least)
            let rule = AutomaticRule(steps: [AutomaticRule.Step(size, node)])
            var first = 0, yardstick = 0
            for point in here {
                let chain = rule.candidates(for: point.traits).settings.map { Self.index(of: $0, in: settings) }
                if let fit = chain.firstIndex(where: { fits(point, $0) }) { if fit == 0 { first += 1 } } else { yardstick += 1 }
            }
            reports.append(StepReport(side: size, points: here.count, decision: describe(node), firstFits: first, toYardstick: yardstick,
                                      meanTimeOverReference: cost / Double(here.count),
                                      bestTimeOverReference: here.map { bestFit($0, settings: settings) / max($0.ms[r], 1e-6) }
                                        .reduce(0, +) / Double(here.count)))
            if let last = steps.last, last.node == node {
                steps[steps.count - 1].side = size
            } else {
                steps.append(AutomaticRule.Step(size, node))
            }
        }
        // The last step covers every larger side.
        if !steps.isEmpty { steps[steps.count - 1].side = max(steps[steps.count - 1].side, 16_384) }
        return (AutomaticRule(steps: steps), reports)
    }

    /// How deep a step's splits go, and the most candidates a chain holds.
    public static let maximumDepth = 3, maximumChain = 3
    /// A candidate joins a chain when it saves at least this share of the chain's time.
    public static let chainGain = 0.02

    /// Whether setting `i` writes the point's frames within ``sizeMargin`` of libpng's defaults.
    static func fits(_ point: Point, _ i: Int) -> Bool { point.bytes[i] <= point.referenceBytes * sizeMargin }

    /// The fastest setting at a point that fits (libpng's defaults' time where none does).
    static func bestFit(_ point: Point, settings: [PNGEncoder]) -> Double {
        settings.indices.filter { fits(point, $0) }.map { point.ms[$0] }.min() ?? point.ms[reference(settings)]
    }

    static func index(of setting: AutomaticRule.Setting, in settings: [PNGEncoder]) -> Int {
        settings.firstIndex { $0.name == setting.encoder && $0.level == setting.level && $0.filter == setting.filter }!
    }

    /// A chain's time at a point over libpng's defaults': the first setting of the chain that
    /// fits, as the trial keeps it; libpng's defaults (1) where none does.
    static func cost(_ chain: [Int], at point: Point, reference r: Int) -> Double {
        guard let i = chain.first(where: { fits(point, $0) }) else { return 1 }
        return point.ms[i] / max(point.ms[r], 1e-6)
    }

    /// The chain for `points`, built forward: each round, the setting whose joining saves the most
    /// time (at least ``chainGain``), at most ``maximumChain`` of them; a chain runs fastest first
    /// (by the median over the points of each setting's time over libpng's defaults'). With its
    /// time summed over the points (each over libpng's defaults').
    static func chain(_ points: [Point], settings: [PNGEncoder]) -> ([Int], Double) {
        let r = reference(settings)
        let speed = settings.indices.map { i in Summary(points.map { $0.ms[i] / max($0.ms[r], 1e-6) }).median }
        func ordered(_ chain: [Int]) -> [Int] { chain.sorted { (speed[$0], $0) < (speed[$1], $1) } }
        func total(_ chain: [Int]) -> Double { points.reduce(0) { $0 + cost(chain, at: $1, reference: r) } }
        var chain: [Int] = []
        var time = total([])
        while chain.count < maximumChain {
            var best: (chain: [Int], time: Double)?
            for i in settings.indices where i != r && !chain.contains(i) {
                let trial = ordered(chain + [i])
                let t = total(trial)
                if t < best?.time ?? .infinity { best = (trial, t) }
            }
            guard let best, best.time < time * (1 - chainGain) else { break }
            (chain, time) = best
        }
        return (chain, time)
    }

    /// The decision for `points`: the best chain (``chain(_:settings:)``), or, above
    /// ``maximumDepth`` (a step's first split on `changed` alone), the split whose two sides' chains save at least ``splitGain`` of the time
    /// a choice can change (not counting points no setting fits, which libpng's defaults write)
    /// (each side with at least `least` points; thresholds between the values at 32 quantiles at
    /// most), each side decided the same way.
    static func node(_ points: [Point], settings: [PNGEncoder], depth: Int, least: Int) -> (AutomaticRule.Node, Double) {
        let (indices, cost) = chain(points, settings: settings)
        let leaf = AutomaticRule.Node.chain(indices.map { setting(settings[$0]) })
        guard depth < maximumDepth else { return (leaf, cost) }
        // Points no setting fits cost libpng's time whatever the rule: the gain a split must
        // bring is a share of the time the rule can change.
        let unavoidable = Double(points.filter { point in !settings.indices.contains { fits(point, $0) } }.count)
        let needed = (cost - unavoidable) * splitGain
        var best: (trait: AutomaticRule.Trait, threshold: Double, cost: Double)?
        // A step's first split, where there is one, is on the rows changed: what decides whether
        // a setting that takes unchanged segments from the frame before gains at all.
        for trait in depth == 0 ? [.changed] : AutomaticRule.Trait.allCases {
            let values = points.map { $0.traits.value(of: trait) }.sorted()
            var cuts: Set<Double> = []
            for k in 1..<32 {
                let a = values[(values.count - 1) * (k - 1) / 31], b = values[(values.count - 1) * k / 31]
                guard a < b else { continue }
                // Three decimals where that falls between the two values: a threshold a reader can check.
                let rounded = ((a + b) / 2 * 1000).rounded() / 1000
                cuts.insert(rounded > a && rounded <= b ? rounded : (a + b) / 2)
            }
            for threshold in cuts.sorted() {
                let below = points.filter { $0.traits.value(of: trait) < threshold }
                let above = points.filter { $0.traits.value(of: trait) >= threshold }
                guard below.count >= least, above.count >= least else { continue }
                let (low, lowCost) = chain(below, settings: settings)
                let (high, highCost) = chain(above, settings: settings)
                guard low != high, lowCost + highCost < cost - needed, lowCost + highCost < best?.cost ?? .infinity else { continue }
                best = (trait, threshold, lowCost + highCost)
            }
        }
        guard let best else { return (leaf, cost) }
        let (low, lowCost) = node(points.filter { $0.traits.value(of: best.trait) < best.threshold }, settings: settings,
                                  depth: depth + 1, least: least)
        let (high, highCost) = node(points.filter { $0.traits.value(of: best.trait) >= best.threshold }, settings: settings,
                                    depth: depth + 1, least: least)
        return (.split(best.trait, best.threshold, below: low, atOrAbove: high), lowCost + highCost)
    }

    static func setting(_ encoder: PNGEncoder) -> AutomaticRule.Setting { AutomaticRule.Setting(encoder.name, encoder.level, encoder.filter) }

    /// Where the reference (libpng's defaults) is among `settings`.
    static func reference(_ settings: [PNGEncoder]) -> Int { settings.firstIndex(of: PNGSweep.reference)! }

    /// A node in words: "changed ≥ 0.5 ? [libdeflate 1 none, zlib 4 up] : [zlib 4 none]".
    static func describe(_ node: AutomaticRule.Node) -> String {
        switch node {
        case .chain(let settings): "[" + settings.map(\.description).joined(separator: ", ") + "]"
        case .split(let trait, let threshold, let below, let above):
            "\(trait.rawValue) ≥ \(threshold) ? \(describeNested(above)) : \(describeNested(below))"
        }
    }

    static func describeNested(_ node: AutomaticRule.Node) -> String {
        if case .chain = node { return describe(node) }
        return "(" + describe(node) + ")"
    }

    /// The rule as ``AutomaticRule/current`` holds it.
    public static func literal(_ rule: AutomaticRule) -> String {
        func setting(_ s: AutomaticRule.Setting) -> String {
            "Setting(\"\(s.encoder)\", \(s.level)\(s.filter == .unfiltered ? "" : ", .\(s.filter)"))"
        }
        func node(_ n: AutomaticRule.Node, indent: String) -> String {
            switch n {
            case .chain(let settings): return ".chain([" + settings.map(setting).joined(separator: ", ") + "])"
            case .split(let trait, let threshold, let below, let above):
                let inner = indent + "    "
                return ".split(.\(trait.rawValue), \(threshold),\n\(inner)below: \(node(below, indent: inner)),\n\(inner)atOrAbove: \(node(above, indent: inner)))"
            }
        }
        let lines = rule.steps.map { step in
            let side = step.side >= 16_384 ? "16_384" : String(step.side)
            return "        Step(\(side), \(node(step.node, indent: "        ")))," 
        }
        return "    public static let current = AutomaticRule(steps: [\n" + lines.joined(separator: "\n") + "\n    ])"
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

extension PNGSweep {
    /// "zlib 4 none".
    static func settingName(_ encoder: PNGEncoder) -> String { "\(encoder.name) \(encoder.level) \(encoder.filter.rawValue)" }
}

/// `throbber bench --png-sweep --check-rule`: ``AutomaticRule/current`` on parameter sets it was
/// not derived from (`--seed`), against the table by scene name it replaced (``tableBefore``) and
/// libpng's defaults: every built-in (random paths included), `--sets` drawn sets each, each set
/// at one size of `--sizes` in turn; the two choices timed alternately on the same frames in a
/// sequence, as a clip encodes them.
public enum PNGRuleCheck {
    /// `auto` until issue 49: per scene id and side, the steps `bench --png-sweep` measured on the
    /// built-ins at their defaults, and one rule for any other scene. Kept here only so the check
    /// can set the rule against it.
    static let tableBefore: [String: [(Int, PNGEncoder)]] = [
        "wave-ball": [(128, .isal(level: 0)), (512, .isal(level: 2)), (4096, .zlib(level: 4))],
        "double-wave": [(96, .isal(level: 1, filter: .sub)), (128, .libdeflate(level: 3, filter: .sub)), (256, .libdeflate(level: 2, filter: .sub)),
                        (1024, .zlib(level: 4, filter: .sub)), (2048, .libdeflate(level: 3, filter: .sub)), (4096, .libdeflate(level: 5, filter: .sub))],
        "pull-wave": [(64, .libdeflate(level: 2, filter: .sub)), (96, .isal(level: 1, filter: .sub)), (128, .isal(level: 2, filter: .sub)),
                      (192, .isal(level: 1, filter: .sub)), (256, .isal(level: 2, filter: .sub)), (384, .isal(level: 1, filter: .sub)),
                      (2048, .zlib(level: 4, filter: .sub)), (4096, .libdeflate(level: 2, filter: .sub))],
        "activity": [(256, .isal(level: 2)), (384, .zlib(level: 3)), (4096, .zlib(level: 4))],
        "ring": [(96, .isal(level: 2)), (384, .libdeflate(level: 1)), (1024, .zlib(level: 4)), (4096, .zlib(level: 5))],
        "progress-ring": [(192, .isal(level: 0)), (256, .isal(level: 2)), (384, .libdeflate(level: 1)), (4096, .zlib(level: 4))],
        "hud": [(96, .isal(level: 2)), (384, .libdeflate(level: 1)), (1024, .zlib(level: 4)), (4096, .zlib(level: 5))],
    ]
    static let tableBeforeAnyScene: [(Int, PNGEncoder)] = [(192, .isal(level: 2)), (384, .libdeflate(level: 1)), (Int.max, .zlib(level: 4))]

    /// What the table before chose for `scene`'s frames of `side` px.
    static func before(scene: String, side: Int) -> PNGEncoder {
        let steps = tableBefore[scene] ?? tableBeforeAnyScene
        return (steps.first { side <= $0.0 } ?? steps[steps.count - 1]).1
    }

    struct Row: Codable {
        var scene: String
        var set: Int
        var size: Int
        var traits: String
        var rule: String
        var reason: String
        var before: String
        var ruleMs: Double
        var beforeMs: Double
        var ruleSizeRatio: Double
        var beforeSizeRatio: Double
    }

    struct Report: Codable {
        var seed: UInt64
        var sets: Int
        var frames: Int
        var repeats: Int
        var rows: [Row]
        /// Sets whose files by the rule are no larger than libpng's defaults.
        var noLarger: Int
        /// Sets where the rule's time is at most the table's (strictly), and within 5 % of it.
        var noSlower: Int
        var withinFivePercent: Int
    }

    public static func run(_ settings: Benchmarks.Settings, sizesGiven: Bool, sets: Int, seed: UInt64, json: ReportFile?,
                           progress: (String) -> Void) throws {
        let sizes = sizesGiven ? settings.sizes : [64, 128, 256, 512, 1024, 2048]
        let frames = max(1, min(settings.frames, PNGSweep.maximumFramesPerScene))
        let cases = try PNGRuleSweep.cases(seed: seed, sets: sets, files: []).filter { $0.spec.set != nil }
        let cpu = CPURenderer(threadCount: UsableCPUs.current.usable)
        let clock = ContinuousClock()
        var rows: [Row] = []
        for (number, item) in cases.enumerated() {
            // The next size down where a drawn set is too costly to draw at its own.
            var size = sizes[number % sizes.count]
            progress("\(number + 1)/\(cases.count) \(item.spec.label) at \(size) px")
            var drawn: LaidOutScene?
            for smaller in sizes.filter({ $0 <= size }).reversed() where drawn == nil {
                drawn = try? PNGRuleSweep.scaled(item.scene, size: smaller)
                size = smaller
            }
            guard let scene = drawn else { continue }
            let images = (0...frames).map { cpu.render(scene.drawList(at: item.spec.time + Double($0) / 60)) }
            let traits = FrameTraits(images[1], previous: images[0])
            let choice = try PNGEncoder.automatic.choice(for: images[1], previous: images[0])
            let old = before(scene: item.spec.scene, side: traits.side)
            // The rule's choice, the table's and libpng's defaults, each distinct setting measured
            // once a repeat (the same setting stands for two of them when they agree), alternated.
            var encoders: [PNGEncoder] = []
            for encoder in [choice.encoder, old, PNGSweep.reference] where !encoders.contains(encoder) { encoders.append(encoder) }
            let slot = [choice.encoder, old, PNGSweep.reference].map { encoders.firstIndex(of: $0)! }
            var times = Array(repeating: [Double](), count: encoders.count)
            var bytes = Array(repeating: 0, count: encoders.count)
            for encoder in encoders { _ = try encoder.encode(images[1]) }
            for _ in 0..<settings.repeats {
                for (i, encoder) in encoders.enumerated() {
                    let sequence = PNGSequence()
                    _ = try encoder.encode(images[0], sequence: sequence)
                    var total = 0
                    let start = clock.now
                    for frame in images.dropFirst() { total += try encoder.encode(frame, sequence: sequence).count }
                    times[i].append((clock.now - start).seconds * 1000 / Double(frames))
                    bytes[i] = total
                }
            }
            let medians = slot.map { Summary(times[$0]).median }
            bytes = slot.map { bytes[$0] }
            rows.append(Row(scene: item.spec.scene, set: item.spec.set!, size: size, traits: traits.description,
                            rule: PNGSweep.settingName(choice.encoder), reason: choice.reason ?? "",
                            before: PNGSweep.settingName(old), ruleMs: medians[0], beforeMs: medians[1],
                            ruleSizeRatio: Double(bytes[0]) / Double(bytes[2]), beforeSizeRatio: Double(bytes[1]) / Double(bytes[2])))
        }
        let report = Report(seed: seed, sets: sets, frames: frames, repeats: settings.repeats, rows: rows,
                            noLarger: rows.filter { $0.ruleSizeRatio <= 1 }.count,
                            noSlower: rows.filter { $0.ruleMs <= $0.beforeMs }.count,
                            withinFivePercent: rows.filter { $0.ruleMs <= $0.beforeMs * 1.05 }.count)
        print(markdown(report), terminator: "")
        try json?.write(try JSONOutput.encoder.encode(report))
    }

    static func markdown(_ report: Report) -> String {
        var text = "## auto's rule against the table by scene name it replaced: \(report.rows.count) drawn sets (seed \(report.seed)), "
            + "\(report.frames) frames timed in a sequence after a primer, median of \(report.repeats), alternated\n\n"
        text += "| scene | set | px | traits | rule | table before | rule ms | before ms | time ratio | rule size | before size |\n"
        text += "|---|---:|---:|---|---|---|---:|---:|---:|---:|---:|\n"
        for r in report.rows {
            text += "| \(r.scene) | \(r.set) | \(r.size) | \(r.traits) | \(r.rule) | \(r.before) | "
                + String(format: "%.3f | %.3f | %.2f | %.3f | %.3f |\n", r.ruleMs, r.beforeMs, r.ruleMs / r.beforeMs,
                         r.ruleSizeRatio, r.beforeSizeRatio)
        }
        let n = report.rows.count
        text += "\nFiles no larger than libpng's defaults: rule \(report.noLarger) of \(n) sets, table before "
            + "\(report.rows.filter { $0.beforeSizeRatio <= 1 }.count) of \(n). Rule's time at most the table's: \(report.noSlower) of \(n); "
            + "within 5 %: \(report.withinFivePercent) of \(n) (\(String(format: "%.1f", Double(report.withinFivePercent) / Double(max(n, 1)) * 100)) %).\n"
        let ratios = report.rows.map { $0.ruleMs / $0.beforeMs }
        if !ratios.isEmpty {
            let total = report.rows.map(\.ruleMs).reduce(0, +) / report.rows.map(\.beforeMs).reduce(0, +)
            text += String(format: "Time over all sets: %.3f× the table's.\n", total)
        }
        return text
    }
}
