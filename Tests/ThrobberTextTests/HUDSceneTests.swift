import Foundation
import Testing
import Throbber
import ThrobberText

/// The `hud` scene (SPEC §7) as every tool sees it: the canvas its status is measured into, the
/// screen placement, the show and dismiss timing, the status rasterised at each frame's HUD scale,
/// and the rules that tie its parameters together.
struct HUDSceneTests {
    /// A hud scene with `settings` (`NAME=VALUE`), validated and laid out as `render` makes it.
    static func scene(_ settings: [String], scale: Double = 1) throws -> LaidOutScene {
        var scene = Scene(HUD(), scale: scale)
        for setting in settings {
            let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
            scene = try scene.setting(parts[0], to: parts[1])
        }
        return try scene.validated().layingOutText()
    }

    static func hud(_ scene: LaidOutScene) throws -> HUD { try #require(scene.model as? HUD) }

    /// SPEC §7's check values: the HUD's size for each state, with and without a status, as the
    /// scene's canvas (margin 0) at @1x and @3x.
    @Test(arguments: [("ring", nil, 84.0, 84.0), ("ring", "Doing Stuff", 99, 98), ("progress", "Loading", 78, 98),
                      ("success", "Great Success!", 125, 78), ("success", nil, 52, 52), ("text", "Loading", 78, 42),
                      ("info", "Useful Information.", 153, 78), ("error", "Failed with Error", 132, 78)] as [(String, String?, Double, Double)])
    func canvasIsTheHUD(state: String, status: String?, width: Double, height: Double) throws {
        let settings = ["state=\(state)"] + (status.map { ["status=\($0)"] } ?? [])
        let one = try HUDSceneTests.scene(settings)
        #expect(one.model.canvasSize == (width, height), "\(state): \(one.model.canvasSize)")
        let three = try HUDSceneTests.scene(settings, scale: 3)
        #expect(three.pixelSize == (Int(width * 3), Int(height * 3)))
        // Margin grows the canvas on every side and leaves the HUD centred.
        let margined = try HUDSceneTests.hud(try HUDSceneTests.scene(settings + ["margin=10"]))
        #expect(margined.canvasSize == (width + 20, height + 20))
        #expect(margined.hudCenter(margined.layout) == (10 + width / 2, 10 + height / 2))
    }

    /// The status's lines are set where SPEC §7 puts them: "Doing Stuff" with its pen at 12.0073
    /// and its baseline at 82.3320, the first glyph's quad there at @1x and three times as far at @3x.
    @Test func statusPensAndBaselines() throws {
        for scale in [1.0, 3.0] {
            let scene = try HUDSceneTests.scene(["status=Doing Stuff"], scale: scale)
            let request = try #require(scene.textRequest)
            let pen = try #require(request.blocks.first?.pens?.first)
            #expect(abs(pen.x - 12.0073) < 1e-4 && abs(pen.baseline - 82.3320) < 1e-4, "\(pen)")
            let quads = try #require(scene.text?.quads[HUD.statusID])
            #expect(quads.count == "DoingStuff".count, "one quad per inked glyph")
            // The glyph's bitmap sits at its pen (a D has no left bearing to speak of).
            #expect(abs(Double(quads[0].x) - 12.0073 * scale) < 3 * scale, "\(quads[0].x)")
        }
    }

    @Test func screenPlacesTheHUDAtFortyFivePercent() throws {
        let hud = try HUDSceneTests.hud(try HUDSceneTests.scene(["screen=390x844", "status=Loading"]))
        #expect(hud.canvasSize == (390, 844))
        #expect(hud.hudCenter(hud.layout) == (195, 379))
        let moved = try HUDSceneTests.hud(try HUDSceneTests.scene(["screen=390x844", "offset=10,-40"]))
        #expect(moved.hudCenter(moved.layout) == (205, 339))
        // floor(0.45 · H + 1e-9): 0.45 × 100 is 45.00000000000001 in double, 0.45 × 20 is 9.
        let small = try HUDSceneTests.hud(try HUDSceneTests.scene(["screen=100x101"]))
        #expect(small.hudCenter(small.layout).y == 45)
    }

    /// Show at 60 fps, frames 0…9 (SPEC §7 check values), through the scene's own frame states;
    /// the dismissal mirrors it down to 1/1.3, and before the show and after the dismissal the
    /// frame is only the background.
    @Test func showAndDismissPerFrame() throws {
        let alpha = [0, 0.024455, 0.101415, 0.231775, 0.404963, 0.595037, 0.768225, 0.898585, 0.975545, 1]
        let scale = [1.3, 1.292664, 1.269575, 1.230468, 1.178511, 1.121489, 1.069532, 1.030425, 1.007336, 1]
        let scene = try HUDSceneTests.scene(["showAt=2", "dismissAt=4", "status=Loading"])
        let hud = try HUDSceneTests.hud(scene)
        for k in 0..<10 {
            let state = hud.frameState(at: 2 + Double(k) / 60)
            #expect(abs(state.alpha - alpha[k]) < 1e-6, "frame \(k): α \(state.alpha)")
            if k > 0 { #expect(abs(state.hudScale - scale[k]) < 1e-6, "frame \(k): scale \(state.hudScale)") }
            let out = hud.frameState(at: 4 + Double(k) / 60)
            #expect(abs(out.alpha - (1 - alpha[k])) < 1e-6, "dismiss frame \(k): α \(out.alpha)")
            if k < 9 { #expect(abs(out.hudScale - (1 - (1 - 1 / 1.3) * alpha[k])) < 1e-6) }
        }
        #expect(!hud.frameState(at: 1.999).visible && !hud.frameState(at: 4.15).visible && !hud.frameState(at: 9).visible)
        #expect(scene.drawList(at: 1).items.isEmpty && scene.drawList(at: 5).items.isEmpty)
        #expect(!scene.drawList(at: 3).items.isEmpty)
        // A fade of 0 is a step.
        let step = try HUDSceneTests.hud(try HUDSceneTests.scene(["showAt=1", "fadeIn=0", "dismissAt=2", "fadeOut=0"]))
        #expect(!step.frameState(at: 0.999).visible && step.frameState(at: 1).alpha == 1 && step.frameState(at: 1).hudScale == 1)
        #expect(step.frameState(at: 1.999).alpha == 1 && !step.frameState(at: 2).visible)
    }

    /// `auto`: t1 = t0 + fadeIn + max(0.06·n + 0.5, 5), n the status's UTF-16 length.
    @Test func autoDismissReadsTheStatus() throws {
        let short = try HUDSceneTests.hud(try HUDSceneTests.scene(["showAt=1", "dismissAt=auto", "status=Done"]))
        let shortTime: Double = 1 + 0.15 + 5
        #expect(short.dismissTime == shortTime)
        let long = String(repeating: "Syncing photos ", count: 10)
        let longer = try HUDSceneTests.hud(try HUDSceneTests.scene(["showAt=1", "dismissAt=auto", "status=\(long)"]))
        let longTime: Double = 1 + 0.15 + 0.06 * 150 + 0.5
        #expect(abs(try #require(longer.dismissTime) - longTime) < 1e-12)
        // UTF-16 units: each of these CJK characters is one.
        let cjk = try HUDSceneTests.hud(try HUDSceneTests.scene(["showAt=0", "dismissAt=auto", "status=" + String(repeating: "成", count: 80)]))
        let cjkTime: Double = 0.15 + 0.06 * 80 + 0.5
        #expect(abs(try #require(cjk.dismissTime) - cjkTime) < 1e-12)
    }

    /// While the HUD scales, the status is rasterised at fontSize · scale · HUD scale px and
    /// its pens scale about the HUD's centre; at rest the scene's own layout is used.
    @Test func statusIsRasterisedAtEachFramesScale() throws {
        let scene = try HUDSceneTests.scene(["showAt=0", "status=Loading"], scale: 2)
        let hud = try HUDSceneTests.hud(scene)
        let first = try #require(scene.scene.frameTextRequest(at: 1.0 / 60))
        let k = hud.frameState(at: 1.0 / 60).hudScale
        #expect(abs(try #require(first.blocks[0].lines[0].first).size - 15 * k) < 1e-12)
        let rest = try #require(scene.textRequest)
        let centre = hud.hudCenter(hud.layout)
        let pen = try #require(first.blocks[0].pens?.first), restPen = try #require(rest.blocks[0].pens?.first)
        #expect(abs(pen.x - (centre.x + k * (restPen.x - centre.x))) < 1e-9)
        #expect(abs(pen.baseline - (centre.y + k * (restPen.baseline - centre.y))) < 1e-9)
        #expect(scene.scene.frameTextRequest(at: 1) == nil, "at rest the scene's own text")
        // The frame's own atlas comes with its draw list, a different one from the rest frame's.
        let moving = scene.drawList(at: 1.0 / 60), still = scene.drawList(at: 1)
        #expect(moving.resources != still.resources)
        #expect(scene.drawList(at: 1.0 / 60) == moving, "laid out once, the same again")
    }

    /// SPEC §7's bad input: one line naming the field, the value and what is allowed.
    @Test(arguments: [
        (["state=spinner"], "state", "one of ring, progress"),
        (["status=" + String(repeating: "line\n", count: 16) + "line"], "status", "at most 16 lines"),
        (["showAt=1", "dismissAt=1.1"], "dismissAt", "at least showAt + fadeIn = 1.15"),
        (["dismissAt=3"], "dismissAt", "only with showAt"),
        (["fadeIn=-0.1"], "fadeIn", "≥ 0"),
        (["fadeOut=-1"], "fadeOut", "≥ 0"),
        (["screen=60x60"], "screen", "at least the HUD's 84x84 pt"),
        (["screen=120x80", "status=Great Success!", "state=success"], "screen", "at least the HUD's 125x78 pt"),
        (["maskColor=1,0,0,0.5"], "maskColor", "only with mask=custom"),
        (["mask=black", "maskColor=1,0,0,0.5"], "maskColor", "only with mask=custom"),
        (["offset=0,10"], "offset", "without screen"),
        (["screen=390x844", "margin=4"], "margin", "0 with screen"),
        (["screen=390"], "screen", "W×H"),
        (["minimumSize=-1x4"], "minimumSize", "W×H"),
        (["dismissAt=soon", "showAt=0"], "dismissAt", "or auto"),
    ] as [([String], String, String)])
    func badInputNamesTheField(settings: [String], field: String, allowed: String) throws {
        do {
            _ = try HUDSceneTests.scene(settings)
            Issue.record("\(settings) was accepted")
        } catch let error as ThrobberError {
            #expect(error.kind == .usage, "\(error.message)")
            #expect(error.message.contains(field) && error.message.contains(allowed), "\(error.message)")
            #expect(!error.message.contains("\n"), "one line: \(error.message)")
        }
    }

    /// A status of exactly 16 lines is allowed, and wraps count: a long line becomes several.
    @Test func sixteenLinesAreAllowed() throws {
        let scene = try HUDSceneTests.scene(["status=" + Array(repeating: "line", count: 16).joined(separator: "\n")])
        #expect(try HUDSceneTests.hud(scene).layout.lines.count == 16)
        let wrapped = try HUDSceneTests.scene(["status=" + String(repeating: "word ", count: 60)])
        #expect(try HUDSceneTests.hud(wrapped).layout.lines.count > 1)
    }

    /// Settings round-trip through their text (what provenance records and `reproduce` reads).
    @Test func pairsAndKeywordsRoundTrip() throws {
        let scene = try HUDSceneTests.scene(["screen=390×844", "offset=0, -40.5", "minimumSize=100X120", "showAt=0", "dismissAt=auto"])
        let hud = try HUDSceneTests.hud(scene)
        #expect(hud.value(of: "screen") == "390x844" && hud.value(of: "offset") == "0,-40.5")
        #expect(hud.value(of: "minimumSize") == "100x120" && hud.value(of: "dismissAt") == "auto")
        var rebuilt = Scene(HUD())
        for (name, value) in hud.assignments { rebuilt = try rebuilt.setting(name, to: value) }
        #expect(try HUDSceneTests.hud(rebuilt.validated().layingOutText()).layout == hud.layout)
        #expect(try rebuilt.layingOutText().drawList(at: 0.1) == scene.drawList(at: 0.1))
        let unset = try HUDSceneTests.hud(try HUDSceneTests.scene(["screen=390x844", "screen=none"]))
        #expect(unset.screen == nil)
    }
}
