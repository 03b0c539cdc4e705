import Foundation
import Synchronization
import Testing
import Throbber
import ThrobberCPU
import ThrobberRender
import ThrobberTestSupport

/// The CPU renderer gives a frame up between bands (and every `itemsBetweenStopChecks` items)
/// once `stopping` says so, and a frame given up leaves nothing behind: the next frames are the
/// bytes a fresh renderer draws.
struct RenderStopTests {

    /// A `stopping` that says "stop" from its `after`-th question on, counting the questions.
    final class Countdown: @unchecked Sendable {
        let asked = Atomic<Int>(0)
        let after: Int
        init(after: Int) { self.after = after }
        func ask() -> Bool { asked.add(1, ordering: .relaxed).newValue > after }
    }

    // Replicated boxes are one quad batch, one item: the frame (8 bands of 15 rows) is asked once a band.
    @Test(arguments: [1, 2, 4], [0, 1, 5])
    func aFrameIsGivenUpAndTheNextAreWhole(threads: Int, after: Int) throws {
        let scene = try TestScenes.overlappingBoxes(300)
        let lists = try (0..<4).map { try scene.checkedDrawList(at: Double($0) * 0.1) }
        let fresh = CPURenderer(threadCount: threads)
        let expected = lists.map { fresh.render($0) }
        let renderer = CPURenderer(threadCount: threads)
        #expect(renderer.render(lists[0], threads: threads, stopping: { false })?.pixels == expected[0].pixels)
        let countdown = Countdown(after: after)
        let givenUp = renderer.render(lists[1], threads: threads, stopping: { countdown.ask() }) == nil
        #expect(givenUp, "given up after \(after) questions")
        // Asked once per band, then every few items: the renderer stopped soon after "stop".
        #expect(countdown.asked.load(ordering: .relaxed) <= after + 1 + 2 * threads)
        // The frame given up is not remembered: the next are drawn whole, the same bytes.
        for k in 1..<4 {
            #expect(renderer.render(lists[k], threads: threads, stopping: { false })?.pixels == expected[k].pixels, "frame \(k)")
        }
        #expect(renderer.render(lists[3]).pixels == expected[3].pixels)
    }

    @Test(arguments: [1, 20, 2_000])
    func aStopNeverAskedIsTheUsualFrame(count: Int) throws {
        let scene = try TestScenes.overlappingBoxes(count, side: 64)
        let list = try scene.checkedDrawList(at: 0.3)
        let renderer = CPURenderer(threadCount: 2)
        #expect(renderer.render(list, threads: 2, stopping: { false })?.pixels == CPURenderer(threadCount: 1).render(list).pixels)
    }

    @Test func aHeavyFrameStopsWithinItsItems() throws {
        // 3,000 boxes over 200 px in one band: the stop is seen within `itemsBetweenStopChecks` items.
        let list = try TestScenes.overlappingBoxes(3_000, side: 200).checkedDrawList(at: 0.2)
        let renderer = CPURenderer(threadCount: 1)
        let full = ContinuousClock().measure { _ = renderer.render(list, threads: 1) }
        let countdown = Countdown(after: 1)
        var result: Image?
        let stopped = ContinuousClock().measure { result = renderer.render(list, threads: 1, stopping: { countdown.ask() }) }
        #expect(result == nil)
        #expect(stopped < full / 4, "gave up after \(stopped) of a \(full) frame")
    }
}
