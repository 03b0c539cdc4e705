import Foundation
import Testing
@testable import Throbber
import ThrobberText

/// Random parity cases: deterministic for a seed, always valid, and varied enough to reach the
/// edge cases.
struct ParameterSamplerTests {
    /// Enough cases per scene that every kind of draw (each 5 % or more) comes up many times.
    static let count = 300

    /// The first `count` cases of a scene for `seed`.
    func cases(_ id: String, seed: UInt64 = 7, count: Int = ParameterSamplerTests.count,
               fixed: [SampledCase.Setting] = []) throws -> [SampledCase] {
        let sampler = ParameterSampler(seed: seed)
        return try (0..<count).map { try sampler.draw(id, index: $0, fixed: fixed) { try $0.layingOutText() } }
    }

    /// The first three outputs of Vigna's reference `splitmix64.c` seeded with 0.
    @Test func splitMix64MatchesTheReferenceSequence() {
        var random = SplitMix64(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(random.next() == 0x06C4_5D18_8009_454F)
        var unit = SplitMix64(seed: 42)
        for _ in 0..<1000 {
            let u = unit.nextUnit()
            #expect(u >= 0 && u < 1)
            #expect((0..<7).contains(unit.next(below: 7)))
        }
    }

    @Test(arguments: SceneRegistry.parityIDs)
    func theSameSeedDrawsTheSameCases(id: String) throws {
        let first = try cases(id, count: 60)
        let again = try cases(id, count: 60)
        #expect(first.map(\.settings) == again.map(\.settings))
        #expect(first.map(\.time) == again.map(\.time))
        // A case depends on (seed, scene, index) only, not on the cases drawn before it.
        let alone = try ParameterSampler(seed: 7).draw(id, index: 41) { try $0.layingOutText() }
        #expect(alone.settings == first[41].settings && alone.time == first[41].time)
        // Another seed draws other cases.
        let other = try cases(id, seed: 8, count: 60)
        let same = zip(first, other).filter { $0.settings == $1.settings && $0.time == $1.time }.count
        #expect(same < 6, "\(same) of 60 cases are the same for seeds 7 and 8")
    }

    @Test(arguments: SceneRegistry.parityIDs)
    func everyCaseIsValidFitsTheCapAndRebuildsFromItsSettings(id: String) throws {
        for item in try cases(id) {
            let label = "\(id) #\(item.index): \(item.settings)"
            #expect(throws: Never.self, "\(label)") { try item.scene.validate() }
            let (width, height) = item.scene.pixelSize
            #expect(width <= 640 && height <= 640, "\(label): \(width)×\(height) px")
            #expect(item.time >= 0 && item.time <= ParameterSampler.latestTime && Double(formatNumber(item.time)) == item.time,
                    "\(label): t = \(item.time)")
            #expect(item.settings.first?.name == "scale")
            // What `render` does with the printed command: defaults, then each setting as text.
            var rebuilt = Scene(try SceneRegistry.model(id))
            for setting in item.settings { rebuilt = try rebuilt.setting(setting.name, to: setting.value) }
            #expect(try rebuilt.layingOutText().drawList(at: item.time) == item.scene.layingOutText().drawList(at: item.time), "\(label)")
        }
    }

    @Test func everyNumberHasAFiniteSamplingRangeWithinItsDeclaredRange() {
        func check<Model: BuiltInScene>(_ type: Model.Type) {
            for parameter in Model.parameters {
                switch parameter.kind {
                case .color, .optionalColor, .choice, .text:
                    #expect(parameter.samplingRange == nil)
                case .number, .optionalNumber, .integer, .pair, .numberOrKeyword:
                    guard let range = parameter.samplingRange else {
                        Issue.record("\(Model.id) \(parameter.name) has no sampling range")
                        continue
                    }
                    #expect(range.isFinite, "\(Model.id) \(parameter.name)")
                    #expect(parameter.accepts(range.low) && parameter.accepts(range.high), "\(Model.id) \(parameter.name): \(range)")
                    if let smallest = range.logarithmicFrom { #expect(smallest > 0 && smallest <= max(abs(range.low), range.high)) }
                }
            }
        }
        for type in SceneRegistry.all + SceneRegistry.parityOnly { check(type) }
    }

    @Test(arguments: SceneRegistry.parityIDs)
    func everyParameterIsVaried(id: String) throws {
        let drawn = try cases(id)
        let defaults = try SceneRegistry.model(id)
        // Font files stay the defaults (a random path names no font); WaveBallLabelTests sets them.
        let fontFiles = Set(defaults.parameterSchemas.filter { $0.type == "text" && $0.optional }.map(\.name))
        for info in defaults.parameterInfos where info.name != "background" && !fontFiles.contains(info.name) {
            let values = Set(drawn.map { $0.scene.model.value(of: info.name)! })
            let enough = info.type.contains("|") ? info.type.split(separator: "|").count : 10
            #expect(values.count >= enough, "\(id) \(info.name) took \(values.count) values: \(values.sorted())")
            #expect(values.contains { $0 != info.defaultValue }, "\(id) \(info.name)")
        }
        // A model's `background` is the canvas colour, which the scene's background draws.
        let backgrounds = drawn.map(\.scene.background)
        #expect(backgrounds.contains(nil) && backgrounds.contains(.clear))
        #expect(backgrounds.contains { $0?.a == 1 } && backgrounds.contains { ($0?.a ?? 0) > 0 && ($0?.a ?? 1) < 1 })
    }

    @Test func tickCountsIncludeNonMultiplesOfFour() throws {
        let ticks = try cases("wave-ball").map { ($0.scene.model as! WaveBall).tickCount }
        #expect(ticks.filter { $0 % 4 != 0 }.count >= 100, "\(ticks)")
        #expect(ticks.filter { $0 % 4 == 0 }.count >= 20, "\(ticks)")
        #expect(ticks.contains(1) && ticks.contains(10_000) && ticks.contains(100))
        #expect(ticks.filter { $0 <= 40 }.count >= 60 && ticks.contains { $0 > 1000 }, "\(ticks)")
    }

    @Test func coloursScalesAndTimesReachTheirEdges() throws {
        let drawn = try SceneRegistry.ids.flatMap { try cases($0) }
        let alphas = drawn.compactMap { ($0.scene.model as? WaveBall)?.tickLit.a }
            + drawn.compactMap { ($0.scene.model as? Activity)?.leafColor.a }
        #expect(alphas.contains(0) && alphas.contains(1) && alphas.contains { $0 > 0 && $0 < 1 })
        let scales = drawn.map(\.scene.scale)
        for whole in [1.0, 2, 3] { #expect(scales.contains(whole)) }
        #expect(scales.filter { $0 != $0.rounded() }.count > drawn.count / 2)
        #expect(scales.contains { $0 < 1 } && scales.contains { $0 > 3 })
        #expect(scales.allSatisfy { $0 > 0 && $0 <= ParameterSampler.scaleRange.upperBound })
        let times = drawn.map(\.time)
        #expect(times.contains(0) && times.contains { $0 > 1e4 } && times.contains { $0 > 0 && $0 < 1 })
        #expect(times.contains { $0 > 1e4 && $0 != $0.rounded() })
    }

    /// Relations are met by redrawing the dependent value, which also reaches the bound itself.
    @Test func dependentValuesReachTheirBounds() throws {
        let leaves = try cases("activity").map { $0.scene.model as! Activity }
        #expect(leaves.contains { $0.leafCornerRadius > 0 && $0.leafCornerRadius == 0.0125 * $0.size })
        let waves = try cases("double-wave").map { $0.scene.model as! DoubleWave }
        #expect(waves.contains { $0.amplitudeMin == $0.amplitudeMax && $0.amplitudeMin > 0 })
        #expect(waves.contains { $0.amplitudeMin < $0.amplitudeMax })
        let huds = try cases("ring").map { ($0.scene.model as! Ring).hud }
        #expect(huds.contains { $0.hudCornerRadius == $0.hudSize / 2 })
    }

    @Test func fixedSettingsAreKeptAndTheRestIsDrawn() throws {
        let fixed = [SampledCase.Setting("tickCount", "6"), .init("progress", "1"), .init("fillFrom", "1"),
                     .init("scale", "2"), .init("background", "none")]
        let drawn = try cases("wave-ball", count: 100, fixed: fixed)
        for item in drawn {
            let ball = item.scene.model as! WaveBall
            #expect(ball.tickCount == 6 && ball.progress == 1 && ball.fillFrom == 1)
            #expect(item.scene.scale == 2 && item.scene.background == .clear)
            #expect(item.settings.contains(.init("tickCount", "6")) && item.settings.first == .init("scale", "2"))
        }
        #expect(Set(drawn.map { ($0.scene.model as! WaveBall).size }).count > 20)
        #expect(Set(drawn.map(\.time)).count > 50)
    }

    @Test func impossibleOrUnknownFixedSettingsAreUsageErrors() throws {
        let sampler = ParameterSampler(seed: 1)
        #expect {
            try sampler.draw("wave-ball", index: 0, fixed: [.init("size", "50"), .init("scaleMargin", "30")])
        } throws: { error in
            let error = error as! ThrobberError
            return error.kind == .usage && error.message.contains("size=50") && error.message.contains("room")
        }
        #expect {
            try sampler.draw("wave-ball", index: 0, fixed: [.init("tickCont", "6")])
        } throws: { error in
            (error as! ThrobberError).message.contains("did you mean 'tickCount'")
        }
        #expect(throws: ThrobberError.self) { try sampler.draw("wave-ball", index: 0, fixed: [.init("progress", "2")]) }
    }

    @Test func significantDigits() {
        #expect(ParameterSampler.rounded(123.456, significantDigits: 4) == 123.5)
        #expect(ParameterSampler.rounded(0.000123456, significantDigits: 3) == 0.000123)
        #expect(ParameterSampler.rounded(98_765.4321, significantDigits: 7) == 98_765.43)
        #expect(ParameterSampler.rounded(-2.5e-7, significantDigits: 1) == -2e-7 || ParameterSampler.rounded(-2.5e-7, significantDigits: 1) == -3e-7)
        #expect(ParameterSampler.rounded(0, significantDigits: 4) == 0)
    }
}
