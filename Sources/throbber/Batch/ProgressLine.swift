import Foundation
import ThrobberBatch
import ThrobberRender

/// Frames done, frames/s and ETA on stderr: rewritten in place on a terminal, a line every few
/// seconds when asked for elsewhere, nothing otherwise.
final class ProgressLine: @unchecked Sendable {
    private let total: Int
    private let enabled: Bool
    private let terminal: Bool
    private let lock = NSLock()
    private var done = 0
    private let began = ContinuousClock.now
    private var lastPrint = ContinuousClock.now
    private var printedAny = false

    /// - Parameters:
    ///   - forced: `--progress`: print even when stderr is not a terminal.
    ///   - quiet: `--quiet`: print nothing.
    init(total: Int, forced: Bool, quiet: Bool) {
        self.total = total
        terminal = isatty(STDERR_FILENO) == 1
        enabled = !quiet && (terminal || forced)
    }

    /// Counts `count` more frames done.
    func advance(_ count: Int = 1) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        done += count
        let now = ContinuousClock.now
        let interval: Duration = terminal ? .milliseconds(200) : .seconds(2)
        if now - lastPrint >= interval || done == total {
            lastPrint = now
            write(now)
        }
    }

    private func write(_ now: ContinuousClock.Instant) {
        let seconds = (now - began).seconds
        let rate = Double(done) / max(seconds, 1e-9)
        let eta = rate > 0 ? Double(total - done) / rate : 0
        let line = String(format: "batch: %d/%d frames (%.1f%%), %.1f frames/s, ETA %@",
                          done, total, 100 * Double(done) / Double(max(total, 1)), rate, ProgressLine.duration(eta))
        FileHandle.standardError.write(Data((terminal ? "\r\u{1B}[K" + line : line + "\n").utf8))
        printedAny = true
    }

    /// Ends the line on a terminal.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if enabled && terminal && printedAny { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        if s >= 3600 { return String(format: "%dh%02dm", s / 3600, s % 3600 / 60) }
        if s >= 60 { return String(format: "%dm%02ds", s / 60, s % 60) }
        return "\(s)s"
    }
}
