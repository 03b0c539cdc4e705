import Foundation
import Testing
import Throbber
@testable import ThrobberLottie

/// The Lottie export (issue 51): keyframes fitted within the tolerance, numbers written as JSON,
/// built-in scenes written as files the reader takes back, colour parameters as slots, and the
/// dotLottie archive its reader opens with its themes.
struct LottieExportTests {
    static let frames = stride(from: 0.0, through: 60, by: 0.5).map { $0 }

    /// Fitted keys evaluated as a player does: linear between keys, held after a hold.
    static func value(_ keys: [FittedKey], at t: Double) -> [Double] {
        guard let next = keys.firstIndex(where: { $0.time > t }) else { return keys.last!.value }
        guard next > 0 else { return keys[0].value }
        let a = keys[next - 1], b = keys[next]
        if a.hold { return a.value }
        let u = (t - a.time) / (b.time - a.time)
        return zip(a.value, b.value).map { $0 + ($1 - $0) * u }
    }

    @Test func aLineIsTwoKeys() {
        let f: (Double) -> [Double] = { [3 + 0.25 * $0, -$0] }
        let keys = KeyframeFitting.fit(times: Self.frames, values: Self.frames.map(f), tolerance: 0.001, evaluate: f)
        #expect(keys.count == 2)
        #expect(keys.allSatisfy { !$0.hold })
    }

    @Test func aCurveStaysWithinTheToleranceEverywhere() {
        let f: (Double) -> [Double] = { [5 * sin($0 / 9)] }
        let tolerance = 0.05
        let keys = KeyframeFitting.fit(times: Self.frames, values: Self.frames.map(f), tolerance: tolerance, evaluate: f)
        #expect(keys.count > 2 && keys.count < Self.frames.count / 2, "\(keys.count) keys")
        // At every sample, and between samples the curve's own bend is all that is left.
        let worst = Self.frames.map { abs(Self.value(keys, at: $0)[0] - f($0)[0]) }.max()!
        #expect(worst <= tolerance * 1.000001, "worst \(worst)")
    }

    @Test func aStepIsHeldToItsTime() {
        // Steps of a spinner: the value jumps at t = 12.3 and at 40.
        let f: (Double) -> [Double] = { t in [t < 12.3 ? 1 : t < 40 ? 0.9 : 0.8] }
        let keys = KeyframeFitting.fit(times: Self.frames, values: Self.frames.map(f), tolerance: 0.001, evaluate: f)
        #expect(keys.count == 3, "\(keys.map { "\($0.time) \($0.value) \($0.hold)" })")
        #expect(keys[0].hold && keys[1].hold && !keys[2].hold)
        #expect(abs(keys[1].time - 12.3) <= 0.5 / 1024 + 1e-12, "\(keys[1].time)")
        // On a half frame the jump is put on it, where players are asked.
        #expect(keys[2].time == 40)
        // Right everywhere but within the bisection's 1/2048 frame of the jump.
        for t in stride(from: 0.0, through: 60, by: 0.01) where abs(t - 12.3) > 1.0 / 2048 {
            #expect(Self.value(keys, at: t) == f(t), "at \(t)")
        }
    }

    @Test func numbersAreShortAndValidJSON() {
        #expect(LottieValue.format(0.1234, digits: 2) == "0.12")
        #expect(LottieValue.format(-0.001, digits: 2) == "0")
        #expect(LottieValue.format(12.5, digits: 0) == "13" || LottieValue.format(12.5, digits: 0) == "12")
        #expect(LottieValue.format(100, digits: 3) == "100")
        #expect(LottieValue.format(-3.10, digits: 3) == "-3.1")
        let text = LottieValue.object([("a", .number(0.5, digits: 1)), ("s", .string("q\"\n"))]).text
        #expect(text == #"{"a":0.5,"s":"q\"\n"}"#)
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil)
    }

    static func export(_ model: any SceneModel, themes: [LottieExportTheme] = []) throws -> (LottieExport, [String: Any]) {
        let scene = try LaidOutScene(Scene(model))
        let export = try LottieExporter.export(scene, themes: themes)
        let root = try #require(try JSONSerialization.jsonObject(with: export.json) as? [String: Any])
        return (export, root)
    }

    @Test(arguments: ["wave-ball", "double-wave", "pull-wave", "activity", "ring", "progress-ring"])
    func aBuiltInSceneIsAFileTheReaderTakesBack(id: String) throws {
        let model = try SceneRegistry.model(id)
        let (export, root) = try Self.export(model)
        let size = model.canvasSize
        #expect(root["w"] as? Int == Int(size.width.rounded(.up)) && root["h"] as? Int == Int(size.height.rounded(.up)))
        #expect(root["ip"] as? Int == 0)
        let rate = try #require(root["fr"] as? Double)
        let op = try #require(root["op"] as? Double)
        #expect(abs(op - model.naturalLoop * rate) < 0.001)
        // rlottie reads a layer's transform as 3D unless `ddd` comes first (issue 51): every
        // layer's transform follows its ddd, type and name.
        let text = String(decoding: export.json, as: UTF8.self)
        #expect(!text.contains("unfilled"))
        let layerStarts = text.components(separatedBy: #"{"ddd":0,"ind":"#).count - 1
        let layerTransforms = text.components(separatedBy: #","sr":1,"ks":{"#).count - 1
        #expect(layerStarts > 0 && layerStarts == layerTransforms)
        // Throbber's own reader takes it, with nothing refused.
        let animation = try LottieReader.read(text, path: "\(id).json")
        #expect(animation.skipped.isEmpty)
        // Every colour parameter a paint is made of is a slot, with its parameter's value.
        for (slot, value) in export.slots where !slot.hasSuffix(ColorBinding.opacitySuffix) {
            // A colour the scene derives from another setting ('style') is checked by the themes.
            guard let colour = RGBA.parse(try #require(model.value(of: slot))) else { continue }
            #expect(value == .color([Double(Float(colour.r)), Double(Float(colour.g)), Double(Float(colour.b)), colour.a]) || {
                guard case .color(let c) = value else { return false }
                return zip(c, [colour.r, colour.g, colour.b, colour.a]).allSatisfy { abs($0 - $1) < 1e-6 }
            }(), "\(slot): \(value)")
        }
    }

    @Test func theWaveBallsColoursAreSlotsAndTheSpinnersLeavesSayWhyNot() throws {
        let (ball, _) = try Self.export(try SceneRegistry.model("wave-ball"))
        #expect(Set(ball.slots.map(\.id)).isSuperset(of: ["waterBackground", "frontWater", "backWater", "tickBackground", "tickLit"]))
        #expect(ball.unslotted == ["labelColor"])  // the label is off: nothing draws it
        let (spinner, _) = try Self.export(try SceneRegistry.model("activity"))
        // The leaves are brightness steps of leafColor: no paint is the colour itself.
        #expect(spinner.unslotted == ["leafColor"])
        #expect(spinner.slots.map(\.id).contains("hudColor"))
    }

    @Test func aRingOfBoxesIsOneBoxPlacedByDoublings() throws {
        let (export, root) = try Self.export(try SceneRegistry.model("wave-ball"))
        let assets = try #require(root["assets"] as? [[String: Any]])
        // 100 ticks: one box and 6 doublings (2 … 64); the lit ticks share one more box.
        #expect(assets.count <= 9, "\(assets.count) assets")
        #expect(export.json.count <= 30_000, "\(export.json.count) bytes")
    }

    @Test func aDotLottieArchiveOpensWithItsThemes() throws {
        let model = try SceneRegistry.model("ring")
        let dark = try LaidOutScene(Scene(try model.setting("style", to: "dark")))
        let (export, _) = try Self.export(model, themes: [LottieExportTheme(name: "dark", scene: dark)])
        let bytes = try DotLottieWriter.archive(id: "ring", json: export.json, themes: export.themes, generator: "test")
        let archive = try DotLottieArchive.read([UInt8](bytes), path: "ring.lottie")
        #expect(archive.version == 2)
        #expect(archive.animations.map(\.id) == ["ring"])
        #expect(archive.animations[0].json == [UInt8](export.json))
        #expect(archive.themes.map(\.id) == ["dark"])
        let rules = archive.themes[0].rules
        #expect(Set(rules.map(\.slot)) == Set(export.slots.map(\.id)))
        // The dark style's ring is white.
        guard case .color(let ring)? = export.themes[0].slots.first(where: { $0.id == "ringColor" })?.value else {
            Issue.record("no ringColor in the theme")
            return
        }
        #expect(ring.allSatisfy { abs($0 - 1) < 1e-6 }, "\(ring)")
    }

    @Test func aLayersMasksAreItsLottieLayersAndAMatteIsRefused() throws {
        let disc = DrawItem("inner", Disc(centerX: 5, centerY: 5, radius: 3, color: RGBA(1, 0, 0, 1), width: 10, height: 10))
        var square = PathGeometry()
        square.subpaths = [Subpath(start: PathPoint(0, 0), segments: [.line(to: PathPoint(5, 0)), .line(to: PathPoint(5, 5))], closed: true)]
        let mask = LayerMask(square, transform: .identity, mode: .subtract, inverted: true, opacity: 0.5)
        let masked = DrawItem("masked", Layer(content: [disc], masks: [mask], opacity: 0.75, width: 10, height: 10))
        let elements = try ExportLowering.elements(of: DrawList(width: 10, height: 10, background: PaintColor(.clear), items: [masked]),
                                                   tolerance: 0.01)
        #expect(elements.count == 1 && elements[0].layer == "masked" && elements[0].masks.count == 1)
        let text = elements[0].masks[0].text
        #expect(text.contains(#""inv":true,"mode":"s""#), "\(text)")
        #expect(elements[0].channels["layer-o"]?.value == [75])

        let matted = DrawItem("matted", Layer(content: [disc], matte: LayerMatte(.alpha, source: Layer(content: [disc], width: 10, height: 10)),
                                              width: 10, height: 10))
        #expect { try ExportLowering.elements(of: DrawList(width: 10, height: 10, background: PaintColor(.clear), items: [matted]),
                                              tolerance: 0.01) } throws: { error in
            "\(error)".contains("'matted' is a layer with a track matte") && "\(error)".contains("refuses")
        }
    }
}
