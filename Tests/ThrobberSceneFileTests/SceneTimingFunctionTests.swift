import Foundation
import Testing
@testable import Throbber
@testable import ThrobberSceneFile

/// Scene-file timing (docs/scene-files.md §4, §5, §7): timing functions and their one cubic
/// solver, clocks, the common loop period and keyframe-track lookup.
struct SceneTimingFunctionTests {
    // MARK: - Timing functions (§4)

    /// `UIKitTiming.easeInOut` as it was written before it called the shared solver: the reference
    /// the HUD's golden images were made with.
    static func originalEaseInOut(_ x: Double) -> Double {
        guard x > 0 else { return 0 }
        guard x < 1 else { return 1 }
        var low = 0.0, high = 1.0
        while high - low > 1e-12 {
            let u = (low + high) / 2
            let bezierX = 1.26 * u * (1 - u) * (1 - u) + 1.74 * u * u * (1 - u) + u * u * u
            if bezierX < x { low = u } else { high = u }
        }
        let u = (low + high) / 2
        return 3 * u * u - 2 * u * u * u
    }

    /// y at x of a cubic Bézier, solved by Newton's method (independent of the bisection).
    static func newtonBezier(_ x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        func bezier(_ s: Double, _ a: Double, _ b: Double) -> Double {
            3 * (1 - s) * (1 - s) * s * a + 3 * (1 - s) * s * s * b + s * s * s
        }
        func slope(_ s: Double, _ a: Double, _ b: Double) -> Double {
            3 * (1 - s) * (1 - s) * a + 6 * (1 - s) * s * (b - a) + 3 * s * s * (1 - b)
        }
        var s = x
        for _ in 0..<50 {
            s -= (bezier(s, x1, x2) - x) / slope(s, x1, x2)
        }
        return bezier(s, y1, y2)
    }

    @Test func easeInOutCheckValues() throws {
        let easeInOut = try #require(TimingFunction(named: "ease-in-out"))
        #expect(abs(easeInOut(0.25) - 0.129162) < 1e-6)
        // 0.5 to 1e-12, not exactly: the bisection's last midpoint is 0.5 − 2⁻⁴¹, as UIKitTiming's
        // always was (it gives 0.4999999999993179 too, and the goldens depend on it).
        #expect(abs(easeInOut(0.5) - 0.5) < 1e-12)
        #expect(easeInOut(0.5) == UIKitTiming.easeInOut(0.5))
        #expect(abs(easeInOut(0.75) - 0.870838) < 1e-6)
        #expect(easeInOut(0) == 0 && easeInOut(1) == 1 && easeInOut(-0.5) == 0 && easeInOut(2) == 1)
    }

    /// The shared solver gives the HUD's curve bit for bit, so its golden images stay.
    @Test func easeInOutBitIdenticalToUIKit() throws {
        let easeInOut = try #require(TimingFunction(named: "ease-in-out"))
        let count = 120_000
        var xs = (0...count).map { -0.1 + 1.2 * Double($0) / Double(count) }
        xs += [-0.1, 0, 1, 1.1, 0.25, 0.5, 0.75, Double.leastNonzeroMagnitude, (1.0).nextDown, (1.0).nextUp, (0.0).nextDown, -0.0]
        var mismatches = 0
        for x in xs {
            let reference = Self.originalEaseInOut(x)
            if UIKitTiming.easeInOut(x) != reference || easeInOut(x) != reference { mismatches += 1 }
        }
        #expect(xs.count > 100_000)
        #expect(mismatches == 0)
        // Why the named curves carry literal weights: 3 × 0.58 in double is not 1.74, and the
        // computed curve strays from UIKit's in the last bits.
        let computed = CubicBezierTiming(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
        #expect(xs.contains { computed.progress(at: $0) != Self.originalEaseInOut($0) })
        #expect(xs.allSatisfy { abs(computed.progress(at: $0) - Self.originalEaseInOut($0)) < 1e-12 })
    }

    @Test func namedCurvesMatchCSS() throws {
        let ease = try #require(TimingFunction(named: "ease"))
        #expect(abs(ease(0.5) - 0.8024033877399112) < 1e-9)
        let curves: [(String, [Double])] = [
            ("ease", [0.25, 0.1, 0.25, 1]), ("ease-in", [0.42, 0, 1, 1]), ("ease-out", [0, 0, 0.58, 1]),
            ("ease-in-out", [0.42, 0, 0.58, 1]),
        ]
        for (name, p) in curves {
            let function = try #require(TimingFunction(named: name))
            #expect(function.name == name)
            for x in stride(from: 0.05, to: 1, by: 0.05) {
                #expect(abs(function(x) - Self.newtonBezier(x, p[0], p[1], p[2], p[3])) < 1e-9, "\(name) at \(x)")
            }
        }
        #expect(TimingFunction(named: "linear")?(0.3) == 0.3)
        #expect(TimingFunction(named: "Ease") == nil && TimingFunction(named: "bounce") == nil)
        #expect(TimingFunction.names.allSatisfy { TimingFunction(named: $0) != nil })
    }

    @Test func cubicBezierOvershoot() {
        let back = TimingFunction.cubicBezier(CubicBezierTiming(x1: 0.34, y1: 1.56, x2: 0.64, y2: 1))
        #expect(back.problem == nil)
        #expect(back(0.5) > 1)
        #expect(abs(back(0.5) - Self.newtonBezier(0.5, 0.34, 1.56, 0.64, 1)) < 1e-9)
        #expect(back(0) == 0 && back(1) == 1)
        #expect(back.description == "cubic-bezier(0.34, 1.56, 0.64, 1)")
    }

    @Test func timingProblems() {
        #expect(CubicBezierTiming(x1: 1.5, y1: 0, x2: 0.5, y2: 1).problem?.contains("x1 1.5 is outside [0, 1]") == true)
        #expect(CubicBezierTiming(x1: 0.5, y1: 0, x2: -0.1, y2: 1).problem?.contains("x2 -0.1") == true)
        #expect(CubicBezierTiming(x1: 0.5, y1: -101, x2: 0.5, y2: 1).problem?.contains("y1 -101") == true)
        #expect(CubicBezierTiming(x1: 0.5, y1: 100, x2: 0.5, y2: -100).problem == nil)
        #expect(CubicBezierTiming(x1: .nan, y1: 0, x2: 0.5, y2: 1).problem != nil)
        #expect(TimingFunction.steps(count: 0, position: .jumpEnd).problem == "steps 0 with jump-end: give at least 1 step")
        #expect(TimingFunction.steps(count: 1, position: .jumpNone).problem == "steps 1 with jump-none: give at least 2 steps")
        #expect(TimingFunction.steps(count: 2, position: .jumpNone).problem == nil)
        #expect(TimingFunction.steps(count: 1, position: .jumpStart).problem == nil)
        #expect(TimingFunction.steps(count: 3, position: .jumpBoth).description == "steps(3, jump-both)")
    }

    @Test(arguments: [
        // (position, x, expected) for steps(4, position).
        (TimingFunction.StepPosition.jumpEnd, 0.0, 0.0), (.jumpEnd, 0.2, 0.0), (.jumpEnd, 0.25 - 1e-6, 0.0),
        (.jumpEnd, 0.25 - 1e-12, 0.25), (.jumpEnd, 0.25, 0.25), (.jumpEnd, 0.75 - 1e-12, 0.75), (.jumpEnd, 0.999, 0.75),
        (.jumpEnd, 1.0, 1.0),
        (.jumpStart, 0.0, 0.25), (.jumpStart, 0.2, 0.25), (.jumpStart, 0.25 - 1e-12, 0.5), (.jumpStart, 0.5, 0.75),
        (.jumpStart, 0.75, 1.0), (.jumpStart, 0.9, 1.0), (.jumpStart, 1.0, 1.0),
        (.jumpNone, 0.0, 0.0), (.jumpNone, 0.24, 0.0), (.jumpNone, 0.25 - 1e-12, 1.0 / 3), (.jumpNone, 0.5, 2.0 / 3),
        (.jumpNone, 0.74, 2.0 / 3), (.jumpNone, 0.75, 1.0), (.jumpNone, 1.0, 1.0),
        (.jumpBoth, 0.0, 0.2), (.jumpBoth, 0.25, 0.4), (.jumpBoth, 0.5 - 1e-12, 0.6), (.jumpBoth, 0.75, 0.8),
        (.jumpBoth, 0.999, 0.8), (.jumpBoth, 1.0, 1.0),
    ])
    func steps(position: TimingFunction.StepPosition, x: Double, expected: Double) {
        #expect(TimingFunction.steps(count: 4, position: position)(x) == expected)
    }

    @Test func oneStepAndHold() {
        #expect(TimingFunction.steps(count: 1, position: .jumpEnd)(0.99) == 0)
        #expect(TimingFunction.steps(count: 1, position: .jumpEnd)(1) == 1)
        #expect(TimingFunction.steps(count: 1, position: .jumpStart)(0) == 1)
        let hold = TimingFunction(named: "hold")
        #expect(hold?(0) == 0 && hold?(0.5) == 0 && hold?((1.0).nextDown) == 0 && hold?(1) == 1)
    }

    // MARK: - Clocks (§5)

    @Test func foreverClockAcceptsNegativeTime() {
        let clock = SceneClock(name: "spin", duration: 1)
        let reading = clock.reading(at: -0.25)
        #expect(reading == ClockReading(u: 0.75, t: -0.25, n: -1, period: 1))
        #expect(clock.reading(at: 2.5) == ClockReading(u: 0.5, t: 2.5, n: 2, period: 1))
        #expect(clock.periodicPart == PeriodicPart("spin", period: 1))
        #expect(clock.end() == nil)
    }

    @Test func autoreverseGoesThereAndBack() {
        let clock = SceneClock(name: "pulse", duration: 1, autoreverses: true)
        let us = [0, 0.25, 0.5, 1, 1.5, 1.75, 2, 2.5].map { clock.reading(at: $0).u }
        #expect(us == [0, 0.25, 0.5, 1, 0.5, 0.25, 0, 0.5])
        #expect(clock.reading(at: 1.5).n == 0 && clock.reading(at: 2).n == 1)
        #expect(clock.period == 2 && clock.periodicPart?.period == 2)
    }

    @Test func repeatCountFillsBothWays() {
        let clock = SceneClock(name: "once", duration: 1, repeats: .count(2), begin: 1)
        #expect(clock.reading(at: 0) == ClockReading(u: 0, t: -1, n: 0, period: 1))
        #expect(clock.reading(at: 1) == ClockReading(u: 0, t: 0, n: 0, period: 1))
        #expect(clock.reading(at: 1.5) == ClockReading(u: 0.5, t: 0.5, n: 0, period: 1))
        #expect(clock.reading(at: 2.5) == ClockReading(u: 0.5, t: 1.5, n: 1, period: 1))
        #expect(clock.reading(at: 3) == ClockReading(u: 1, t: 2, n: 2, period: 1))
        #expect(clock.reading(at: 10) == ClockReading(u: 1, t: 9, n: 2, period: 1))
        #expect(clock.periodicPart == nil && clock.end() == 3 && clock.end(delay: 0.5) == 3.5)

        let back = SceneClock(name: "back", duration: 1, repeats: .count(2), autoreverses: true)
        #expect(back.reading(at: 3.5).u == 0.5 && back.reading(at: 4).u == 0 && back.reading(at: 9).u == 0)
        #expect(back.reading(at: 9).n == 2)
        let partial = SceneClock(name: "partial", duration: 1, repeats: .count(1.25))
        #expect(partial.reading(at: 5) == ClockReading(u: 0.25, t: 5, n: 1, period: 1))
        let partialBack = SceneClock(name: "partialBack", duration: 1, repeats: .count(1.25), autoreverses: true)
        #expect(partialBack.reading(at: 5).u == 0.5 && partialBack.reading(at: 2.25).u == 0.25)
        #expect(ClockLoop.periodicStart(of: [clock, back, partial, SceneClock(name: "f", duration: 7)]) == 4)
    }

    @Test func delayAndSpeed() {
        let clock = SceneClock(name: "c", duration: 2)
        #expect(clock.reading(at: 0, delay: -0.5).u == 0.25)
        #expect(clock.reading(at: 0, delay: 0.5).u == 0.75)
        #expect(clock.reading(at: 0.3, speed: 2).t == 0.6)
        #expect(clock.reading(at: 0.3, speed: 2).u == 0.3)
        let begun = SceneClock(name: "b", duration: 2, begin: 1)
        #expect(begun.reading(at: 1.5, speed: 2, delay: 0.5).t == 1.5)
    }

    @Test func disabledClockReadsZero() {
        let clock = SceneClock(name: "off", duration: 1.5, autoreverses: true, begin: -3, enabled: false)
        #expect(clock.reading(at: 7.3, speed: 2, delay: 1) == .disabled)
        #expect(ClockReading.disabled == ClockReading(u: 0, t: 0, n: 0, period: 0))
        #expect(clock.periodicPart == nil && clock.end() == nil)
        #expect(SceneClock(name: "off", duration: 1, repeats: .count(1), enabled: false).end() == nil)
    }

    @Test func farTimeStaysInRange() {
        for duration in [0.7, 1.4, 0.3, 1.0 / 3] {
            for autoreverses in [false, true] {
                let u = SceneClock(name: "c", duration: duration, autoreverses: autoreverses).reading(at: 1e5).u
                #expect(u >= 0 && u < 1, "\(duration) \(autoreverses): \(u)")
            }
        }
    }

    @Test func clockProblems() {
        #expect(SceneClock(name: "c", duration: 1).problem == nil)
        #expect(SceneClock(name: "c", duration: 0).problem?.hasPrefix("duration 0: give seconds") == true)
        #expect(SceneClock(name: "c", duration: .infinity).problem != nil)
        #expect(SceneClock(name: "c", duration: 1, begin: .nan).problem?.hasPrefix("begin") == true)
        #expect(SceneClock(name: "c", duration: 1, repeats: .count(0)).problem
            == "repeat 0: give forever or a positive number of passes")
        #expect(SceneClock(name: "c", duration: 1, repeats: .count(2.5)).problem == nil)
        #expect(SceneClock(name: "c", duration: 1000, repeats: .count(1e4)).problem != nil)
    }

    /// Three dots bounce on one 1.4 s clock, delayed by −0.32, −0.16 and 0 s, through keyTimes
    /// [0, 0.4, 0.8, 1] and values [0, 10, 0, 0] with ease-in-out: at t = 0 their radii are 6.22,
    /// 1.70 and 0.
    @Test func threeBounce() throws {
        let clock = SceneClock(name: "bounce", duration: 1.4)
        let track = KeyframeTrack(keyTimes: [0, 0.4, 0.8, 1], timing: [try #require(TimingFunction(named: "ease-in-out"))])
        #expect(track.problem == nil && track.problem(valueCount: 4) == nil)
        let radii = [-0.32, -0.16, 0].map { delay in
            track.interpolate([0, 10, 0, 0], at: clock.reading(at: 0, delay: delay).u)
        }
        let rounded = radii.map { ($0 * 100).rounded() / 100 }
        #expect(rounded == [6.22, 1.70, 0])
    }

    // MARK: - Common loop period (§7)

    @Test func commonPeriods() {
        #expect(ClockLoop.commonPeriod(of: [1.2, 0.6, 2.4]) == 2.4)
        #expect(ClockLoop.commonPeriod(of: [1.4]) == 1.4)
        #expect(abs((ClockLoop.commonPeriod(of: [1.2, 0.5]) ?? 0) - 6) < 1e-12)
        #expect(ClockLoop.commonPeriod(of: [Double.pi * .pi / 10, 2 * Double.pi * .pi / 15, 2]) == nil)
        #expect(ClockLoop.commonPeriod(of: []) == nil)
        #expect(ClockLoop.commonPeriod(of: [61]) == nil)
        #expect(ClockLoop.commonPeriod(of: [60]) == 60)
        #expect(ClockLoop.commonPeriod(of: [7, 11]) == nil)  // 77 s > 60 s
        #expect(ClockLoop.commonPeriod(of: [0, 1]) == nil)
        let clocks = [
            SceneClock(name: "a", duration: 0.6), SceneClock(name: "b", duration: 0.6, autoreverses: true),
            SceneClock(name: "c", duration: 0.25, enabled: false), SceneClock(name: "d", duration: 0.7, repeats: .count(1)),
        ]
        #expect(ClockLoop.commonPeriod(ofClocks: clocks) == 1.2)
    }

    // MARK: - Keyframe tracks (§4)

    @Test func trackLookup() {
        let track = KeyframeTrack(keyTimes: [0, 0.25, 0.5, 0.5, 1])
        #expect(track.problem == nil)
        #expect(track.segment(at: 0) == (0, 0))
        #expect(track.segment(at: 0.125) == (0, 0.5))
        #expect(track.segment(at: 0.25) == (1, 0))
        #expect(track.segment(at: 0.375) == (1, 0.5))
        // The repeated key time 0.5 is a jump: at 0.5 the later segment applies.
        #expect(track.segment(at: 0.5) == (3, 0))
        #expect(track.segment(at: 0.75) == (3, 0.5))
        #expect(track.segment(at: 1) == (3, 1))
        #expect(track.segment(at: 1.5) == (3, 1) && track.segment(at: -1) == (0, 0))
        let values = [0.0, 4, 8, 20, 40]
        #expect(abs(track.interpolate(values, at: (0.5).nextDown) - 8) < 1e-12)
        #expect(track.interpolate(values, at: 0.5) == 20)
        #expect(track.interpolate(values, at: 1) == 40)

        let edges = KeyframeTrack(keyTimes: [0, 0, 1, 1], timing: [.linear, .hold, .linear])
        #expect(edges.problem == nil)
        #expect(edges.segment(at: 0) == (1, 0))
        #expect(edges.interpolate([5, 1, 2, 3], at: 0) == 1)
        #expect(edges.interpolate([5, 1, 2, 3], at: 0.5) == 1)  // hold
        #expect(edges.interpolate([5, 1, 2, 3], at: 1) == 3)
    }

    @Test func perSegmentTiming() {
        let track = KeyframeTrack(keyTimes: [0, 0.5, 1], timing: [.hold, .steps(count: 2, position: .jumpEnd)])
        #expect(track.interpolate([0, 10, 20], at: 0.4) == 0)
        #expect(track.interpolate([0, 10, 20], at: 0.6) == 10)
        #expect(track.interpolate([0, 10, 20], at: 0.8) == 15)
        #expect(track.interpolate([0, 10, 20], at: 1) == 20)
    }

    @Test func trackProblems() {
        let order = "give key times in [0, 1], each at least the one before, the first 0 and the last 1"
        #expect(KeyframeTrack(keyTimes: [0, 0.6, 0.5, 1]).problem == "has keyTimes [0, 0.6, 0.5, 1]: " + order)
        #expect(KeyframeTrack(keyTimes: [0.1, 1]).problem?.hasSuffix(order) == true)
        #expect(KeyframeTrack(keyTimes: [0, 0.9]).problem?.hasSuffix(order) == true)
        #expect(KeyframeTrack(keyTimes: [0, 1.5, 1]).problem?.hasSuffix(order) == true)
        #expect(KeyframeTrack(keyTimes: [0]).problem == "has 1 key time: give at least 2, the first 0 and the last 1")
        let many = (0..<257).map { Double($0) / 256 }
        #expect(KeyframeTrack(keyTimes: many).problem == "has 257 key times: give at most 256")
        #expect(KeyframeTrack(keyTimes: Array(many.dropLast())).problem?.hasSuffix(order) == true)
        #expect(KeyframeTrack(keyTimes: (0..<256).map { Double($0) / 255 }).problem == nil)
        let four = KeyframeTrack(keyTimes: [0, 0.4, 0.8, 1], timing: [.linear, .hold])
        #expect(four.problem == "has 2 functions for 3 segments: give one per segment, or one for all")
        #expect(KeyframeTrack(keyTimes: [0, 1], timing: []).problem
            == "has 0 functions for 1 segment: give one per segment, or one for all")
        #expect(KeyframeTrack(keyTimes: [0, 0.5, 1], timing: [.linear, .steps(count: 0, position: .jumpEnd)]).problem
            == "timing of segment 1: steps 0 with jump-end: give at least 1 step")
        #expect(four.problem(valueCount: 3) == "has 4 keyTimes and 3 values: give one value per key time")
        #expect(four.problem(valueCount: 1) == "has 4 keyTimes and 1 value: give one value per key time")
        #expect(four.problem(valueCount: 4) == nil)
    }

    // MARK: - Properties (seeded)

    @Test func randomClocksArePeriodicAndInRange() {
        var random = SplitMix64(seed: 0x5CE4E)
        for _ in 0..<2000 {
            let duration = 0.01 + 5 * random.nextUnit()
            let autoreverses = random.chance(0.5)
            let forever = random.chance(0.6)
            let clock = SceneClock(name: "c", duration: duration,
                                   repeats: forever ? .forever : .count(0.25 + 4 * random.nextUnit()),
                                   autoreverses: autoreverses, begin: 10 * random.nextUnit() - 5)
            let speed = forever ? 0.5 + random.nextUnit() : 1
            let delay = 4 * random.nextUnit() - 2
            let t = 2000 * random.nextUnit() - 1000
            let reading = clock.reading(at: t, speed: speed, delay: delay)
            #expect(reading.u >= 0 && reading.u <= 1, "\(clock) at \(t): \(reading)")
            guard forever else { continue }
            #expect(reading.u < 1 || autoreverses)
            let later = clock.reading(at: t + clock.period / speed, speed: speed, delay: delay)
            // Without autoreverse u wraps from 1 to 0: compare around the circle.
            let gap = abs(later.u - reading.u)
            #expect((autoreverses ? gap : min(gap, 1 - gap)) <= 1e-9, "\(clock) at \(t): \(reading) vs \(later)")
            #expect(abs(later.n - reading.n - 1) <= 1 && later.period == reading.period)
        }
    }

    @Test func randomCurvesAreMonotonic() {
        var random = SplitMix64(seed: 0xBE21E7)
        for _ in 0..<200 {
            let curve = CubicBezierTiming(x1: random.nextUnit(), y1: random.nextUnit(), x2: random.nextUnit(), y2: random.nextUnit())
            #expect(curve.problem == nil)
            var previous = 0.0
            for i in 0...1000 {
                let x = Double(i) / 1000 + (i % 7 == 3 ? 1e-13 : 0)
                let y = curve.progress(at: x)
                #expect(y >= previous, "\(curve) at \(x): \(y) < \(previous)")
                #expect(y >= 0 && y <= 1)
                previous = y
            }
        }
    }
}
