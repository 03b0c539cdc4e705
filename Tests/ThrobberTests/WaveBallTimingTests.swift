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

    @Test func drawListFollowsThePaintOrder() throws {
        let list = try LaidOutScene(Scene()).drawList(at: 1)
        #expect(list.width == 300 && list.height == 300)
        guard list.items.count == 6 else {
            Issue.record("expected 6 items, got \(list.items.count)")
            return
        }
        #expect(list.items[0].primitive is Disc, "item 0 is not the disc")
        #expect(list.items[1].primitive is Wave, "item 1 is not the front wave")
        #expect(list.items[2].primitive is Wave, "item 2 is not the back wave")
        #expect(list.items[3].primitive(as: BoxRing.self)?.slots.count == 100, "item 3: the 100 ticks")
        #expect(list.items[4].primitive(as: Arc.self)?.isFullCircle == true, "item 4: the thin circle")
        #expect(list.items[5].primitive(as: BoxRing.self)?.slots.count == 25, "item 5: 25 lit ticks")
        #expect(Set(list.items.map(\.id)).count == list.items.count, "identities are unique")
    }

    @Test func phaseADayLaterIsReducedBeforeSinglePrecision() throws {
        let late = try LaidOutScene(Scene()).drawList(at: 86_400)
        guard let wave = late.items[1].primitive(as: Wave.self) else {
            Issue.record("no wave")
            return
        }
        #expect(wave.phase >= 0 && wave.phase < 2 * Float.pi)
        let expected = reducedPhase(WaveBall().frameState(at: 86_400).frontPhase)
        #expect(abs(Double(wave.phase) - expected) < 1e-6)
    }
}
