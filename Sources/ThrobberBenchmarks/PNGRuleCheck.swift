import Foundation
import Throbber
import ThrobberBatch
import ThrobberCPU
import ThrobberPNG
import ThrobberRender

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
            let images = PNGSweep.clipFrames(scene, from: item.spec.time, count: frames, renderer: cpu)
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
                    let run = try PNGSweep.timedInSequence(encoder, images)
                    times[i].append(run.ms)
                    bytes[i] = run.bytes
                }
            }
            let medians = slot.map { Summary(times[$0]).median }
            bytes = slot.map { bytes[$0] }
            rows.append(Row(scene: item.spec.scene, set: item.spec.set!, size: size, traits: traits.description,
                            rule: choice.encoder.setting, reason: choice.reason ?? "",
                            before: old.setting, ruleMs: medians[0], beforeMs: medians[1],
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
