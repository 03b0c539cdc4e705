import Foundation
import Testing
import Throbber
@testable import ThrobberSceneFile
import ThrobberCPU
import ThrobberText

/// The example scene files that are twins of built-in scenes draw what the built-ins draw, frame
/// by frame over random parameters (docs/scene-files.md "File twins"): the same settings given to
/// both, the CPU renderer's pixels compared.
struct SceneFileTwinTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../examples/scenes").standardizedFileURL

    static func file(_ name: String) throws -> any SceneModel {
        let url = examples.appendingPathComponent(name)
        return try FileScene(text: try String(contentsOf: url, encoding: .utf8), path: url.path)
    }

    /// (file, built-in, largest channel difference allowed): the activity spinner and the ring
    /// write the built-ins' own arithmetic; the wave ball's tick angles are written in degrees,
    /// which round differently from the built-in's radians by an ulp.
    ///
    /// The double wave and the pull wave write the built-ins' arithmetic in its order; the
    /// triangle and the breathing reduce time exactly, as the built-ins' truncatingRemainder
    /// does (the double wave by Dekker's exact product, see `doubleWaveAmplitudeIsTheBuiltInsBitForBit`).
    /// The progress ring's arc takes its sweep in degrees, so 360·p·(π/180) can differ from the
    /// built-in's 2π·p by one double ulp; the arc row stores the sweep as a Float, which both
    /// round to the same value unless a Float rounding midpoint falls between them (odds about
    /// 2⁻²⁹), and even then the cap moves by 10⁻⁷ rad: 0 holds, and is what was measured.
    static let twins: [(String, String, Int)] = [
        ("activity.scene.json", "activity", 0), ("ring.scene.json", "ring", 0), ("wave-ball.scene.json", "wave-ball", 1),
        ("double-wave.scene.json", "double-wave", 0), ("pull-wave.scene.json", "pull-wave", 0),
        ("progress-ring.scene.json", "progress-ring", 0),
    ]

    /// Every example scene file, twins and CSS loaders alike.
    static let allExamples: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: examples.path)) ?? []
        return names.filter { $0.hasSuffix(".scene.json") }.sorted()
    }()

    @Test(arguments: twins)
    func aTwinDrawsItsBuiltInOverRandomParameters(file: String, builtIn: String, tolerance: Int) throws {
        let model = try Self.file(file)
        let sampler = ParameterSampler(seed: 34, maximumPixelSide: 256)
        let cpu = CPURenderer()
        for index in 0..<12 {
            // Drawn from the file's own declared ranges, then the same text given to the built-in.
            let drawn = try sampler.draw(model, index: index)
            var twin = Scene(try SceneRegistry.model(builtIn))
            for setting in drawn.settings { twin = try twin.setting(setting.name, to: setting.value) }
            let laidTwin = try LaidOutScene(twin), laidDrawn = try LaidOutScene(drawn.scene)
            for t in [drawn.time, 0, 0.37, 1.25] {
                let expected = cpu.render(laidTwin.drawList(at: t))
                let observed = cpu.render(laidDrawn.drawList(at: t))
                let diff = ImageDiff(expected: expected, observed: observed, tolerance: tolerance)
                #expect(diff.maxChannelDifference <= tolerance,
                        "\(file) case \(index) at t = \(t): \(drawn.settings.map { "\($0.name)=\($0.value)" }.joined(separator: " ")) max \(diff.maxChannelDifference)")
            }
        }
    }

    @Test(arguments: twins)
    func aTwinListsTheBuiltInsLoop(file: String, builtIn: String, tolerance: Int) throws {
        let model = try Self.file(file)
        let twin = try SceneRegistry.model(builtIn)
        #expect(model.periodicParts.map(\.period).sorted() == twin.periodicParts.map(\.period).sorted())
        #expect(model.canvasSize == twin.canvasSize)
    }

    /// Whether two frames hold the same primitives in the same order, whatever their nodes' ids.
    static func samePrimitives(_ a: [PlacedPrimitive], _ b: [PlacedPrimitive]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.primitive.isEqual(to: $1.primitive) }
    }

    @Test func threeBounceStartsAsCSSDoesAtItsNegativeDelays() throws {
        // At t = 0 the three dots have the radii CSS gives at delays −0.32, −0.16 and 0 s.
        let model = try Self.file("three-bounce.scene.json") as! FileScene
        let radii = try model.evaluate(at: 0).map { placed -> Double in
            if let disc = placed.primitive as? DiscNode.Shape { return disc.radius }
            Issue.record("not a disc: \(placed)")
            return -1
        }
        #expect(radii.map { ($0 * 100).rounded() / 100 } == [6.22, 1.7, 0])
        // One loop is one swell, 1.4 s: frame 84 at 60 fps is frame 0.
        #expect(model.loopDuration == 1.4)
        #expect(try Self.samePrimitives(model.evaluate(at: 84.0 / 60), model.evaluate(at: 0)))
        // Replicated discs become one instanced batch.
        let items = try LaidOutScene(Scene(model, scale: 2)).drawList(at: 0.5).items
        #expect(items.count == 1 && items[0].primitive(as: Boxes.self)?.boxes.count == 3)
    }

    @Test func theExamplesAreAllThere() {
        let expected = ["activity", "bar-equaliser", "double-wave", "dual-ring", "progress-ring", "pull-wave", "pulsing-circle",
                        "ring", "three-bounce", "wave-ball"].map { "\($0).scene.json" }
        #expect(Set(expected).isSubset(of: Set(Self.allExamples)), "\(Self.allExamples)")
    }

    /// Each example file loads; its default loop closes (the frame after the last is frame 0:
    /// the same primitives, or where a retimed or delayed clock lands an ulp away, the same
    /// pixels); and 20 random cases drawn from its declared ranges evaluate at their times.
    @Test(arguments: allExamples)
    func anExampleLoadsLoopsAndSamples(file: String) throws {
        let model = try Self.file(file)
        let defaults = try #require(model as? FileScene)
        try Scene(model).validate()

        // The default loop, as a job's `"loop": true` plans it at 60 fps: frames from periodicFrom.
        let from = try #require(model.periodicFrom, "\(file) never becomes periodic at its defaults")
        let plan = try model.defaultLoop(fps: 60)
        var looped = defaults
        looped.speeds = plan.speeds
        let first = try looped.evaluate(at: from)
        let wrapped = try looped.evaluate(at: from + plan.duration)
        if !Self.samePrimitives(first, wrapped) {
            let cpu = CPURenderer()
            for scale in [1.0, 2.0] {
                let scene = try Scene(looped, scale: scale).layingOutText()
                let diff = ImageDiff(expected: cpu.render(scene.drawList(at: from)),
                                     observed: cpu.render(scene.drawList(at: from + plan.duration)), tolerance: 0)
                #expect(diff.maxChannelDifference == 0,
                        "\(file) @\(scale)x: frame \(plan.frames) of the \(plan.duration) s loop from \(from) s is not frame 0")
            }
        }
        if model.loopDuration != nil {
            // A loop the clocks' periods give needs no retiming.
            #expect(plan.changes.allSatisfy { $0.speedChangePercent == 0 }, "\(file): \(plan.changesText)")
        }

        // Random cases from the file's own ranges, relations and sampling.
        let sampler = ParameterSampler(seed: 34, maximumPixelSide: 256)
        for index in 0..<20 {
            let drawn = try sampler.draw(model, index: index)
            let scene = try #require(drawn.scene.model as? FileScene)
            let words = drawn.settings.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
            for t in [drawn.time, 0, 0.37, 1.25] {
                do {
                    _ = try scene.evaluate(at: t)
                } catch {
                    Issue.record("\(file) case \(index) at t = \(t): \(words): \(error)")
                }
            }
        }
    }

    /// Files whose pictures step by design: the activity spinner's leaves change brightness
    /// twelve times a turn.
    static let steppedByDesign: Set<String> = ["activity.scene.json", "activity-paths.scene.json"]

    /// Seamless: nothing jumps inside the default loop or across its seam. A keyframe track
    /// whose last value is not its first (or a pulse that is still visible when it restarts)
    /// shows as a jump where a clock wraps, which here falls on or between the loop's frames;
    /// 2·10⁻⁷ s apart, every pixel must agree within 1.
    @Test(arguments: allExamples.filter { !steppedByDesign.contains($0) })
    func anExampleHasNoJumpInItsLoop(file: String) throws {
        var model = try Self.file(file)
        let from = try #require(model.periodicFrom)
        let plan = try model.defaultLoop(fps: 60)
        model.speeds = plan.speeds
        let scene = try Scene(model).layingOutText()
        let cpu = CPURenderer()
        let step = max(1, plan.frames / 120)
        for k in stride(from: 0, through: plan.frames, by: step) {
            let t = from + Double(k) / 60
            let diff = ImageDiff(expected: cpu.render(scene.drawList(at: t - 1e-7)), observed: cpu.render(scene.drawList(at: t + 1e-7)),
                                 tolerance: 1)
            #expect(diff.maxChannelDifference <= 1, "\(file): a jump at t = \(t) s (frame \(k) of \(plan.frames))")
        }
    }

    @Test func doubleWaveAmplitudeIsTheBuiltInsBitForBit() throws {
        // The file reduces the amplitude's triangle as x − n·2span with n·2span split exactly
        // (Dekker), which is what truncatingRemainder computes; mod's x − y·⌊x/y⌋ would round.
        let file = try #require(try Self.file("double-wave.scene.json") as? FileScene)
        var random = SplitMix64(seed: 2024)
        for _ in 0..<400 {
            var builtIn = DoubleWave()
            builtIn.amplitudeMin = (random.nextUnit() * 300 * 1000).rounded() / 1000
            builtIn.amplitudeMax = builtIn.amplitudeMin + (random.chance(0.1) ? 0 : pow(10, random.nextUnit() * 5 - 3))
            builtIn.amplitudeRate = random.chance(0.05) ? 0 : pow(10, random.nextUnit() * 4.7 - 2)
            var scene = Scene(file)
            for (name, value) in [("amplitudeMin", builtIn.amplitudeMin), ("amplitudeMax", builtIn.amplitudeMax),
                                  ("amplitudeRate", builtIn.amplitudeRate)] {
                scene = try scene.setting(name, to: formatNumber(value))
            }
            let model = try #require(scene.model as? FileScene)
            for t in [0, random.nextUnit() * 10, random.nextUnit() * 1e5, (random.nextUnit() * 6e6).rounded() / 60] {
                guard let amplitude = (try model.evaluate(at: t).first?.primitive as? WaveNode.Shape)?.amplitude else {
                    Issue.record("no wave")
                    return
                }
                #expect(amplitude == builtIn.amplitude(at: t),
                        "min \(builtIn.amplitudeMin) max \(builtIn.amplitudeMax) rate \(builtIn.amplitudeRate) t \(t)")
            }
        }
    }

    @Test func theCSSLoadersStartAsCSSDoes() throws {
        // SpinKit wave: at t = 0 every bar (delays −1.2 … −0.8 s) rests at scaleY 0.4; 0.24 s
        // later the first is at its 20 % keyframe, full height.
        let bars = try #require(try Self.file("bar-equaliser.scene.json") as? FileScene)
        let halfHeights = { (t: Double) throws -> [Double] in
            try bars.evaluate(at: t).map { placed -> Double in
                if let box = placed.primitive as? BoxNode.Shape { return box.halfY }
                Issue.record("not a box: \(placed)")
                return -1
            }
        }
        #expect(try halfHeights(0).map { ($0 * 1e9).rounded() / 1e9 } == [8, 8, 8, 8, 8])
        #expect(try abs(halfHeights(0.24)[0] - 20) < 1e-9)
        #expect(bars.loopDuration == 1.2)
        // SpinKit pulse: nothing at t = 0; mid-pulse the radius has grown by the eased fraction
        // e and the alpha fallen by it, on the one curve.
        let pulse = try #require(try Self.file("pulsing-circle.scene.json") as? FileScene)
        guard let r0 = (try pulse.evaluate(at: 0)[0].primitive as? DiscNode.Shape)?.radius,
              let disc = try pulse.evaluate(at: 0.6)[0].primitive as? DiscNode.Shape else {
            Issue.record("not a disc")
            return
        }
        let (r, color) = (disc.radius, disc.color)
        #expect(r0 == 0 && r > 0.4 * 20 && r < 0.6 * 20 && abs(r / 20 + color.a - 1) < 1e-12)
        // Dual ring: two arcs of a quarter's angle (less the caps) facing up and down, a turn in 1.2 s.
        let ring = try #require(try Self.file("dual-ring.scene.json") as? FileScene)
        let arcs = try ring.evaluate(at: 0.3).compactMap { placed -> (Double, Double)? in
            if let arc = placed.primitive as? ArcNode.Shape, arc.sweep < 2 * .pi { return (arc.start, arc.sweep) }
            return nil
        }
        let inset = 3.2 / 28.8
        #expect(arcs.count == 2)
        #expect(abs(arcs[0].0 - (-Double.pi / 4 + inset + Double.pi / 2)) < 1e-12 && abs(arcs[0].1 - (Double.pi / 2 - 2 * inset)) < 1e-12)
        #expect(abs(arcs[1].0 - (3 * Double.pi / 4 + inset + Double.pi / 2)) < 1e-12)
    }
    /// docs/scene-files.md's tutorial: every step loads, and the last step draws what
    /// examples/scenes/three-bounce.scene.json draws.
    @Test func theTutorialsStepsLoadAndEndAtTheExample() throws {
        let tutorial = Self.examples.appendingPathComponent("../../docs/scene-tutorial").standardizedFileURL
        let steps = try FileManager.default.contentsOfDirectory(atPath: tutorial.path).filter { $0.hasSuffix(".scene.json") }.sorted()
        #expect(steps.count == 4, "\(steps)")
        var last: FileScene?
        for step in steps {
            let url = tutorial.appendingPathComponent(step)
            let model = try FileScene(text: try String(contentsOf: url, encoding: .utf8), path: url.path)
            _ = try model.evaluate(at: 0.3)
            last = model
        }
        let example = try #require(try Self.file("three-bounce.scene.json") as? FileScene)
        let final = try #require(last)
        for t in [0, 0.1, 0.5, 0.93, 1.4, 77.7] {
            #expect(try Self.samePrimitives(final.evaluate(at: t), example.evaluate(at: t)), "t = \(t)")
        }
    }
    /// A size parameter is read as `name.width` and `name.height`, a vector as `name.x` and
    /// `name.y`; both are set as `--set` writes them and drawn at random within their range.
    @Test func sizeAndVectorParametersAreReadByField() throws {
        let text = #"""
        { "format": "throbber-scene/1", "id": "screen-dot",
          "parameters": [
            { "name": "screen", "type": "size", "default": "390x844", "range": { "min": 10, "max": 5000 }, "sample": { "min": 10, "max": 600 } },
            { "name": "offset", "type": "vector", "default": [0, -40], "range": { "min": -1000, "max": 1000 }, "sample": { "min": -50, "max": 50 } } ],
          "canvas": { "width": "screen.width", "height": "screen.height" },
          "content": [ { "type": "disc", "center": ["screen.width / 2 + offset.x", "screen.height / 2 + offset.y"], "radius": 3, "color": "#ff0000" } ] }
        """#
        let model = try FileScene(text: text, path: "screen.scene.json")
        #expect(model.canvasSize == (390, 844))
        let scene = try Scene(model).setting("screen", to: "100x80").setting("offset", to: "10,-5")
        let moved = try #require(scene.model as? FileScene)
        #expect(moved.canvasSize == (100, 80))
        #expect(try Self.samePrimitives(moved.evaluate(at: 0), [PlacedPrimitive(node: "", primitive: DiscNode.Shape(centerX: 60, centerY: 35, radius: 3, color: RGBA(1, 0, 0, 1)), replicated: false)]))
        #expect(moved.value(of: "screen") == "100x80" && moved.value(of: "offset") == "10,-5")
        #expect(throws: ThrobberError.self) { try Scene(model).setting("screen", to: "5x80") }
        for index in 0..<20 {
            let drawn = try ParameterSampler(seed: 7).draw(model, index: index)
            let size = try #require(drawn.scene.model as? FileScene).canvasSize
            #expect((10...600).contains(size.width) && (10...600).contains(size.height), "\(size)")
        }
    }
    /// A frame a scene file cannot draw is an error where a pipeline asks for it
    /// (`checkedDrawList`), never an empty frame: the batch planner evaluates at most
    /// `Clip.preflightFrames` frames up front, and a frame between them stops the run here.
    @Test func aFrameThatCannotBeDrawnThrowsWhereThePipelineAsks() throws {
        // The three bounce with no stagger and an overshooting curve: radius below 0 from t ≈ 0.56 s.
        let text = try String(contentsOf: Self.examples.appendingPathComponent("three-bounce.scene.json"), encoding: .utf8)
            .replacingOccurrences(of: #""ease-in-out": "ease-in-out","#, with: #""ease-in-out": { "cubicBezier": [0.2, 1.6, 0.7, 1.6] },"#)
            .replacingOccurrences(of: #""default": 0.16"#, with: #""default": 0"#)
        let scene = try LaidOutScene(Scene(try FileScene(text: text, path: "over.scene.json"), scale: 2))
        #expect(try scene.checkedDrawList(at: 0).items.count == 1)
        do {
            _ = try scene.checkedDrawList(at: 0.7)
            Issue.record("frame at 0.7 s drawn")
        } catch let error as ThrobberError {
            #expect(error.kind == .badData && error.message.contains("radius = -") && error.message.contains("t = 0.7 s"), "\(error.message)")
        }
        // A built-in draws every frame.
        #expect(try LaidOutScene(Scene(try SceneRegistry.model("ring"))).checkedDrawList(at: 0.7).items.count == 2)
    }
}
