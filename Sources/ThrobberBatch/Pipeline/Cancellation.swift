import Foundation
import Throbber

/// What lets a caller stop a run between frames: the batch pipeline polls `cancellationReason`
/// between frames and, once it is set, stops taking new frames, lets those in flight land whole
/// and throws `.interrupted`. The command line's signal handling is one such source; a library
/// caller can use `CancellationFlag`.
public protocol CancellationSource: Sendable {
    /// Why the run is to stop (for example "SIGINT"), once it is; nil until then.
    var cancellationReason: String? { get }
    /// Runs `body`, the part of a run that finishes its frames in flight when cancelled, while
    /// saying what it is doing (`activity`, for a message if the process is abandoned).
    func finishing<T>(_ activity: String, _ body: () throws -> T) rethrows -> T
}

/// A cancellation a caller sets by hand (from any thread).
public final class CancellationFlag: CancellationSource, @unchecked Sendable {
    private let lock = NSLock()
    private var reason: String?

    public init() {}

    /// Asks the run to stop between frames.
    public func cancel(_ reason: String = "cancellation") {
        lock.withLock { if self.reason == nil { self.reason = reason } }
    }

    public var cancellationReason: String? { lock.withLock { reason } }

    public func finishing<T>(_ activity: String, _ body: () throws -> T) rethrows -> T { try body() }
}

/// Never cancelled: the default for callers that do not stop runs.
public struct NotCancelled: CancellationSource {
    public init() {}
    public var cancellationReason: String? { nil }
    public func finishing<T>(_ activity: String, _ body: () throws -> T) rethrows -> T { try body() }
}

extension ThrobberError {
    /// The error a run that finished its frames in flight reports after a cancellation.
    public static func interrupted(_ reason: String, _ detail: String) -> ThrobberError {
        ThrobberError("interrupted by \(reason) \(detail)", kind: .interrupted)
    }
}

/// Work that cannot check a cancellation itself (one call into a compressor that runs for
/// minutes), run so that its caller need not wait for it once a run is asked to stop.
public enum Cancellable {
    /// Runs `work` on a thread of its own and waits for it, looking at `cancellation` every
    /// 20 ms; once that is set, stops waiting and throws `.interrupted` (the pipeline then reports
    /// the cancellation as usual). The abandoned work finishes on its thread and its result is
    /// dropped: the command line exits right after, a library caller gets its thread back at once.
    ///
    /// - Parameter activity: what was in flight, for the error's message.
    public static func run<T: Sendable>(_ cancellation: CancellationSource, while activity: String,
                                        _ work: @escaping @Sendable () throws -> T) throws -> T {
        let box = Outcome<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.set(Result { try work() })
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
        while done.wait(timeout: .now() + .milliseconds(20)) == .timedOut {
            if let reason = cancellation.cancellationReason {
                throw ThrobberError.interrupted(reason, "while \(activity); it was dropped")
            }
        }
        return try box.get()
    }

    private final class Outcome<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var result: Result<T, Error>?

        func set(_ value: Result<T, Error>) { lock.withLock { result = value } }
        func get() throws -> T { try lock.withLock { result! }.get() }
    }
}
