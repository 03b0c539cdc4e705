import Foundation
import Throbber

/// What this process must undo if it is stopped between creating something and finishing it:
/// named temporary files, the child processes that write them, lock files.
///
/// A command stopped by SIGINT or SIGTERM outside a loop that can finish its frames calls
/// `abandon()` and exits: every undo runs, so nothing partial is left. Creation and registration
/// happen under one lock that `abandon()` takes and never gives back, so a file is either created
/// and registered before the clean-up (and removed by it) or never created at all.
public final class InFlightFiles: @unchecked Sendable {
    /// The process's one registry: a signal abandons the whole process.
    public static let shared = InFlightFiles()

    /// Names one registered undo, to drop it once the thing it undoes is finished.
    public struct Token: Sendable, Hashable {
        fileprivate let value: Int
    }

    private let lock = NSLock()
    private var undos: [Int: @Sendable () -> Void] = [:]
    private var nextToken = 0
    private let stopLock = NSLock()
    private var stopping = false

    /// Says that the process is stopping (a first SIGINT or SIGTERM while a run finishes its
    /// frames): a wait that may last for ever, such as opening a FIFO no one reads, gives up.
    public func requestStop() { stopLock.withLock { stopping = true } }

    /// Whether ``requestStop()`` was called.
    public var stopRequested: Bool { stopLock.withLock { stopping } }

    private init() {}

    /// Runs `create` and, when it succeeds, registers `undo` for what it made, in one step that
    /// `abandon()` cannot split.
    ///
    /// - Parameters:
    ///   - create: makes the thing (opens a temporary file, starts a child); returns nil when it
    ///     failed (with `errno` captured by the caller), and then nothing is registered.
    ///   - undo: removes what `create` made; gets the value `create` returned (a descriptor, a pid).
    /// - Returns: what `create` returned and the token to pass to `finished`, or nil.
    public func creating<Value: Sendable>(_ create: () throws -> Value?,
                                          undo: @escaping @Sendable (Value) -> Void) rethrows -> (value: Value, token: Token)? {
        lock.lock()
        defer { lock.unlock() }
        guard let value = try create() else { return nil }
        let token = Token(value: nextToken)
        nextToken += 1
        undos[token.value] = { undo(value) }
        return (value, token)
    }

    /// Registers `undo` for something that already exists (a scratch directory, a lock file).
    public func register(undo: @escaping @Sendable () -> Void) -> Token {
        creating({ () as Void? }, undo: { _ in undo() })!.token
    }

    /// Forgets an undo: what it would undo is finished (renamed into place) or already removed.
    public func finished(_ token: Token) {
        lock.lock()
        undos[token.value] = nil
        lock.unlock()
    }

    /// Runs every registered undo and keeps the registry locked for good, so no thread creates a
    /// new temporary file afterwards; the caller exits next.
    public func abandon() {
        lock.lock()
        for undo in undos.values { undo() }
        undos = [:]
    }
}
