/// One independently periodic part of an animation (a phase, a breathing amplitude, a spin).
public struct PeriodicPart: Sendable, Equatable {
    /// The part's name, e.g. `frontPhase`.
    public var name: String
    /// Its period in seconds at the original speed.
    public var period: Double

    public init(_ name: String, period: Double) {
        self.name = name
        self.period = period
    }
}

/// Speed factors of a scene's periodic parts (1 = the original speed), set when a clip is
/// retimed into a seamless loop. A part runs on its own clock, t × factor.
public struct PartSpeeds: Sendable, Equatable {
    /// Factor by part name; a missing name runs at speed 1.
    public var factors: [String: Double] = [:]

    public init() {}

    /// The time `part` sees at scene time `t`.
    @inline(__always)
    public func time(_ part: String, _ t: Double) -> Double {
        guard let factor = factors[part] else { return t }
        return t * factor
    }
}

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

    /// The loop's length in seconds: frames / fps.
    public var duration: Double
    public var frames: Int
    public var changes: [Change]
    /// The speeds to give the model.
    public var speeds: PartSpeeds

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
}
