import Foundation
import Throbber
import ThrobberCPU

/// CPU renderers shared by a pipeline's jobs: a job takes one, draws its frames on its own thread
/// and gives it back. Each renderer keeps its own latest frames, so a job's consecutive frames
/// keep the rows they share (the renderers' frames are never mixed); all count their bands into
/// the renderer they were made like (`CPURenderer.reuseStatistics`).
final class CPUFrameWorkers: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [CPURenderer] = []
    private let template: CPURenderer

    init(like renderer: CPURenderer) { template = renderer }

    /// Runs `body` with a renderer no other job holds meanwhile.
    func with<T>(_ body: (CPURenderer) throws -> T) rethrows -> T {
        lock.lock()
        let renderer = idle.popLast() ?? {
            let fresh = template.worker(threadCount: 1)
            // A job lets go of each frame before it draws the next (`renderEach`), so the frame
            // drawn into and the latest, to copy rows from, are all a worker needs to keep; more
            // would be memory per worker that the pipeline's frame budget does not see.
            fresh.keptFrames = 2
            return fresh
        }()
        lock.unlock()
        defer {
            lock.lock()
            idle.append(renderer)
            lock.unlock()
        }
        return try body(renderer)
    }

    /// Draws each frame on this thread, in order, with one renderer, and hands it on; once
    /// `stopping` says so, gives up the frame being drawn (between two bands of rows) and the
    /// rest, handing none of them on.
    func renderEach(_ frames: [Int], drawList: (Int) throws -> DrawList, stopping: @escaping @Sendable () -> Bool,
                    _ body: (Int, Image) throws -> Void) throws {
        try with { cpu in
            for k in frames {
                guard !stopping(), let image = cpu.render(try drawList(k), threads: 1, stopping: stopping) else { return }
                try body(k, image)
            }
        }
    }
}
