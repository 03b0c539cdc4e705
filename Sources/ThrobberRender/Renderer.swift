import Throbber
import ThrobberCPU
import ThrobberGL

/// What every renderer does: turn draw lists into images (DESIGN "Data flow": DrawList → renderer
/// → Image). Both backends conform — the CPU reference renderer and the GL renderer — and so does
/// `FrameRenderer`, the one a command opens by backend name.
///
/// A pipeline asks a renderer for frames and nothing else (`render(_:on:)`): how it spreads them
/// over threads, how many frames it keeps to draw the next from, how many it draws per call are
/// the renderer's own policy.
public protocol Renderer {
    /// What renders, in words (for run lines, reports and metadata).
    var rendererDescription: String { get }
    /// The largest canvas side this renderer draws.
    var maxCanvasSide: Int { get }
    /// Renders one frame.
    func render(_ list: DrawList) throws -> Image
    /// Renders frames in order, as many per draw as the renderer takes.
    func render(_ lists: [DrawList]) throws -> [Image]
    /// How many frames of `width` × `height` px to hand `render(_:)` at once (1 where more gain
    /// nothing).
    func framesPerDraw(width: Int, height: Int) -> Int
    /// Draws a sequence's frames and hands each to the sequence (see `FrameSequence`), running
    /// work on `executor`'s threads as the renderer sees fit; stops early once `executor` is
    /// stopping.
    ///
    /// - Returns: how many frames it handed on.
    func render(_ sequence: FrameSequence, on executor: some FrameExecutor) throws -> Int
}

/// The threads a pipeline runs its per-frame work on (an encode pool), as a renderer sees them.
public protocol FrameExecutor: AnyObject, Sendable {
    /// The most jobs queued or running at once: the frames the pipeline holds.
    var maximumInFlight: Int { get }
    /// How many threads run the jobs.
    var threadCount: Int { get }
    /// Whether the pipeline is stopping (asked to, or a job failed): draw no further frame.
    var isStopping: Bool { get }
    /// Runs `job` on one of the threads, first waiting while `maximumInFlight` are queued or running.
    func submit(_ job: @escaping @Sendable () throws -> Void)
}

/// Frames a pipeline wants, and what it does with each.
public struct FrameSequence {
    /// The frames' indices, in order.
    public var frames: [Int]
    /// Frame `k`'s draw list; it throws for a frame that cannot be drawn (a scene file whose
    /// numbers fail at that time), which stops the pipeline.
    public var drawList: @Sendable (Int) throws -> DrawList
    /// What is done with frame `k` (encoding, writing): run on one of the executor's threads.
    public var deliver: @Sendable (Int, Image) throws -> Void
    /// When set, frames are drawn in order on the calling thread and each is handed here first,
    /// there, in order (a stream's writer takes frames one after another); when nil the renderer
    /// may draw frames anywhere, in any order, inside the executor's jobs.
    public var inOrder: ((Int, Image) throws -> Void)?

    public init(frames: [Int], drawList: @escaping @Sendable (Int) throws -> DrawList, deliver: @escaping @Sendable (Int, Image) throws -> Void,
                inOrder: ((Int, Image) throws -> Void)? = nil) {
        self.frames = frames
        self.drawList = drawList
        self.deliver = deliver
        self.inOrder = inOrder
    }
}

extension Renderer {
    /// Draws the frames in order on this thread, `framesPerDraw` at a time, and hands each on.
    public func render(_ sequence: FrameSequence, on executor: some FrameExecutor) throws -> Int {
        try drawInOrder(sequence, on: executor) { try render($0) }
    }

    /// Draws the frames in order on this thread with `draw`, `framesPerDraw` lists per call.
    func drawInOrder(_ sequence: FrameSequence, on executor: some FrameExecutor, draw: ([DrawList]) throws -> [Image]) throws -> Int {
        guard let first = sequence.frames.first else { return 0 }
        let size = try sequence.drawList(first)
        let perCall = max(1, framesPerDraw(width: size.width, height: size.height))
        var handed = 0
        var start = 0
        while start < sequence.frames.count, !executor.isStopping {
            let frames = sequence.frames[start..<min(sequence.frames.count, start + perCall)]
            let images = try draw(frames.map { try sequence.drawList($0) })
            for (k, image) in zip(frames, images) {
                if executor.isStopping { return handed }
                let deliver = sequence.deliver
                executor.submit { try deliver(k, image) }
                try sequence.inOrder?(k, image)
                handed += 1
            }
            start += perCall
        }
        return handed
    }

    /// Checks that a `width` × `height` canvas is one this renderer draws (`Canvas.check`).
    ///
    /// - Throws: a usage error naming the canvas and the largest side allowed.
    public func checkCanvas(width: Int, height: Int) throws {
        try Canvas.check(width: width, height: height, maxSide: maxCanvasSide, renderer: rendererDescription)
    }
}

extension GLRenderer: Renderer {
    public var rendererDescription: String { "\(info.renderer) (\(info.version), \(info.platform))" }
    public var maxCanvasSide: Int { info.maxCanvasSide }

    /// Draws the frames in order on this thread, a stack per draw; a stack is given up between
    /// two draws once the executor is stopping, and none of its frames is handed on.
    public func render(_ sequence: FrameSequence, on executor: some FrameExecutor) throws -> Int {
        try drawInOrder(sequence, on: executor) { try render($0, stopping: { executor.isStopping }) }
    }
}
