import Foundation
import Throbber
import ThrobberCPU

/// CPU renderers shared by encode jobs: a job takes one, draws its frames on its own thread and
/// gives it back. Each renderer keeps its own latest frames, so a job's consecutive frames keep
/// the rows they share (the renderers' frames are never mixed).
public final class CPUFrameWorkers: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [CPURenderer] = []
    private let template: CPURenderer

    public init(like renderer: CPURenderer) {
        var template = renderer
        template.threadCount = 1
        self.template = template
    }

    /// Runs `body` with a renderer no other job holds meanwhile.
    public func with<T>(_ body: (CPURenderer) throws -> T) rethrows -> T {
        lock.lock()
        let renderer = idle.popLast() ?? {
            // A fresh one: its own frame memory and scratch, the template's settings.
            var fresh = CPURenderer(threadCount: 1)
            fresh.shortcuts = template.shortcuts
            fresh.solidRunsPerRow = template.solidRunsPerRow
            fresh.reusesUnchangedRows = template.reusesUnchangedRows
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

    /// Draws each item's frame on this thread, in order, with one renderer, and hands it on.
    public func renderEach<Item>(_ items: [Item], drawList: (Item) -> DrawList, _ body: (Item, Image) throws -> Void) throws {
        try with { cpu in
            for item in items { try body(item, cpu.render(drawList(item), threads: 1)) }
        }
    }
}
