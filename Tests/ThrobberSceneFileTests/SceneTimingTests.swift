import Testing
@testable import Throbber
@testable import ThrobberSceneFile

/// SPEC §2–§5 timing formulas.
struct SceneTimingTests {
    // SPEC §2: a triangle starting at the midpoint 8, rising at 2.4 pt/s to 12, falling to 4.
    @Test(arguments: [
        (0.0, 8.0), (1.0, 10.4), (5.0 / 3, 12.0), (2.5, 10.0), (5.0, 4.0), (6.0, 6.4), (20.0 / 3, 8.0), (25.0 / 3, 12.0),
    ])
    func doubleWaveAmplitudeTriangle(t: Double, expected: Double) {
        #expect(abs(DoubleWave().amplitude(at: t) - expected) < 1e-9)
    }

    @Test func doubleWaveFlatAmplitudeWhenBoundsMeet() {
        var model = DoubleWave()
        model.amplitudeMin = 5
        model.amplitudeMax = 5
        #expect(model.amplitude(at: 3.3) == 5)
        #expect(abs(DoubleWave().frameState(at: 2).phase - 6) < 1e-12)
    }

    @Test(arguments: [(-10.0, 1), (0.0, 1), (9.99, 1), (10.0, 2), (60.0, 7), (59.0, 6), (500.0, 7)])
    func pullWaveTimesFromPull(pull: Double, times: Int) {
        var model = PullWave()
        model.pull = pull
        #expect(model.times == times)
        #expect(abs(model.stripHeight - 3.2 * Double(times)) < 1e-12)
    }

    @Test(arguments: [(0.0, 1.6), (1.0, 1.3), (2.0, 1.0), (3.0, 1.3), (4.0, 1.6)])
    func pullWaveBreathing(t: Double, v: Double) {
        let state = PullWave().frameState(at: t)
        #expect(abs(state.breathing - v) < 1e-12)
        #expect(abs(state.amplitude - v * 7) < 1e-12)
        #expect(abs(state.phase - 0.4 / Double.pi * 30 * t) < 1e-12)
    }

    @Test(arguments: [(0.0, 0), (1.0 / 12, 1), (0.5, 6), (11.0 / 12, 11), (1.0, 0), (13.0 / 12, 1), (0.0833, 0)])
    func activityTick(t: Double, tick: Int) {
        #expect(Activity().tick(at: t) == tick)
    }

    @Test func activityTickFollowsSecondsPerLoop() {
        var model = Activity()
        model.secondsPerLoop = 2
        #expect(model.tick(at: 1) == 6)
    }

    @Test func activityBrightnessFallsAroundTheLeaves() {
        let model = Activity()
        #expect(model.colorOfLeaf(0, tick: 0) == RGBA(1, 1, 1, 1))
        #expect(abs(model.colorOfLeaf(3, tick: 0).r - 0.7) < 1e-12)
        #expect(model.colorOfLeaf(11, tick: 0).r == 0)
        #expect(model.colorOfLeaf(11, tick: 1) == RGBA(1, 1, 1, 1))
    }

    @Test(arguments: [(0.0, 0.0), (0.25, 0.25), (1.75, 0.75), (86_400.5, 0.5)])
    func ringTurn(t: Double, u: Double) {
        #expect(abs(Ring().frameState(at: t).turn - u) < 1e-9)
    }

    @Test(arguments: [(-1.0, 0.2), (0.0, 0.2), (0.5, 0.5), (1.0, 0.8), (2.0, 0.8)])
    func progressRingRamp(t: Double, p: Double) {
        var model = ProgressRing()
        model.progress = 0.2
        model.progressEnd = 0.8
        model.progressDuration = 1
        #expect(abs(model.progress(at: t) - p) < 1e-12)
        #expect(ProgressRing().progress(at: t) == 0.45)
    }

    @Test(arguments: ["activity", "ring"])
    func oneSecondLoopsRepeatExactly(id: String) throws {
        let scene = try LaidOutScene(Scene(try SceneRegistry.model(id), scale: 2))
        for t in [0.0, 0.123, 0.5, 0.9] {
            #expect(scene.drawList(at: t) == scene.drawList(at: t + 1))
        }
    }

    @Test func darkStyleChangesTheDefaultColours() throws {
        let scene = try Scene(Ring()).setting("style", to: "dark")
        let ring = try #require(scene.model as? Ring)
        #expect(ring.hud.resolvedRingColor == RGBA(1, 1, 1, 1))
        #expect(ring.hud.resolvedHudColor == RGBA(0.122, 0.131, 0.142, 1))
        let custom = try scene.setting("ringColor", to: "1,0,0,1").model as! Ring
        #expect(custom.hud.resolvedRingColor == RGBA(1, 0, 0, 1))
    }

    @Test func progressRingPaintsTheFaintRingOnTop() throws {
        let items = try LaidOutScene(Scene(ProgressRing())).drawList(at: 0).items
        #expect(items.count == 3)
        guard let progress = items[1].primitive(as: Arc.self), let track = items[2].primitive(as: Arc.self) else {
            Issue.record("expected two arcs")
            return
        }
        #expect(abs(progress.sweep - Float(2 * Double.pi * 0.45)) < 1e-6)
        #expect(track.isFullCircle)
        #expect(abs(track.color.a - 0.1) < 1e-7)
        var empty = ProgressRing()
        empty.progress = 0
        #expect(try LaidOutScene(Scene(empty)).drawList(at: 0).items.count == 2)
    }
}

/// Bad input per scene: names the field, the value and the allowed range.
struct SceneBadInputTests {
    @Test(arguments: [
        ("ring", "style", "blue", "light, dark"), ("progress-ring", "style", "drak", "did you mean 'dark'"),
        ("ring", "radius", "-1", "≥ 0"), ("ring", "thickness", "-2", "≥ 0"), ("ring", "hudSize", "0", "> 0"),
        ("progress-ring", "progress", "1.2", "[0, 1]"), ("progress-ring", "progressEnd", "-0.1", "[0, 1]"),
        ("progress-ring", "progressDuration", "0", "> 0"), ("activity", "size", "-240", "> 0"),
        ("activity", "secondsPerLoop", "nan", "> 0"), ("activity", "leafColor", "1,1,1,1.5", "[0, 1]"),
        ("double-wave", "amplitudeRate", "-1", "≥ 0"), ("double-wave", "waveLength", "0", "> 0"),
        ("double-wave", "width", "inf", "> 0"), ("pull-wave", "pull", "nan", "finite"),
        ("pull-wave", "height", "0", "> 0"), ("wave-ball", "progress", "-0.01", "[0, 1]"),
    ])
    func rejected(scene id: String, name: String, value: String, allowed: String) throws {
        #expect {
            try Scene(try SceneRegistry.model(id)).setting(name, to: value)
        } throws: { error in
            let error = error as! ThrobberError
            return error.kind == .usage && error.message.contains(name) && error.message.contains(value)
                && error.message.contains(allowed)
        }
    }

    @Test(arguments: [
        ("double-wave", ["amplitudeMin=13"], "amplitudeMin"), ("activity", ["leafCornerRadius=4"], "leafCornerRadius"),
        ("ring", ["hudCornerRadius=50"], "hudCornerRadius"), ("wave-ball", ["size=110"], "size"),
    ])
    func relationsAreChecked(scene id: String, settings: [String], field: String) throws {
        var scene = Scene(try SceneRegistry.model(id))
        for setting in settings {
            let parts = setting.split(separator: "=").map(String.init)
            scene = try scene.setting(parts[0], to: parts[1])
        }
        #expect {
            try scene.validate()
        } throws: { error in
            (error as! ThrobberError).message.contains(field)
        }
    }

    /// The frame of `model` at `t`, unvalidated: a default set alone may break a relation the
    /// frame does not care about (the hud's maskColor without mask=custom), which a
    /// `LaidOutScene` would refuse.
    static func unvalidatedList(_ model: any SceneModel, at t: Double) -> DrawList {
        let (width, height) = Scene(model).pixelSize
        return DrawList(width: width, height: height, background: PaintColor(model.defaultBackground),
                        items: model.drawItems(at: t, scale: 1, width: width, height: height))
    }

    @Test func everyDefaultSceneIsValidAndListsItsParameters() throws {
        for type in SceneRegistry.all {
            let model = type.init()
            try Scene(model).validate()
            #expect(!model.parameterInfos.isEmpty)
            for info in model.parameterInfos {
                // Each listed default reads back through --set as the same model: every
                // parameter's value unchanged, and the same draw list.
                if info.defaultValue != "style" && info.defaultValue != "none" && info.defaultValue != "width" {
                    let back = try model.setting(info.name, to: info.defaultValue)
                    for other in model.parameterInfos {
                        #expect(back.value(of: other.name) == model.value(of: other.name),
                                "\(type.id): --set \(info.name)=\(info.defaultValue) changed \(other.name)")
                    }
                    #expect(Self.unvalidatedList(back, at: 0.7) == Self.unvalidatedList(model, at: 0.7), "\(type.id) \(info.name)")
                }
            }
        }
    }
}
