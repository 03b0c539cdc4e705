import Foundation
import Throbber

/// Results computed on many threads, one slot each, read once all are set.
final class ConcurrentResults<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Value?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: Value) { lock.withLock { slots[index] = value } }

    /// Every slot; each must have been set.
    var values: [Value] { lock.withLock { slots.map { $0! } } }
}

/// The manifest's entries, gathered from the encoding threads.
final class ManifestRecords: @unchecked Sendable {
    private let lock = NSLock()
    private var frameList: [Manifest.Frame] = []
    private var artifactList: [Manifest.Artifact] = []

    func add(_ frame: Manifest.Frame) {
        lock.lock()
        frameList.append(frame)
        lock.unlock()
    }

    func add(_ artifact: Manifest.Artifact) { add(contentsOf: [artifact]) }

    func add(contentsOf artifacts: [Manifest.Artifact]) {
        lock.lock()
        artifactList += artifacts
        lock.unlock()
    }

    var frames: [Manifest.Frame] {
        lock.lock()
        defer { lock.unlock() }
        return frameList.sorted { ($0.file) < ($1.file) }
    }

    var artifacts: [Manifest.Artifact] {
        lock.lock()
        defer { lock.unlock() }
        return artifactList.sorted { $0.file < $1.file }
    }

    /// What ordered outputs came to (a sheet's pages), for the run's report, in the order said.
    private var noteList: [String] = []

    func add(notes: [String]) { lock.withLock { noteList += notes } }

    var notes: [String] { lock.withLock { noteList } }
}
