import Testing
import Throbber
@testable import ThrobberLottie

/// Keyframes as the format defines them: linear, Bézier easing per dimension, holds, spatial
/// Béziers by arc length, values before the first and after the last.
struct LottieKeyframeTests {
    func keys(_ list: [(Double, [Double])], out: LottieEasing? = nil, into: LottieEasing? = nil, hold: Bool = false) -> LottieAnimated<LottieVector> {
        .keyframes(list.map { t, v in
            LottieKeyframe(time: t, start: LottieVector(v), end: nil, easeOut: out, easeIn: into, hold: hold, spatialOut: nil, spatialIn: nil)
        })
    }

    @Test func linearBetweenKeysAndHeldOutside() {
        let p = keys([(10, [0, 100]), (20, [50, 0])])
        #expect(p.value(at: 0).values == [0, 100])
        #expect(p.value(at: 15).values == [25, 50])
        #expect(p.value(at: 20).values == [50, 0])
        #expect(p.value(at: 99).values == [50, 0])
    }

    @Test func holdKeepsTheValueUntilTheNextKey() {
        let p = keys([(0, [1]), (10, [5])], hold: true)
        #expect(p.value(at: 9.999).values == [1])
        #expect(p.value(at: 10).values == [5])
    }

    @Test func easingIsPerDimension() {
        // x eases in (slow start), y is linear: at half time x is well behind, y exactly half.
        let out = LottieEasing(x: [0.9, 0], y: [0, 0]), into = LottieEasing(x: [1, 1], y: [1, 1])
        let p = keys([(0, [0, 0]), (10, [100, 100])], out: out, into: into)
        let v = p.value(at: 5)
        let expectedX = CubicBezierTiming(x1: 0.9, y1: 0, x2: 1, y2: 1).progress(at: 0.5) * 100
        #expect(abs(v[0] - expectedX) < 1e-9)
        #expect(v[0] < 30)
        #expect(abs(v[1] - 50) < 1e-9)
    }

    @Test func spatialTangentsTravelTheCurveByArcLength() {
        // A half circle-ish arc from (0,0) to (100,0) bulging up: halfway in time is the middle of the arc.
        let key = LottieKeyframe<LottieVector>(time: 0, start: LottieVector([0, 0]), end: nil, easeOut: nil, easeIn: nil, hold: false,
                                               spatialOut: [0, -66], spatialIn: [0, -66])
        let last = LottieKeyframe<LottieVector>(time: 10, start: LottieVector([100, 0]), end: nil, easeOut: nil, easeIn: nil, hold: false,
                                                spatialOut: nil, spatialIn: nil)
        let p = LottieAnimated.keyframes([key, last])
        let mid = p.value(at: 5)
        #expect(abs(mid[0] - 50) < 0.5)
        #expect(mid[1] < -45)
        // A quarter of the way in time is a quarter of the arc length, not of the parameter.
        let quarter = p.value(at: 2.5)
        #expect(quarter[1] < -30 && quarter[0] > 5 && quarter[0] < 30)
    }

    @Test func oldFilesEndValuesAreUsed() {
        let p = LottieAnimated<Double>.keyframes([
            LottieKeyframe(time: 0, start: 0, end: 10, easeOut: nil, easeIn: nil, hold: false, spatialOut: nil, spatialIn: nil),
            LottieKeyframe(time: 10, start: nil, end: nil, easeOut: nil, easeIn: nil, hold: false, spatialOut: nil, spatialIn: nil),
        ])
        #expect(p.value(at: 5) == 5)
        #expect(p.value(at: 20) == 10)
    }
}
