import Dispatch
import Foundation
import Glibc
import Throbber
import ThrobberBatch
import ThrobberRender

/// SIGINT and SIGTERM for every command, one mechanism: the signals arrive through dispatch
/// signal sources (libdispatch takes them off the threads with a signalfd), never as a handler
/// that interrupts a thread mid-write.
///
/// - While a loop that can finish its frames runs (`whileFinishing`), the first signal is only
///   recorded: the loop stops taking new frames, lets those in flight land whole, and reports
///   `interrupted` itself (`ThrobberError.interrupted`).
/// - Anywhere else — opening a backend, planning a batch, encoding a preview sheet, writing a
///   report — and on a second signal, the process is abandoned: every temporary file, child
///   process and lock registered with `InFlightFiles` is undone, one line is printed, and it
///   exits 130. Files already in place are whole (they are linked or renamed only when whole).
final class Interrupts: @unchecked Sendable {
    /// The process's handler, installed by `main` before any command runs.
    static let shared = Interrupts()

    private let lock = NSLock()
    private var received: Int32?
    private var finishingDepth = 0
    private var activity = "starting"
    private var sources: [DispatchSourceSignal] = []
    private let queue = DispatchQueue(label: "throbber.signals")

    private init() {}

    /// Starts listening for SIGINT and SIGTERM; returns once both sources are registered, so a
    /// signal sent from then on is always seen (before, the default action still ends the process).
    func install() {
        let registered = DispatchGroup()
        for number in [SIGINT, SIGTERM] {
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [unowned self] in self.receive(number) }
            registered.enter()
            source.setRegistrationHandler { registered.leave() }
            source.resume()
            sources.append(source)
        }
        _ = registered.wait(timeout: .now() + 5)
    }

    /// Says what the process is doing, for the line printed if it is abandoned ("render",
    /// "batch planning").
    ///
    /// - Returns: what it said before, for a caller inside another command (bench runs batches)
    ///   to put back.
    @discardableResult
    func doing(_ text: String) -> String {
        lock.withLock {
            defer { activity = text }
            return activity
        }
    }

    /// Runs `body` with signals recorded instead of acted on; `body` polls `signal` between
    /// frames and finishes what is in flight. A second signal still abandons the process.
    func whileFinishing<T>(_ body: () throws -> T) rethrows -> T {
        lock.withLock { finishingDepth += 1 }
        defer { lock.withLock { finishingDepth -= 1 } }
        return try body()
    }

    /// The first signal received while finishing, if any.
    var signal: Int32? {
        lock.withLock { received }
    }

    /// The name of `signal` for messages.
    static func name(_ signal: Int32?) -> String { signal == SIGTERM ? "SIGTERM" : "SIGINT" }

    private func receive(_ number: Int32) {
        lock.lock()
        if finishingDepth > 0 && received == nil {
            received = number
            lock.unlock()
            InFlightFiles.shared.requestStop()
            return
        }
        let again = received != nil
        let activity = self.activity
        lock.unlock()
        abandon(number, during: activity, again: again)
    }

    /// Undoes everything in flight, prints one line and exits 130 at once.
    private func abandon(_ number: Int32, during activity: String, again: Bool) -> Never {
        InFlightFiles.shared.abandon()
        let line = again
            ? "throbber: interrupted by \(Interrupts.name(number)) again during \(activity); abandoned the frames in flight, nothing partial was left\n"
            : "throbber: interrupted by \(Interrupts.name(number)) during \(activity); nothing partial was left\n"
        // write(2) and _exit(2): the other threads are still running, so nothing that takes
        // their locks (stdio buffers, atexit handlers) may run now.
        _ = line.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
        _exit(ExitCode.interrupted.rawValue)
    }
}

extension Interrupts: CancellationSource {
    /// The signal's name once one arrived while finishing.
    var cancellationReason: String? { signal.map { Interrupts.name($0) } }

    func finishing<T>(_ activity: String, _ body: () throws -> T) rethrows -> T {
        let outer = doing(activity)
        defer { doing(outer) }
        return try whileFinishing(body)
    }
}

extension ThrobberError {
    /// The error a loop that finished its frames in flight reports after a signal.
    static func interrupted(_ signal: Int32?, _ detail: String) -> ThrobberError {
        .interrupted(Interrupts.name(signal), detail)
    }
}
