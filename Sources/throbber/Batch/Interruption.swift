import Dispatch
import Foundation
import Glibc

/// Turns SIGINT and SIGTERM into a flag the render loop polls, so a batch stops between frames:
/// frames in flight are finished (their files appear whole) and nothing partial is left.
final class Interruption: @unchecked Sendable {
    private let lock = NSLock()
    private var received: Int32?
    private var sources: [DispatchSourceSignal] = []

    init() {
        for number in [SIGINT, SIGTERM] {
            Glibc.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.record(number) }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        sources.forEach { $0.cancel() }
    }

    private func record(_ number: Int32) {
        lock.lock()
        if received == nil { received = number }
        lock.unlock()
    }

    /// The first signal received, if any.
    var signal: Int32? {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    /// The signal's name for messages.
    var signalName: String { signal == SIGTERM ? "SIGTERM" : "SIGINT" }
}
