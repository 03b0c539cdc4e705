import Testing
import Throbber
@testable import ThrobberLottie

/// The reader's refusals: one line naming the place, the value and what is allowed; bounds and
/// cycles refused before anything is evaluated; unsupported features named by layer, property
/// and feature, or skipped and named once.
struct LottieReaderTests {
    static func file(layers: String, assets: String = "[]", extra: String = "") -> String {
        """
        {"v":"5.7.0","fr":30,"ip":0,"op":30,"w":100,"h":100,"assets":\(assets),\(extra)"layers":[\(layers)]}
        """
    }

    static let shapeLayer = """
        {"ty":4,"ind":1,"nm":"dot","ip":0,"op":30,"st":0,"ks":{},"shapes":[{"ty":"el","p":{"a":0,"k":[50,50]},"s":{"a":0,"k":[20,20]}},
        {"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}]}
        """

    func refusal(_ text: String, skip: Bool = false) -> ThrobberError? {
        do {
            _ = try LottieReader.read(text, path: "t.json", skipUnsupported: skip)
            return nil
        } catch let error as ThrobberError {
            return error
        } catch {
            return nil
        }
    }

    @Test func readsAShapeLayer() throws {
        let a = try LottieReader.read(Self.file(layers: Self.shapeLayer), path: "t.json")
        #expect(a.layers.count == 1)
        guard case .shapes(let shapes) = a.layers[0].content else { Issue.record("not a shape layer"); return }
        #expect(shapes.count == 2)
    }

    @Test func recognisesLottieByContent() throws {
        let text = Self.file(layers: Self.shapeLayer)
        #expect(LottieReader.looksLikeLottie(text.utf8[...]))
        #expect(!LottieReader.looksLikeLottie(#"{"format":"throbber-scene/1","layers":[],"fr":1,"op":1}"#.utf8[...]))
        #expect(LottieReader.isLottie(try JSONNode.parse(text)))
    }

    @Test func precompositionCyclesAreRefused() {
        let assets = """
            [{"id":"a","layers":[{"ty":0,"refId":"b","ip":0,"op":30,"ks":{}}]},{"id":"b","layers":[{"ty":0,"refId":"a","ip":0,"op":30,"ks":{}}]}]
            """
        let error = refusal(Self.file(layers: #"{"ty":0,"refId":"a","ip":0,"op":30,"ks":{}}"#, assets: assets))
        #expect(error?.kind == .badData)
        #expect(error?.message.contains("contains itself") == true)
    }

    @Test func parentCyclesAreRefused() {
        let layers = #"{"ty":3,"ind":1,"parent":2,"ip":0,"op":30,"ks":{}},{"ty":3,"ind":2,"parent":1,"ip":0,"op":30,"ks":{}}"#
        let error = refusal(Self.file(layers: layers))
        #expect(error?.message.contains("cycle") == true)
    }

    @Test func unsupportedFeaturesAreNamedOrSkipped() throws {
        let text = Self.file(layers: #"{"ty":5,"ind":1,"nm":"Title","ip":0,"op":30,"ks":{}},"# + Self.shapeLayer)
        let error = refusal(text)
        #expect(error?.kind == .badData)
        #expect(error?.message.contains("layer 'Title' (1): ty: text layers are not supported") == true)
        let skipped = try LottieReader.read(text, path: "t.json", skipUnsupported: true)
        #expect(skipped.layers.count == 1)
        #expect(skipped.skipped == ["layer 'Title' (1): ty: text layers"])
    }

    @Test func expressionsAreUnsupported() {
        let layer = Self.shapeLayer.replacingOccurrences(of: #""s":{"a":0,"k":[20,20]}"#, with: #""s":{"a":0,"k":[20,20],"x":"wiggle(1,2)"}"#)
        #expect(refusal(Self.file(layers: layer))?.message.contains("expressions are not supported") == true)
    }

    @Test func numbersAreBounded() {
        let layer = Self.shapeLayer.replacingOccurrences(of: "[20,20]", with: "[1e300,20]")
        let error = refusal(Self.file(layers: layer))
        #expect(error?.message.contains("give a number within") == true)
        #expect(refusal(Self.file(layers: Self.shapeLayer).replacingOccurrences(of: #""fr":30"#, with: #""fr":0"#))?.message.contains("fr is 0") == true)
    }

    @Test func keyframesMustKeepTheirVertexCount() {
        let path = """
            {"ty":4,"ip":0,"op":30,"ks":{},"shapes":[{"ty":"sh","ks":{"a":1,"k":[
            {"t":0,"s":[{"c":true,"v":[[0,0],[1,0],[1,1]],"i":[[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0]]}]},
            {"t":10,"s":[{"c":true,"v":[[0,0],[1,0]],"i":[[0,0],[0,0]],"o":[[0,0],[0,0]]}]}]}}]}
            """
        #expect(refusal(Self.file(layers: path))?.message.contains("number of vertices") == true)
    }

    @Test func slotsBecomeParametersWithTheFilesValues() throws {
        let layer = Self.shapeLayer.replacingOccurrences(of: #""c":{"a":0,"k":[1,0,0,1]}"#, with: #""c":{"a":0,"k":[1,0,0,1],"sid":"tint"}"#)
        let text = Self.file(layers: layer, extra: #""slots":{"tint":{"p":{"a":0,"k":[0,0,1,1]}}},"#)
        var scene = try LottieScene(text: text, path: "t.json")
        #expect(scene.parameters.map(\.name) == ["tint"])
        #expect(scene.value(of: "tint") == "0,0,1,1")
        scene = try scene.setting("tint", to: "#00ff00") as! LottieScene
        let items = scene.drawItems(at: 0, scale: 1, width: 100, height: 100)
        let path = try #require(items.first?.primitive as? Path)
        #expect(path.paint == .solid(PaintColor(RGBA(0, 1, 0, 1))))
    }

    @Test func theClockIsTheFilesOwnAndLoops() throws {
        let scene = try LottieScene(text: Self.file(layers: Self.shapeLayer, extra: #""markers":[{"cm":"b","tm":10,"dr":5}],"#), path: "t.json")
        #expect(scene.loopDuration == 1)
        #expect(scene.frameState(at: 0.5) == 15)
        #expect(abs(scene.frameState(at: 1.25) - 7.5) < 1e-9)
        let marked = try scene.setting("marker", to: "b") as! LottieScene
        #expect(marked.frameState(at: 0) == 10)
        #expect(abs(marked.loopDuration! - 5.0 / 30) < 1e-12)
    }
}
