import Foundation
import Testing
import Throbber
import ThrobberText

/// Issue 30: the wave ball's label (SPEC §8) as a scene paints it, and its bad input.
struct WaveBallLabelTests {
    func ball(_ settings: [(String, String)]) throws -> LaidOutScene {
        var scene = Scene(WaveBall(), scale: 2)
        for (name, value) in settings { scene = try scene.setting(name, to: value) }
        return try scene.validated().layingOutText()
    }

    @Test func theLabelIsOffByDefaultAndPaintsNothing() throws {
        let scene = try ball([])
        #expect(scene.textRequest == nil)
        #expect(!scene.drawList(at: 1).items.contains { $0.primitive is Glyphs })
        #expect(scene.drawList(at: 1).resources.atlases.isEmpty)
    }

    @Test func theLabelIsPaintedAfterTheBackWaveAndBeforeTheTicks() throws {
        let list = try ball([("label", "on")]).drawList(at: 1)
        #expect(list.items.map(\.id.name).prefix(5) == ["disc", "front-wave", "back-wave", "label", "ticks"])
        let glyphs = try #require(list.items[3].primitive(as: Glyphs.self))
        // "45%" and six CJK characters, each with a bitmap.
        #expect(glyphs.quads.count == 9)
        #expect(glyphs.color == PaintColor(RGBA(1, 1, 1, 1)))
        let atlas = try #require(list.resources.atlases[LaidOutText.atlasID])
        #expect(atlas.revision == glyphs.atlasRevision)
        for quad in glyphs.quads {
            #expect(quad.atlasX + quad.width <= atlas.width && quad.atlasY + quad.rows <= atlas.height)
        }
    }

    @Test func theNumberIsTheTruncatedTargetPercent() throws {
        for (progress, number) in [(0.29, 28), (0.45, 45), (1.0, 100), (0.0, 0), (0.999, 99)] {
            var model = WaveBall()
            model.progress = progress
            #expect(model.labelNumber == number, "progress \(progress)")
            let request = try #require({ () -> TextRequest? in model.label = "on"; return model.textRequest(scale: 1) }())
            #expect(request.blocks[0].lines[0][0].text == String(number))
        }
    }

    @Test func differentCaptionsMakeDifferentAtlasRevisions() throws {
        let a = try ball([("label", "on"), ("caption", "Loading")]).drawList(at: 0)
        let b = try ball([("label", "on"), ("caption", "Lodaing")]).drawList(at: 0)
        #expect(a.resources != b.resources)
    }

    @Test func badTextIsOneClearLine() throws {
        func message(_ settings: [(String, String)]) -> String {
            do { _ = try ball(settings); return "no error" } catch let error as ThrobberError {
                // A font file that is not there is a missing input (issue 46); the rest are usage.
                #expect(error.kind == (settings.contains { $0.1.hasPrefix("/nonexistent/") } ? .missingInput : .usage))
                return error.message
            } catch { return "\(error)" }
        }
        #expect(message([("label", "on"), ("caption", "a\u{7}b")]).contains("U+0007"))
        #expect(message([("caption", "")]).contains("invalid caption"))
        #expect(message([("caption", String(repeating: "x", count: Limits.textCharacters + 1))]).contains("invalid caption"))
        let missing = message([("label", "on"), ("thinFont", "/nonexistent/font.ttf")])
        #expect(missing.contains("/nonexistent/font.ttf"), "\(missing)")
        let uncovered = message([("label", "on"), ("caption", "x\u{10FFFD}")])
        #expect(uncovered.contains("U+10FFFD") && uncovered.contains("caption"), "\(uncovered)")
        #expect(message([("label", "on"), ("numberSize", "0")]).contains("numberSize"))
        let tooLarge = message([("label", "on"), ("scale", "3"), ("numberSize", "1000")])
        #expect(tooLarge.contains("numberSize") && tooLarge.contains("px"), "\(tooLarge)")
        #expect(message([("cjkFont", "/x.ttc#two")]).contains("cjkFont"))
    }

    @Test func aFontFileOverridesItsRole() throws {
        let regular = FontRole.ui.defaultSource.path
        let thin = try ball([("label", "on")]).drawList(at: 0)
        let overridden = try ball([("label", "on"), ("thinFont", regular)])
        #expect(overridden.text?.fonts.contains(FontSource(path: regular)) == true)
        #expect(!(overridden.text?.fonts.contains(FontRole.thin.defaultSource) ?? true))
        #expect(overridden.drawList(at: 0).resources != thin.resources)
    }
}
