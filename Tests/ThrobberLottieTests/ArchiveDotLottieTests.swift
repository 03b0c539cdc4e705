import Testing
import Throbber
@testable import ThrobberLottie

/// The dotLottie layer: both layouts, the manifest's first animation, images by the name an
/// asset's `p` uses, and version 2 themes with their rules.
struct ArchiveDotLottieTests {
    static let lottie = Array(#"{"v":"5.7.0","fr":30,"ip":0,"op":60,"w":64,"h":64,"layers":[]}"#.utf8)
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]

    static func archive(_ entries: [(String, String)], extra: [TestZip.Entry] = []) -> [UInt8] {
        TestZip(entries: entries.map { TestZip.Entry($0.0, Array($0.1.utf8)) } + extra).bytes()
    }

    @Test func version1Layout() throws {
        let bytes = TestZip(entries: [
            .init("manifest.json", Array(#"{"version":"1.0","activeAnimationId":"b","animations":[{"id":"a"},{"id":"b","loop":true}]}"#.utf8)),
            .init("animations/", [], method: 0),
            .init("animations/a.json", Self.lottie),
            .init("animations/b.json", Self.lottie, method: 0),
            .init("images/img_0.png", Self.png),
            .init("a/ignored.json", [1]),
        ]).bytes()
        let archive = try DotLottieArchive.read(bytes, path: "v1.lottie")
        #expect(archive.version == 1)
        #expect(archive.animations.map(\.id) == ["a", "b"])
        #expect(archive.animations.allSatisfy { $0.json == Self.lottie })
        #expect(archive.initialAnimation == "b" && archive.firstAnimation.id == "b")
        #expect(archive.images == ["img_0.png": Self.png])
        #expect(archive.themes.isEmpty)
    }

    @Test func version2LayoutWithThemes() throws {
        let manifest = #"{"version":"2","generator":"test","initial":{"animation":"spin"},"#
            + #""animations":[{"id":"dots"},{"id":"spin","themes":["dark"]}],"themes":[{"id":"dark","name":"Dark"}]}"#
        let theme = """
        {"rules":[
          {"id":"bg","type":"Color","value":[0.1,0.2,0.3,1]},
          {"id":"size","type":"Scalar","value":12,"animations":["spin"]},
          {"id":"spot","type":"Position","keyframes":[
            {"frame":0,"value":[0,0],"valueOutTangent":[1,0]},
            {"frame":30,"value":[10,5],"hold":true,"inTangent":{"x":[0.4],"y":[0]}}]},
          {"id":"ramp","type":"Gradient","value":[{"offset":0,"color":[1,0,0]},{"offset":1,"color":[0,0,1,0.5]}]},
          {"id":"scale","type":"Vector","value":[100,100]},
          {"id":"logo","type":"Image","value":{"src":"logo.png","width":8,"height":8}},
          {"id":"label","type":"Text","value":{"text":"Loading"}}
        ]}
        """
        let bytes = Self.archive([("manifest.json", manifest), ("a/dots.json", String(decoding: Self.lottie, as: UTF8.self)),
                                  ("a/spin.json", String(decoding: Self.lottie, as: UTF8.self)), ("t/dark.json", theme)],
                                 extra: [.init("i/logo.png", Self.png), .init("s/machine.json", [0xFF, 0xFE])])
        let archive = try DotLottieArchive.read(bytes, path: "v2.lottie")
        #expect(archive.version == 2)
        #expect(archive.animations.map(\.id) == ["dots", "spin"])
        #expect(archive.initialAnimation == "spin")
        #expect(archive.images == ["logo.png": Self.png])
        let dark = try #require(archive.themes.first)
        #expect(archive.themes.map(\.id) == ["dark"])
        #expect(dark.rules.map(\.slot) == ["bg", "size", "spot", "ramp", "scale", "logo", "label"])
        #expect(dark.rules.map(\.kind) == [.color, .scalar, .position, .gradient, .vector, .image, .text])
        #expect(dark.rules[1].applies(to: "spin") && !dark.rules[1].applies(to: "dots") && dark.rules[0].applies(to: "dots"))
        let spot = dark.rules[2]
        #expect(spot.value == nil && spot.keyframes.map(\.frame) == [0, 30])
        #expect(spot.keyframes.map(\.hold) == [false, true])
        #expect(spot.keyframes[0].valueOutTangent == [1, 0] && spot.keyframes[1].inTangent != nil)
        guard case .array(let color)? = dark.rules[0].value?.value else {
            Issue.record("the colour rule has no array value")
            return
        }
        #expect(color.count == 4)
    }

    /// The entries read together may inflate to a bound (64 MiB in `read`; 100 bytes here).
    @Test func theEntriesReadShareOneInflationBudget() throws {
        let bytes = TestZip(entries: [
            .init("manifest.json", Array(#"{"animations":[{"id":"x"}]}"#.utf8)),
            .init("animations/x.json", Array(#"{"v":"5.7.0"}"#.utf8)),
            .init("images/a.png", [UInt8](repeating: 1, count: 40)),
            .init("images/b.png", [UInt8](repeating: 2, count: 40)),
        ]).bytes()
        #expect(try DotLottieArchive(bytes, inflatedBudget: 200).images.count == 2)
        do {
            _ = try DotLottieArchive(bytes, inflatedBudget: 100)
            Issue.record("read past its budget")
        } catch let failure as ArchiveFailure {
            #expect(failure.entry == "images/b.png" && failure.message == "would take the entries read past 100 bytes inflated")
        }
    }

    @Test func noInitialAnimationIsNil() throws {
        let bytes = Self.archive([("manifest.json", #"{"animations":[{"id":"x"}]}"#), ("animations/x.json", "{}")])
        let archive = try DotLottieArchive.read(bytes, path: "x.lottie")
        #expect(archive.initialAnimation == nil && archive.firstAnimation.id == "x")
    }

    static let manifestRefusals: [(manifest: String, expected: String)] = [
        ("[]", "'manifest.json': must hold an object, not an array"),
        (#"{"version":"3","animations":[{"id":"x"}]}"#, "'version' is '3'; versions 1 and 2 are read"),
        (#"{"animations":[]}"#, "'animations' lists no animation"),
        (#"{"animations":{}}"#, "'animations' must be an array"),
        (#"{"animations":[{"id":""}]}"#, "'animations[0].id' must be a non-empty string"),
        (#"{"animations":[{"id":"x"},{"id":"x"}]}"#, "lists 'x' twice"),
        (#"{"activeAnimationId":"y","animations":[{"id":"x"}]}"#, "the first animation 'y' is not one of 'animations'"),
        (#"{"version":"2","initial":{"animation":7},"animations":[{"id":"x"}]}"#, "'initial.animation' must be a string"),
        (#"{"animations":[{"id":"x"}],"#, "'manifest.json': line 1, column "),
        (#"{"animations":[{"id":"../x"}]}"#, "'animations/../x.json': is missing"),
        (#"{"version":"2","animations":[{"id":"x"}],"themes":[{"id":"gone"}]}"#, "'t/gone.json': is missing; the manifest lists theme 'gone'"),
    ]

    @Test(arguments: manifestRefusals)
    func manifestsAreChecked(manifest: String, expected: String) {
        let bytes = Self.archive([("manifest.json", manifest), ("animations/x.json", "{}"), ("a/x.json", "{}")])
        let message = ArchiveZipTests.refusal(bytes)
        #expect(message.contains(expected), "\(message)")
    }

    @Test func aMissingManifestOrAnimationIsRefused() {
        #expect(ArchiveZipTests.refusal(Self.archive([("a/x.json", "{}")]))
            .contains("in.lottie: dotLottie entry 'manifest.json': is missing"))
        #expect(ArchiveZipTests.refusal(Self.archive([("manifest.json", #"{"version":"2","animations":[{"id":"x"}]}"#),
                                                      ("animations/x.json", "{}")]))
            .contains("'a/x.json': is missing; the manifest lists animation 'x'"))
        #expect(ArchiveZipTests.refusal(TestZip(entries: [.init("manifest.json", [0x7B, 0xFF, 0x7D])]).bytes())
            .contains("'manifest.json': is not UTF-8 text"))
    }

    static let ruleRefusals: [(rule: String, expected: String)] = [
        (#"{"id":"c","type":"Colour","value":[1,0,0]}"#, "rules[0] (slot 'c'): 'type' must be one of Color, Scalar"),
        (#"{"type":"Color","value":[1,0,0]}"#, "rules[0]: 'id' must be the slot's id"),
        (#"{"id":"c","type":"Color","value":[1,0]}"#, "'value' must be [r, g, b] or [r, g, b, a]"),
        (#"{"id":"s","type":"Scalar","value":"12"}"#, "'value' must be a number"),
        (#"{"id":"p","type":"Position","value":[1]}"#, "'value' must be [x, y] or [x, y, z]"),
        (#"{"id":"g","type":"Gradient","value":[{"offset":0}]}"#, "'value' must be a non-empty array of {"),
        (#"{"id":"i","type":"Image","value":{"width":3}}"#, "'value' must be an object with 'src'"),
        (#"{"id":"t","type":"Text","value":{}}"#, "'value' must be an object with 'text'"),
        (#"{"id":"s","type":"Scalar"}"#, "has neither 'value' nor 'keyframes'"),
        (#"{"id":"s","type":"Scalar","value":1,"expression":"time"}"#, "uses an expression"),
        (#"{"id":"s","type":"Scalar","keyframes":[{"frame":0}]}"#, "keyframes[0]: has no 'value'"),
        (#"{"id":"s","type":"Scalar","keyframes":[{"frame":"0","value":1}]}"#, "keyframes[0]: 'frame' must be a number"),
        (#"{"id":"s","type":"Scalar","keyframes":[{"frame":0,"value":1,"hold":1}]}"#, "'hold' must be true or false"),
        (#"{"id":"s","type":"Scalar","keyframes":[]}"#, "'keyframes' must be a non-empty array"),
        (#"{"id":"s","type":"Scalar","value":1,"animations":"x"}"#, "'animations' must be an array of animation ids"),
    ]

    @Test(arguments: ruleRefusals)
    func themeRulesAreChecked(rule: String, expected: String) {
        let bytes = Self.archive([("manifest.json", #"{"version":"2","animations":[{"id":"x"}],"themes":[{"id":"t"}]}"#),
                                  ("a/x.json", "{}"), ("t/t.json", #"{"rules":["# + rule + "]}")])
        let message = ArchiveZipTests.refusal(bytes)
        #expect(message.contains("in.lottie: dotLottie entry 't/t.json': "), "\(message)")
        #expect(message.contains(expected), "\(message)")
    }

    @Test func aThemeWithoutRulesIsRefused() {
        let bytes = Self.archive([("manifest.json", #"{"version":"2","animations":[{"id":"x"}],"themes":[{"id":"t"}]}"#),
                                  ("a/x.json", "{}"), ("t/t.json", #"{"rule":[]}"#)])
        #expect(ArchiveZipTests.refusal(bytes).contains("'t/t.json': must hold an object with a 'rules' array"))
    }

    /// Version 1 themes (`themes/ID.lss`) are not read: the manifest's list is passed over.
    @Test func version1ThemesArePassedOver() throws {
        let bytes = Self.archive([("manifest.json", #"{"animations":[{"id":"x"}],"themes":[{"id":"t","animations":["x"]}]}"#),
                                  ("animations/x.json", "{}"), ("themes/t.lss", "FillShape { fillColor: red; }")])
        #expect(try DotLottieArchive.read(bytes, path: "x.lottie").themes.isEmpty)
    }
}
