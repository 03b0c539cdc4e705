import Foundation

/// Whether the test run re-records its baselines (golden images, help-text snapshots) instead
/// of checking them.
///
/// Set `THROBBER_RECORD=1` for a run: every
/// baseline the run touches is written anew and each of those tests fails, naming the file, so a
/// baseline never changes silently — the next run, without the variable, is the one that passes
/// (swift-argument-parser's `assertSnapshot` works the same way).
public enum RecordMode {
    /// True when this run writes baselines instead of comparing with them.
    public static var isOn: Bool {
        ProcessInfo.processInfo.environment["THROBBER_RECORD"] == "1"
    }

    /// The line a re-recorded test fails with.
    public static func rerecorded(_ url: URL) -> String {
        "re-recorded \(url.lastPathComponent); unset THROBBER_RECORD and rerun"
    }

    /// The line a test fails with when its baseline is missing.
    public static func missing(_ url: URL) -> String {
        "missing baseline \(url.path); record it with THROBBER_RECORD=1"
    }
}
