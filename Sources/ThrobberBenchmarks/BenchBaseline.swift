import Foundation
import Throbber
import ThrobberBatch
import ThrobberPNG
import ThrobberRender

/// `bench --baseline OLD.json`: each figure of this run beside the same figure of a saved run,
/// with a verdict that takes the runs' own noise into account.
///
/// A figure's noise is the spread of its repeats: every sample set (`--repeat R`) gives a median,
/// and a change counts only when the two runs' repeat medians do not overlap — every repeat of
/// one run faster than every repeat of the other — and the medians differ by more than
/// `minimumChange`. With a single repeat in either run there is no spread to go by, and a change
/// must exceed `singleRepeatChange` instead.
public struct BenchBaseline {
    /// Below this relative change of the medians a figure is "within noise" however tight the
    /// repeats are: a shared machine moves by that much between runs.
    public static let minimumChange = 0.02
    /// The change that counts when either run has one repeat only.
    public static let singleRepeatChange = 0.10

    public enum Verdict: String, Codable {
        case faster, slower
        case withinNoise = "within noise"
    }

    public struct Comparison: Codable {
        var scene: String
        var size: Int
        var backend: String
        var stage: String
        var oldMs: Double
        var newMs: Double
        /// (new − old) / old of the median ms per frame: negative is faster.
        var change: Double
        var verdict: Verdict
    }

    public let old: BenchReport

    /// Reads a report written by `bench --json`.
    ///
    /// - Parameter writer: what writes such reports, in the caller's user's words, for the
    ///   message when the file is not one.
    /// - Throws: `noInput` when the file cannot be read (with the reason), `dataError` when it
    ///   is not a bench report.
    public init(path: String, writer: String = "Benchmarks.measure") throws {
        let bytes = try InputFile.read(path, what: "baseline")
        do {
            old = try JSONDecoder().decode(BenchReport.self, from: Data(bytes))
        } catch {
            throw ThrobberError("\(ThrobberError.echoed(path, longest: ThrobberError.longestPathEcho)) is not a report written by "
                                + writer, kind: .badData)
        }
    }

    /// The verdict on a figure whose repeat medians were `old` and are now `new` (ms per frame).
    public static func verdict(old: [Double], new: [Double]) -> (change: Double, verdict: Verdict) {
        let oldMedian = Summary(old).median, newMedian = Summary(new).median
        let change = (newMedian - oldMedian) / oldMedian
        guard change.isFinite else { return (0, .withinNoise) }
        if old.count < 2 || new.count < 2 {
            return (change, abs(change) <= singleRepeatChange ? .withinNoise : change < 0 ? .faster : .slower)
        }
        guard abs(change) > minimumChange else { return (change, .withinNoise) }
        if new.max()! < old.min()! { return (change, .faster) }
        if new.min()! > old.max()! { return (change, .slower) }
        return (change, .withinNoise)
    }

    /// Every row of `new` that the baseline also measured, in `new`'s order.
    public func compare(_ new: BenchReport) -> [Comparison] {
        var saved: [String: BenchReport.Row] = [:]
        for row in old.rows { saved["\(row.scene)|\(row.size)|\(row.backend)|\(row.stage)"] = row }
        return new.rows.compactMap { row in
            guard let before = saved["\(row.scene)|\(row.size)|\(row.backend)|\(row.stage)"] else { return nil }
            let (change, verdict) = BenchBaseline.verdict(old: before.repeatMedians ?? [before.ms.median],
                                                          new: row.repeatMedians ?? [row.ms.median])
            return Comparison(scene: row.scene, size: row.size, backend: row.backend, stage: row.stage,
                              oldMs: before.ms.median, newMs: row.ms.median, change: change, verdict: verdict)
        }
    }

    /// The comparison as Markdown: what was compared with what, then one row per figure.
    public func markdown(_ new: BenchReport, _ comparisons: [Comparison]) -> String {
        func describe(_ m: BenchReport.Method) -> String {
            "commit \(m.commit), \(m.date), \(m.cpu) (\(m.cores) cores), \(m.glRenderer ?? "no GL"), \(m.repeats) repeat\(m.repeats == 1 ? "" : "s")"
        }
        var text = "\n## Against the baseline\n\nbaseline: \(describe(old.method))\nthis run: \(describe(new.method))\n\n"
        text += "A change counts when every repeat of one run is faster than every repeat of the other and the medians differ by "
            + "more than \(Int(BenchBaseline.minimumChange * 100)) % (more than \(Int(BenchBaseline.singleRepeatChange * 100)) % "
            + "when either run has one repeat).\n\n"
        text += "| scene | size | backend | stage | baseline ms | ms | change | verdict |\n|---|---:|---|---|---:|---:|---:|---|\n"
        for c in comparisons {
            text += "| \(c.scene) | \(c.size) | \(c.backend) | \(c.stage) | \(String(format: "%.3f", c.oldMs)) | "
                + "\(String(format: "%.3f", c.newMs)) | \(String(format: "%+.1f %%", c.change * 100)) | \(c.verdict.rawValue) |\n"
        }
        let counts = Dictionary(grouping: comparisons, by: \.verdict).mapValues(\.count)
        text += "\n\(comparisons.count) figures compared: \(counts[.faster] ?? 0) faster, \(counts[.slower] ?? 0) slower, "
            + "\(counts[.withinNoise] ?? 0) within noise\n"
        return text
    }
}
