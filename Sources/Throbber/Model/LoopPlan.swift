import Foundation

/// How a clip was made into a seamless loop: its length and every part's change of speed.
public struct LoopPlan: Sendable, Equatable {
    /// One part's retiming.
    public struct Change: Sendable, Equatable {
        public var part: String
        public var originalPeriod: Double
        public var cycles: Int
        public var newPeriod: Double
        /// (factor − 1) × 100: positive is faster.
        public var speedChangePercent: Double
    }

    /// Where the loop's length came from.
    public enum Choice: String, Sendable, Equatable, Codable {
        /// The user's `loopSeconds`.
        case given = "loopSeconds"
        /// The shortest multiple of the scene's natural loop that keeps every part within the
        /// bound (`LoopPlan.search`).
        case search
        /// No multiple within the search's reach met the bound: the one closest to it.
        case closest
    }

    /// The loop's length in seconds: frames / fps.
    public var duration: Double
    public var frames: Int
    public var changes: [Change]
    /// The speeds to give the model.
    public var speeds: PartSpeeds
    /// How the length was chosen (a plan made by `init` is `.given`).
    public var choice: Choice = .given
    /// The bound on every part's |speed change|, in percent, that the length was chosen or
    /// checked against; nil for a `loopSeconds` checked against none.
    public var maxSpeedChange: Double?

    /// Plans a loop of about `seconds` at `fps`: the clip gets round(seconds × fps) frames and
    /// every periodic part the nearest whole number of cycles (at least one) in that length.
    ///
    /// - Throws: a usage error naming the count that would exceed its limit (`Limits`): the
    ///   frames, the loop's length, or a part's cycles (a period far shorter than a frame).
    public init(parts: [PeriodicPart], seconds: Double, fps: Double) throws {
        frames = max(1, try Limits.count(seconds * fps, "loop frames (loopSeconds × fps)", limit: Limits.frames))
        duration = Double(frames) / fps
        guard duration <= Limits.time else {
            throw ThrobberError("invalid fps \(formatNumber(fps)): one loop frame lasts \(formatNumber(duration)) s; "
                                + "a loop is at most \(formatNumber(Limits.time)) s", kind: .usage)
        }
        var speeds = PartSpeeds()
        var changes: [Change] = []
        for part in parts where part.period.isFinite && part.period > 0 {
            let cycles = max(1, try Limits.count(duration / part.period, "\(part.name) cycles in the loop", limit: LoopPlan.mostCycles))
            let newPeriod = duration / Double(cycles)
            let factor = part.period / newPeriod
            speeds.factors[part.name] = factor
            changes.append(Change(part: part.name, originalPeriod: part.period, cycles: cycles, newPeriod: newPeriod,
                                  speedChangePercent: (factor - 1) * 100))
        }
        self.speeds = speeds
        self.changes = changes
    }

    /// The most cycles of one part a loop may hold: more than one a frame at the highest frame
    /// count already shows nothing but aliasing.
    public static let mostCycles = 1 << 40

    /// The largest |speed change| of any part, in percent (0 when no part is retimed).
    public var worstSpeedChangePercent: Double { changes.map { abs($0.speedChangePercent) }.max() ?? 0 }

    /// The part whose speed changes most, if any part is retimed.
    public var worstChange: Change? { changes.max { abs($0.speedChangePercent) < abs($1.speedChangePercent) } }
}

extension LoopPlan {
    /// The bound a default loop keeps every part's |speed change| within, in percent: small
    /// enough that nobody sees a wave run faster, large enough that every scene's default
    /// parameters find a loop of at most `searchLimit`.
    public static let defaultMaxSpeedChange = 2.0
    /// The range of `maxSpeedChange`, in percent: 0 asks for parts that fit exactly.
    public static let maxSpeedChangeRange = NumberRange.closed(0, 100)
    /// The longest loop the search tries, in seconds (unless the natural loop alone is longer):
    /// a loop much longer than a minute is a video, not a loading indicator.
    public static let searchLimit = 60.0

    /// The default loop: the shortest whole multiple of `naturalLoop` (1×, 2×, …, at most
    /// `searchLimit` and `Limits.frames` frames) whose worst part changes speed by at most
    /// `maxSpeedChange` percent.
    ///
    /// Multiples of the natural loop keep the part that sets it (the longest period, or the
    /// whole animation's loop) at its own speed, so only the others are retimed. Each candidate
    /// is planned at `fps` as `init` plans it (its frames rounded), so the bound holds for the
    /// frames actually rendered. When no candidate meets the bound, the one with the smallest
    /// worst change is returned (the shortest of equals) with `choice == .closest`; the caller
    /// decides whether that is an error.
    ///
    /// - Parameters:
    ///   - parts: the scene's periodic parts.
    ///   - naturalLoop: the scene's own loop or longest period (`SceneModel.naturalLoop`).
    ///   - fps: the clip's frame rate.
    ///   - maxSpeedChange: the bound in percent (default `defaultMaxSpeedChange`).
    /// - Throws: what `init` throws for the first candidate (a loop longer than the limits).
    public static func search(parts: [PeriodicPart], naturalLoop: Double, fps: Double,
                              maxSpeedChange: Double = defaultMaxSpeedChange) throws -> LoopPlan {
        var best: LoopPlan?
        var multiple = 1.0
        while true {
            let seconds = multiple * naturalLoop
            // The first multiple is always tried, however long: it is the loop the scene has.
            if multiple > 1 && (seconds > searchLimit || seconds * fps > Double(Limits.frames)) { break }
            var plan = try LoopPlan(parts: parts, seconds: seconds, fps: fps)
            // Next, the first multiple with more frames: where the natural loop is shorter than a
            // frame, many multiples round to one frame count, and each count is planned once.
            multiple = max(multiple + 1, ((Double(plan.frames) + 0.5) / (naturalLoop * fps)).rounded(.up))
            plan.maxSpeedChange = maxSpeedChange
            if plan.worstSpeedChangePercent <= maxSpeedChange {
                plan.choice = .search
                return plan
            }
            if best == nil || plan.worstSpeedChangePercent < best!.worstSpeedChangePercent {
                plan.choice = .closest
                best = plan
            }
        }
        return best!
    }

    /// The retiming as values, one part after another: `frontPhase cycles=4 speed=-1.30%, …`,
    /// or `no part retimed` for a scene without periodic parts.
    public var changesText: String {
        guard !changes.isEmpty else { return "no part retimed" }
        return changes.map { String(format: "%@ cycles=%d speed=%+.2f%%", $0.part, $0.cycles, $0.speedChangePercent) }
            .joined(separator: ", ")
    }

    /// Seconds for a line a person reads: at most three decimals (`33.333`), none when whole.
    public static func shortSeconds(_ seconds: Double) -> String {
        let rounded = (seconds * 1000).rounded() / 1000
        return rounded == seconds ? formatNumber(seconds) : String(format: "%.3f", rounded)
            .replacingOccurrences(of: #"\.?0+$"#, with: "", options: .regularExpression)
    }

    /// The one line that says a default loop missed the bound, or nil when it met it (or was given).
    public var closestNote: String? {
        guard choice == .closest, let bound = maxSpeedChange else { return nil }
        let worst = worstChange.map { String(format: "%@ %+.2f%%", $0.part, $0.speedChangePercent) } ?? ""
        return "no loop of up to \(formatNumber(LoopPlan.searchLimit)) s keeps every part's speed within "
            + "\(formatNumber(bound))%; using the closest, \(LoopPlan.shortSeconds(duration)) s (\(worst))"
    }
}

extension SceneModel {
    /// The loop `"loop": true` gives this scene by default at `fps` (`LoopPlan.search`).
    ///
    /// - Throws: what `LoopPlan.search` throws.
    public func defaultLoop(fps: Double = 60, maxSpeedChange: Double = LoopPlan.defaultMaxSpeedChange) throws -> LoopPlan {
        try LoopPlan.search(parts: periodicParts, naturalLoop: naturalLoop, fps: fps, maxSpeedChange: maxSpeedChange)
    }
}
