import Throbber
/// A piece of work a shard takes whole: one frame of a clip whose outputs are all PNG frames,
/// or a whole clip when an output needs every frame in order (sheet, stream, video). A clip's
/// Lottie outputs go with the unit that holds its frame 0; a clip with no other output draws no
/// frame and is one unit of frame 0 alone.
public struct WorkUnit: Sendable, Equatable {
    /// Index of the clip in `Job.clips`.
    public var clip: Int
    /// The frames, in order.
    public var frames: Range<Int>
}

/// How a job's units are dealt to N shards: deterministically, so N processes on N machines that
/// read the same job file split it without talking to each other.
public struct ShardPlan: Sendable {
    /// Contiguous ranges (each shard a run of consecutive frames) or strided (unit i → shard i mod N).
    public enum Mode: String, Sendable, CaseIterable {
        case contiguous
        case strided
    }

    public var index: Int
    public var count: Int
    public var mode: Mode

    /// The whole job in one shard.
    public static let whole = ShardPlan(index: 0, count: 1, mode: .contiguous)

    public init(index: Int, count: Int, mode: Mode) {
        self.index = index
        self.count = count
        self.mode = mode
    }

    /// Every unit of the job, in job order.
    public static func units(of job: Job) -> [WorkUnit] {
        job.clips.enumerated().flatMap { index, clip -> [WorkUnit] in
            if !clip.outputs.contains(where: \.takesFrames) { return [WorkUnit(clip: index, frames: 0..<1)] }
            if clip.outputs.contains(where: \.isOrdered) {
                return [WorkUnit(clip: index, frames: 0..<clip.frameCount)]
            }
            return (0..<clip.frameCount).map { WorkUnit(clip: index, frames: $0..<($0 + 1)) }
        }
    }

    /// The shard's units with neighbours merged: consecutive frames of one clip become one unit,
    /// so a run renders them as one stream (a renderer keeps what frames share, a GL backend
    /// draws a stack at once) instead of one frame at a time. The same frames, in the same order.
    public func runs(of job: Job) -> [WorkUnit] {
        var runs: [WorkUnit] = []
        for unit in units(of: job) {
            if let last = runs.last, last.clip == unit.clip, last.frames.upperBound == unit.frames.lowerBound {
                runs[runs.count - 1].frames = last.frames.lowerBound..<unit.frames.upperBound
            } else {
                runs.append(unit)
            }
        }
        return runs
    }

    /// The units this shard renders. Contiguous shards split the job's frames into N runs of
    /// about equal length (a unit goes where its first frame falls).
    public func units(of job: Job) -> [WorkUnit] {
        let all = ShardPlan.units(of: job)
        guard count > 1 else { return all }
        switch mode {
        case .strided:
            return all.enumerated().filter { $0.offset % count == index }.map(\.element)
        case .contiguous:
            let total = all.reduce(0) { $0 + $1.frames.count }
            var offset = 0
            var mine: [WorkUnit] = []
            for unit in all {
                if min(count - 1, offset * count / max(total, 1)) == index { mine.append(unit) }
                offset += unit.frames.count
            }
            return mine
        }
    }

    /// Parses `K/N` (0-based K).
    ///
    /// - Parameter field: how the caller's user spells the setting (an option), named in the error.
    /// - Throws: a usage error naming `field`.
    public static func parse(_ text: String, mode: Mode, field: String = "shard") throws -> ShardPlan {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= Manifest.mostShards, k >= 0, k < n else {
            throw ThrobberError.invalid(field, text, allowed: "K/N with 0 ≤ K < N ≤ \(Manifest.mostShards), e.g. 0/4")
        }
        return ShardPlan(index: k, count: n, mode: mode)
    }

    /// The shard from the environment of a cluster job array: the index from Slurm's
    /// `SLURM_ARRAY_TASK_ID` (a 0-based array: `--array=0-31` for 32 shards) or Kubernetes'
    /// `JOB_COMPLETION_INDEX`, the count always from `shards` (`--shards N` on the command line).
    ///
    /// The count is never taken from `SLURM_ARRAY_TASK_COUNT`, `_MIN` or `_MAX`: they describe
    /// the submission, not the job, and a resubmission of the failed indices alone (`--array=1,3`)
    /// would change them, so task 1 would render a different share (or, alone, the whole job) and
    /// task 3 would be out of range. With the count stated, task K renders shard K of N in every
    /// submission.
    ///
    /// - Parameter countField: how the caller's user spells `shards` (an option), named in the errors.
    /// - Throws: a usage error naming the variable at fault, or asking for `shards`.
    public static func fromEnvironment(_ environment: [String: String], shards: Int?, mode: Mode,
                                       countField: String = "shards") throws -> ShardPlan? {
        if let id = environment["SLURM_ARRAY_TASK_ID"] {
            guard let task = Int(id) else { throw ThrobberError.invalid("SLURM_ARRAY_TASK_ID", id, allowed: "an integer") }
            guard let shards else {
                throw ThrobberError("SLURM_ARRAY_TASK_ID is set; pass \(countField) N, the job's shard count (SLURM_ARRAY_TASK_COUNT is not used: "
                                    + "a resubmission of some indices changes it)", kind: .usage)
            }
            guard task >= 0, task < shards else {
                throw ThrobberError.invalid("SLURM_ARRAY_TASK_ID", id, allowed: "0 to \(shards - 1) (\(countField) \(shards); the array must be 0-based)")
            }
            return ShardPlan(index: task, count: shards, mode: mode)
        }
        if let text = environment["JOB_COMPLETION_INDEX"] {
            guard let index = Int(text), index >= 0 else { throw ThrobberError.invalid("JOB_COMPLETION_INDEX", text, allowed: "an integer ≥ 0") }
            guard let shards else {
                throw ThrobberError("JOB_COMPLETION_INDEX is set; pass \(countField) N (the Indexed Job's completions)", kind: .usage)
            }
            guard index < shards else { throw ThrobberError.invalid("JOB_COMPLETION_INDEX", text, allowed: "below \(countField) \(shards)") }
            return ShardPlan(index: index, count: shards, mode: mode)
        }
        return nil
    }
}
