import Foundation
import Throbber

/// The ordered sinks of one clip, used only from the clip's serial queue.
final class SinkBox: @unchecked Sendable {
    private let sinks: [OrderedSink]
    private var finished = false

    init(_ sinks: [OrderedSink]) { self.sinks = sinks }

    func add(_ image: Image, index: Int) throws {
        for sink in sinks { try sink.add(image, index: index) }
    }

    /// Finishes every sink: their artifacts, and what each came to for the run's report.
    func finish(overwrite: Bool) throws -> (artifacts: [Manifest.Artifact], notes: [String]) {
        var artifacts: [Manifest.Artifact] = []
        for sink in sinks { artifacts += try sink.finish(overwrite: overwrite) }
        finished = true
        return (artifacts, sinks.compactMap(\.note))
    }

    func abortUnfinished() {
        if !finished { sinks.forEach { $0.abort() } }
    }
}

/// An ordered output at a frame rate of its own: each clip frame, as it arrives, is handed on as
/// every output frame that shows it (`Resampling`), numbered as the output's own.
final class ResamplingSink: OrderedSink {
    let inner: OrderedSink
    let timing: Resampling
    private var next = 0

    init(_ inner: OrderedSink, timing: Resampling) {
        self.inner = inner
        self.timing = timing
    }

    func add(_ image: Image, index: Int) throws {
        while next < timing.frames && timing.clipFrame(next) == index {
            try inner.add(image, index: next)
            next += 1
        }
    }

    func finish(overwrite: Bool) throws -> [Manifest.Artifact] {
        precondition(next == timing.frames, "a resampled output finished with \(next) of \(timing.frames) frames")
        return try inner.finish(overwrite: overwrite)
    }

    func abort() { inner.abort() }

    var note: String? { inner.note }
}

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
