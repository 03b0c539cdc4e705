import Foundation
import Testing
import Throbber
import ThrobberSceneFile
@testable import ThrobberGL
import ThrobberTestSupport

/// GL gives a stack up between draws once `stopping` says so (a boxes draw cut into runs of
/// bounded work), and the frames it draws with a stop that never comes are the usual ones.
@Suite(.serialized, .enabled(if: GLAvailability.osmesa.available, Comment(rawValue: GLAvailability.osmesa.reason)))
struct GLRenderStopTests {

    @Test(arguments: [1, 50, 400])
    func aStackIsGivenUpAndTheNextIsWhole(count: Int) throws {
        let renderer = try GLRenderer(platform: .osmesa)
        let lists = try (0..<3).map { try TestScenes.overlappingBoxes(count, side: 64).checkedDrawList(at: Double($0) * 0.1) }
        let expected = try renderer.render(lists)
        var asked = 0
        #expect(try renderer.render(lists, stopping: { asked += 1; return true }).isEmpty)
        #expect(asked == 1, "asked before the first draw")
        #expect(try renderer.render(lists, stopping: { false }).map(\.pixels) == expected.map(\.pixels))
        // Stopped after the first draw: nothing of that stack is handed back.
        var draws = 0
        let partial = try renderer.render(lists, stopping: { draws += 1; return draws > 1 })
        #expect(partial.map(\.pixels) == Array(expected.prefix(partial.count)).map(\.pixels))
        #expect(try renderer.render(lists).map(\.pixels) == expected.map(\.pixels))
    }

    /// Issue 46: a tile reached by more layers than `LayersPass.maximumLayersPerTile` is refused
    /// before its program is compiled (1,000 waves took 39 s of compiling that no signal cut
    /// short); at the cap it draws.
    @Test(arguments: [LayersPass.maximumLayersPerTile, LayersPass.maximumLayersPerTile + 1, 1_000])
    func tooManyLayersOverATileAreRefusedBeforeCompiling(count: Int) throws {
        let text = """
            {"format": "throbber-scene/1", "id": "waves", "canvas": {"width": 120, "height": 90, "background": "none"},
             "content": [{"type": "replicator", "count": \(count), "content": [
               {"type": "wave", "function": "sin", "wavelength": "40 + i", "amplitude": 10, "baseline": 45,
                "color": [0.2, 0.4, 0.8, 0.02]}]}]}
            """
        let list = try LaidOutScene(Scene(try FileScene(text: text, path: "waves.scene.json"))).checkedDrawList(at: 0)
        let renderer = try GLRenderer(platform: .osmesa)
        guard count > LayersPass.maximumLayersPerTile else {
            #expect(try renderer.render([list]).count == 1)
            return
        }
        let started = Date()
        #expect {
            try renderer.render([list])
        } throws: { error in
            let error = error as? ThrobberError
            return error?.kind == .usage && error?.message.contains("\(count) discs, waves, arcs") == true
                && error?.message.contains("--backend cpu") == true
        }
        #expect(Date().timeIntervalSince(started) < 5, "refused before compiling")
    }

    @Test(arguments: [1, 10, 300, 2_000])
    func boxChunksCoverEveryInstanceOnceWithinTheirWork(count: Int) throws {
        let list = try TestScenes.overlappingBoxes(count, side: 300).checkedDrawList(at: 0.5)
        let frame = GLFrame(list)
        let plan = LayerPlan(frame)
        let stack = FrameStack([frame], boxItems: [plan.boxItems], width: list.width, height: list.height)
        let chunks = BoxesPass.chunks(stack)
        #expect(chunks.first?.lowerBound == (stack.instanceCount > 0 ? 0 : nil))
        #expect(chunks.reduce(0) { $0 + $1.count } == stack.instanceCount)
        for (a, b) in zip(chunks, chunks.dropFirst()) { #expect(a.upperBound == b.lowerBound) }
        if count >= 300 { #expect(chunks.count > 1, "\(count) overlapping boxes are more than one run of work") }
    }
}
