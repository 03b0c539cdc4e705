import Foundation
import Throbber
import ThrobberRender

/// Runs encode-and-write jobs on the usable cores while the caller keeps rendering, with a
/// bounded number of frames in flight so memory stays flat however long the clip.
public final class EncodePool: @unchecked Sendable {
    private let queue = DispatchQueue(label: "throbber.encode", attributes: .concurrent)
    private let group = DispatchGroup()
    private let slots: DispatchSemaphore
    private let lock = NSLock()
    private var firstError: ThrobberError?
    /// The most jobs queued or running at once.
    public let inFlight: Int

    /// - Parameter inFlight: the most jobs queued or running at once (`BatchRun.framesInFlight`
    ///   gives it for a thread count and a frame size).
    public init(inFlight: Int = 2 * UsableCPUs.current.usable) {
        self.inFlight = max(1, inFlight)
        slots = DispatchSemaphore(value: self.inFlight)
    }

    /// The first error any job threw, if one did.
    public var error: ThrobberError? {
        lock.lock()
        defer { lock.unlock() }
        return firstError
    }

    /// Queues a job, waiting first while the pool is full.
    ///
    /// - Parameters:
    ///   - serial: a serial queue to run it on instead of the pool, for work that must keep its
    ///     order (the frames of one stream); it still counts against the frames in flight.
    ///   - always: run it even after another job failed (clean-up).
    public func submit(on serial: DispatchQueue? = nil, always: Bool = false, _ job: @escaping @Sendable () throws -> Void) {
        slots.wait()
        group.enter()
        (serial ?? queue).async {
            defer {
                self.slots.signal()
                self.group.leave()
            }
            if self.error != nil && !always { return }
            do {
                try job()
            } catch {
                let failure = error as? ThrobberError ?? ThrobberError("\(error)", kind: .io)
                self.lock.lock()
                if self.firstError == nil { self.firstError = failure }
                self.lock.unlock()
            }
        }
    }

    /// Waits for every queued job, then reports the first error.
    public func finish() throws {
        group.wait()
        if let error { throw error }
    }
}

/// A clip's encode pool as its renderer sees it (`FrameExecutor`): stopping once the run is asked
/// to stop or a job has failed.
final class PipelineExecutor: FrameExecutor {
    let pool: EncodePool
    let cancellation: CancellationSource
    let threadCount: Int

    init(pool: EncodePool, cancellation: CancellationSource, threads: Int) {
        self.pool = pool
        self.cancellation = cancellation
        threadCount = threads
    }

    var maximumInFlight: Int { pool.inFlight }
    var isStopping: Bool { cancellation.cancellationReason != nil || pool.error != nil }
    func submit(_ job: @escaping @Sendable () throws -> Void) { pool.submit(job) }
}
