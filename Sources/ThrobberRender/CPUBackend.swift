import Throbber
import ThrobberCPU

/// The CPU renderer's policy in a pipeline: where the frames are drawn, on how many threads, how
/// many it keeps to draw the next from.
extension CPURenderer: Renderer {
    public var maxCanvasSide: Int { Scene.maximumPixelSide }
    public func render(_ lists: [DrawList]) -> [Image] { lists.map { render($0) } }
    public func framesPerDraw(width: Int, height: Int) -> Int { 1 }

    /// With no frame wanted in order, each of `executor`'s jobs draws its own frames (small frames
    /// in groups, `framesPerJob`), so whole frames are drawn on every core at once, each job with
    /// a renderer of its own that keeps its frames' unchanged rows; otherwise this thread draws
    /// them in order, on `renderThreads(encoders:)` threads, keeping more frames than the
    /// executor holds so each is drawn into memory let go of. Either way a frame is given up
    /// between two bands of rows once the executor is stopping, and never handed on.
    public func render(_ sequence: FrameSequence, on executor: some FrameExecutor) throws -> Int {
        guard sequence.inOrder == nil, let first = sequence.frames.first else {
            // Frames in flight, the one the caller holds, the one being drawn: let go of before reuse.
            keptFrames = executor.maximumInFlight + 4
            let threads = CPURenderer.renderThreads(encoders: executor.threadCount)
            // A frame given up because the run is stopping ends the list: the frames before it are handed on.
            return try drawInOrder(sequence, on: executor) { lists in
                var images: [Image] = []
                for list in lists {
                    guard let image = render(list, threads: threads, stopping: { executor.isStopping }) else { break }
                    images.append(image)
                }
                return images
            }
        }
        let workers = CPUFrameWorkers(like: self)
        let size = try sequence.drawList(first)
        let perJob = CPURenderer.framesPerJob(width: size.width, height: size.height)
        var handed = 0
        var start = 0
        while start < sequence.frames.count, !executor.isStopping {
            let frames = Array(sequence.frames[start..<min(sequence.frames.count, start + perJob)])
            let (drawList, deliver) = (sequence.drawList, sequence.deliver)
            executor.submit { try workers.renderEach(frames, drawList: drawList, stopping: { executor.isStopping }, deliver) }
            handed += frames.count
            start += perJob
        }
        return handed
    }

    /// How many frames of `width` × `height` px one job draws: small frames go in groups of about
    /// 64 Ki pixels (16 frames of 64×64), so the hand-off between threads is paid once per group
    /// rather than once per frame; 512×512 frames go one by one.
    public static func framesPerJob(width: Int, height: Int) -> Int {
        max(1, min(64, 65_536 / max(1, width * height)))
    }

    /// How many threads the CPU renderer gets when it draws a pipeline's frames in order (a clip
    /// with sheets, streams or videos), where the encoders already keep every core busy: what
    /// matters there is the CPU time a frame costs, and one thread spends less of it than
    /// several (no hand-offs between them). One render thread keeps up with about sixteen
    /// encoders (a frame renders in ~6 % of its encoding time at 512×512, level 7), so a thread
    /// is added per eight encoding threads.
    public static func renderThreads(encoders: Int) -> Int {
        max(1, encoders / 8)
    }
}
