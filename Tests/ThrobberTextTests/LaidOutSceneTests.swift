import Testing
import Throbber
import ThrobberText

/// Only a `LaidOutScene` draws: a scene that paints text is refused until its text is laid out,
/// and the text laid out must be the scene's.
struct LaidOutSceneTests {
    /// A scene without text draws as it is; one whose text is not laid out (the wave ball's
    /// label, the HUD's status not yet measured) is refused, naming the way to lay it out.
    @Test func aSceneThatPaintsTextIsRefusedUntilItIsLaidOut() throws {
        #expect(try LaidOutScene(Scene(WaveBall())).text == nil)
        let labelled = try Scene(WaveBall()).setting("label", to: "on")
        let status = try Scene(HUD()).setting("status", to: "Loading")
        for scene in [labelled, status] {
            #expect {
                _ = try LaidOutScene(scene)
            } throws: { error in
                (error as? ThrobberError)?.kind == .usage && (error as? ThrobberError)?.message.contains("layingOutText()") == true
            }
            let laidOut = try scene.layingOutText()
            #expect(laidOut.text != nil && laidOut.text?.request == laidOut.textRequest)
            #expect(laidOut.drawList(at: 1).items.contains { $0.primitive is Glyphs })
        }
    }

    /// Text laid out for another request (another caption) is not the scene's: refused.
    @Test func anotherScenesTextIsRefused() throws {
        let loading = try Scene(WaveBall()).setting("label", to: "on").setting("caption", to: "Loading").layingOutText()
        let done = try Scene(WaveBall()).setting("label", to: "on").setting("caption", to: "Done")
        #expect(throws: ThrobberError.self) { try LaidOutScene(done, text: loading.text, engine: nil) }
        #expect(throws: ThrobberError.self) { try LaidOutScene(Scene(Ring()), text: loading.text, engine: nil) }
    }

    /// A scene is validated on its way to being drawn.
    @Test func anInvalidSceneIsRefused() throws {
        var scene = Scene(WaveBall())
        scene.scale = 0
        #expect(throws: ThrobberError.self) { try LaidOutScene(scene) }
        #expect(throws: ThrobberError.self) { try scene.layingOutText() }
    }
}
