import Foundation
import Throbber

/// A keyframe track's timing: its key times and each segment's timing function, as in
/// `CAKeyframeAnimation` and CSS `@keyframes` (docs/scene-files.md §5).
///
/// `keyTimes` are pass fractions in [0, 1], each at least the one before, the first 0 and the
/// last 1, one per value (at most `mostKeyframes`); segment j runs from keyTimes[j] to
/// keyTimes[j + 1]. `timing` holds one function for every segment, or exactly one per segment.
/// At pass fraction u the track is in the segment j with keyTimes[j] ≤ u < keyTimes[j + 1]
/// (u = 1 is in the last segment); two equal neighbouring key times make a jump: their segment has
/// no length and is skipped, so at u equal to a repeated key time the later segment applies.
/// The segment's fraction x = (u − keyTimes[j]) / (keyTimes[j + 1] − keyTimes[j]) goes through
/// timing_j, and the caller computes value = v_j + (v_{j+1} − v_j) · timing_j(x).
public struct KeyframeTrack: Sendable, Hashable {
    /// The pass fraction of each keyframe.
    public var keyTimes: [Double]
    /// One function for all segments, or one per segment.
    public var timing: [TimingFunction]

    /// The most keyframes one track may have.
    public static let mostKeyframes = 256

    /// A track; `problem` says whether it is valid.
    public init(keyTimes: [Double], timing: [TimingFunction] = [.linear]) {
        self.keyTimes = keyTimes
        self.timing = timing
    }

    /// The number of segments: one fewer than the key times (0 for none).
    public var segmentCount: Int {
        max(keyTimes.count - 1, 0)
    }

    /// Why the track is not valid, or nil when it is: the message, for the caller to prefix with
    /// the track's name, says what to give instead.
    ///
    /// It checks the number of key times (2 … `mostKeyframes`), their order and ends, the number
    /// of functions (1 or one per segment) and each function (`TimingFunction.problem`).
    public var problem: String? {
        guard keyTimes.count >= 2 else {
            return "has \(Self.count(keyTimes.count, "key time")): give at least 2, the first 0 and the last 1"
        }
        guard keyTimes.count <= Self.mostKeyframes else {
            return "has \(Self.count(keyTimes.count, "key time")): give at most \(Self.mostKeyframes)"
        }
        let ordered = keyTimes.first == 0 && keyTimes.last == 1
            && keyTimes.allSatisfy { (0...1).contains($0) }
            && zip(keyTimes, keyTimes.dropFirst()).allSatisfy { $0 <= $1 }
        guard ordered else {
            return "has keyTimes [\(keyTimes.map(formatNumber).joined(separator: ", "))]: "
                + "give key times in [0, 1], each at least the one before, the first 0 and the last 1"
        }
        guard timing.count == 1 || timing.count == segmentCount else {
            return "has \(Self.count(timing.count, "function")) for \(Self.count(segmentCount, "segment")): "
                + "give one per segment, or one for all"
        }
        for (index, function) in timing.enumerated() {
            if let problem = function.problem {
                return timing.count == 1 ? "timing: \(problem)" : "timing of segment \(index): \(problem)"
            }
        }
        return nil
    }

    /// Why `valueCount` values do not fit the track, or nil when they do: one value per key time.
    public func problem(valueCount: Int) -> String? {
        guard valueCount != keyTimes.count else { return nil }
        return "has \(keyTimes.count) keyTimes and \(Self.count(valueCount, "value")): give one value per key time"
    }

    /// Segment j's timing function: the one for all, or the j-th.
    public func timingFunction(forSegment index: Int) -> TimingFunction {
        timing.count == 1 ? timing[0] : timing[index]
    }

    /// The segment at pass fraction u and its eased fraction timing_j(x), for a valid track.
    ///
    /// u is read in [0, 1] (NaN as 0). At u = 1, or when the last segment has no length, the
    /// segment's x is 1. A track with fewer than 2 key times gives (0, 0).
    public func segment(at u: Double) -> (index: Int, progress: Double) {
        guard keyTimes.count >= 2, !timing.isEmpty else { return (0, 0) }
        let u = u.isNaN ? 0 : min(max(u, 0), 1)
        let last = keyTimes.count - 2
        // The first key time after u; the segment ends there. Binary search: key times ascend.
        let index = min(max(keyTimes.countOfPrefix { $0 <= u } - 1, 0), last)
        let start = keyTimes[index], end = keyTimes[index + 1]
        let x = u >= end || end <= start ? 1 : (u - start) / (end - start)
        return (index, timingFunction(forSegment: index).progress(at: x))
    }

    /// The track's value at pass fraction u: v_j + (v_{j+1} − v_j) · timing_j(x).
    ///
    /// - Precondition: one value per key time (`problem(valueCount:)` is nil).
    public func interpolate(_ values: [Double], at u: Double) -> Double {
        precondition(values.count == keyTimes.count, "one value per key time")
        guard values.count >= 2 else { return values.first ?? 0 }
        let (index, progress) = segment(at: u)
        return values[index] + (values[index + 1] - values[index]) * progress
    }

    /// "1 segment", "3 segments".
    static func count(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
