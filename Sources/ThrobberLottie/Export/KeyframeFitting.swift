import Foundation

/// One keyframe as the exporter writes it: linear to the next, or held until it.
struct FittedKey: Sendable, Equatable {
    var time: Double
    var value: [Double]
    var hold: Bool
}

/// The fewest keyframes (greedily) whose linear and held pieces stay within a tolerance of every
/// sample (issue 51: "as few keys as reproduce the motion within a stated tolerance").
///
/// The samples are the property at every half frame. Between two samples the property either
/// moves smoothly — then a line through keys on samples must pass within the tolerance of each
/// sample between them — or jumps (a spinner's step, a tick lighting): a jump is found by the
/// value halfway being one of its ends rather than between them, and located by bisection to
/// 1/1024 of a frame, where a held key ends.
enum KeyframeFitting {
    /// - Parameters:
    ///   - times: the sample times (frames), increasing.
    ///   - values: the value at each time.
    ///   - tolerance: the largest difference allowed, per component.
    ///   - evaluate: the value at any time within the samples' span (for finding a jump).
    static func fit(times: [Double], values: [[Double]], tolerance: Double, evaluate: (Double) -> [Double]?) -> [FittedKey] {
        precondition(times.count == values.count && !times.isEmpty)
        func close(_ a: [Double], _ b: [Double]) -> Bool {
            zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
        }
        if values.allSatisfy({ close($0, values[0]) }) { return [FittedKey(time: times[0], value: values[0], hold: false)] }
        /// Whether the line from (ta, va) to sample b passes within the tolerance of samples a+1 ..< b.
        func fits(_ ta: Double, _ va: [Double], _ a: Int, _ b: Int) -> Bool {
            let tb = times[b], vb = values[b]
            guard a + 1 < b else { return true }
            for j in (a + 1)..<b {
                let u = (times[j] - ta) / (tb - ta)
                for c in va.indices where abs(va[c] + (vb[c] - va[c]) * u - values[j][c]) > tolerance { return false }
            }
            return true
        }
        var keys: [FittedKey] = []
        var a = 0
        var ta = times[0], va = values[0]
        let last = times.count - 1
        while a < last {
            // A jump to the next sample: hold until it, then start again from its value.
            if !close(values[a], values[a + 1]), let jump = jumpTime(ta, va, times[a + 1], values[a + 1], close: close, evaluate: evaluate) {
                // A flat line into the jump is the held key it starts from.
                if let previous = keys.last, !previous.hold, close(previous.value, va) {
                    keys[keys.count - 1].hold = true
                } else {
                    keys.append(FittedKey(time: ta, value: va, hold: true))
                }
                a += 1
                ta = jump
                va = values[a]
                continue
            }
            // Gallop, then bisect, for the farthest sample a line still reaches.
            var good = a + 1, step = 1
            while good + step <= last && fits(ta, va, a, good + step) {
                good += step
                step *= 2
            }
            var bad = min(last + 1, good + step)
            while bad - good > 1 {
                let mid = (good + bad) / 2
                if mid <= last && fits(ta, va, a, mid) { good = mid } else { bad = mid }
            }
            keys.append(FittedKey(time: ta, value: va, hold: false))
            a = good
            ta = times[a]
            va = values[a]
        }
        // A last key that repeats the one before adds nothing: a property keeps its last value.
        if let previous = keys.last, !previous.hold, close(previous.value, va) { return keys }
        keys.append(FittedKey(time: ta, value: va, hold: false))
        return keys
    }

    /// The time of a jump between (t0, v0) and (t1, v1), or nil when the value moves between them.
    static func jumpTime(_ t0: Double, _ v0: [Double], _ t1: Double, _ v1: [Double], close: ([Double], [Double]) -> Bool,
                         evaluate: (Double) -> [Double]?) -> Double? {
        var lo = t0, hi = t1
        guard let mid = evaluate((lo + hi) / 2) else { return nil }
        // A jump's middle is one of its ends and not the line between them.
        let line = zip(v0, v1).map { ($0 + $1) / 2 }
        guard close(mid, v0) || close(mid, v1), !close(mid, line) else { return nil }
        for _ in 0..<10 {
            let m = (lo + hi) / 2
            guard let v = evaluate(m) else { return nil }
            if close(v, v0) { lo = m } else if close(v, v1) { hi = m } else { return nil }
        }
        // A jump on a whole or half frame is put on it: players are asked for those.
        let snapped = (hi * 2).rounded() / 2
        return abs(snapped - hi) <= (t1 - t0) / 512 ? snapped : hi
    }
}
