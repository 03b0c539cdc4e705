import Testing
@testable import Throbber

/// SPEC §1 check values and timing formulas of the wave ball.
struct WaveBallTimingTests {
    let ball = WaveBall()

    @Test func discGeometry() {
        #expect(ball.discInset == 58)
        #expect(ball.discDiameter == 184)
    }

    @Test func checkValuesAtOneSecond() {
        let state = ball.frameState(at: 1)
        #expect(abs(state.amplitudeFactor - 1.0) < 1e-12)
        #expect(abs(state.level - 134) < 1e-9)
        #expect(abs(state.filled - 0.27174) < 1e-5)
        #expect(state.litCount == 13)
        #expect(ball.litTickAngles(count: state.litCount).count == 25)
    }

    @Test func checkValuesAtTwoSecondsLevelIsParked() {
        let state = ball.frameState(at: 2)
        #expect(abs(state.level - 101.2) < 1e-9)
        #expect(abs(state.amplitudeFactor - 1.5) < 1e-12)
        // Parked: later frames keep the level.
        #expect(abs(ball.frameState(at: 50).level - 101.2) < 1e-9)
    }

    @Test(arguments: [(0.0, 1.5), (0.5, 1.25), (1.0, 1.0), (1.5, 1.25), (2.0, 1.5), (3.0, 1.0)])
    func amplitudeTriangle(t: Double, expected: Double) {
        #expect(abs(ball.frameState(at: t).amplitudeFactor - expected) < 1e-12)
    }

    @Test func phasesFollowTheTickCount() {
        let state = ball.frameState(at: 0.3)
        #expect(abs(state.frontPhase - 0.4 * 15 / Double.pi) < 1e-12)
        #expect(abs(state.backPhase - 0.3 * 15 / Double.pi) < 1e-12)
    }

    @Test func levelFallsWhenProgressIsBelowFillFrom() {
        var model = WaveBall()
        model.fillFrom = 1
        model.progress = 0.5
        #expect(abs(model.frameState(at: 0).level - 0) < 1e-12)
        #expect(abs(model.frameState(at: 1).level - 50) < 1e-9)
        #expect(abs(model.frameState(at: 10).level - 92) < 1e-9)
    }

    @Test func fullBallLightsEveryTickOnce() {
        var model = WaveBall()
        model.progress = 1
        model.fillFrom = 1
        let state = model.frameState(at: 0)
        #expect(state.litCount == 51)
        let angles = model.litTickAngles(count: state.litCount)
        #expect(angles.count == 100)
        let positions = Set(angles.map { Int((reducedPhase($0) / (2 * .pi) * 100).rounded()) % 100 })
        #expect(positions.count == 100)
    }

    @Test func oddTickCountHasNoDuplicateTopTick() {
        var model = WaveBall()
        model.tickCount = 7
        model.progress = 1
        model.fillFrom = 1
        let state = model.frameState(at: 0)
        #expect(state.litCount == 4)
        #expect(model.litTickAngles(count: state.litCount).count == 7)
    }

    @Test func drawListFollowsThePaintOrder() {
        let list = Scene().drawList(at: 1)
        #expect(list.width == 300 && list.height == 300)
        guard list.items.count == 6 else {
            Issue.record("expected 6 items, got \(list.items.count)")
            return
        }
        if case .disc = list.items[0] {} else { Issue.record("item 0 is not the disc") }
        if case .wave = list.items[1] {} else { Issue.record("item 1 is not the front wave") }
        if case .wave = list.items[2] {} else { Issue.record("item 2 is not the back wave") }
        if case .quads(let ticks) = list.items[3] { #expect(ticks.instances.count == 100) } else { Issue.record("item 3") }
        if case .arc(let circle) = list.items[4] { #expect(circle.isFullCircle) } else { Issue.record("item 4") }
        if case .quads(let lit) = list.items[5] { #expect(lit.instances.count == 25) } else { Issue.record("item 5") }
    }

    @Test func phaseADayLaterIsReducedBeforeSinglePrecision() {
        let late = Scene().drawList(at: 86_400)
        guard case .wave(let wave) = late.items[1] else {
            Issue.record("no wave")
            return
        }
        #expect(wave.phase >= 0 && wave.phase < 2 * Float.pi)
        let expected = reducedPhase(WaveBall().frameState(at: 86_400).frontPhase)
        #expect(abs(Double(wave.phase) - expected) < 1e-6)
    }
}
