import Foundation
import Testing
import Throbber
import ThrobberCPU

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
    static let twins: [(String, String, Int)] = [
        ("activity.scene.json", "activity", 0), ("ring.scene.json", "ring", 0), ("wave-ball.scene.json", "wave-ball", 1),
    ]

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
            try twin.validate()
            for t in [drawn.time, 0, 0.37, 1.25] {
                let expected = cpu.render(twin.drawList(at: t))
                let observed = cpu.render(drawn.scene.drawList(at: t))
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

    @Test func threeBounceStartsAsCSSDoesAtItsNegativeDelays() throws {
        // At t = 0 the three dots have the radii CSS gives at delays −0.32, −0.16 and 0 s.
        let model = try Self.file("three-bounce.scene.json") as! FileScene
        let radii = try model.evaluate(at: 0).map { placed -> Double in
            if case .disc(_, _, let r, _) = placed.primitive { return r }
            Issue.record("not a disc: \(placed)")
            return -1
        }
        #expect(radii.map { ($0 * 100).rounded() / 100 } == [6.22, 1.7, 0])
        // One loop is one swell, 1.4 s: frame 84 at 60 fps is frame 0.
        #expect(model.loopDuration == 1.4)
        #expect(try model.evaluate(at: 84.0 / 60) .map(\.primitive) == model.evaluate(at: 0).map(\.primitive))
        // Replicated discs become one instanced batch.
        let items = Scene(model, scale: 2).drawList(at: 0.5).items
        #expect(items.count == 1 && items[0].primitive(as: Boxes.self)?.boxes.count == 3)
    }
}
