import Foundation

/// The frames a run has done so far, added to by `BatchRun`'s `progress` callback from any
/// thread and read by whoever reports it (`render`'s interrupted line, the studio's export events).
public final class ProgressCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    public init() {}

    /// Adds `n` frames.
    public func add(_ n: Int) { lock.withLock { count += n } }

    /// The frames done so far.
    public var value: Int { lock.withLock { count } }
}
