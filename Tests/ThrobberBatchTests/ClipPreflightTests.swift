import Foundation
import Testing
@testable import Throbber
@testable import ThrobberSceneFile
@testable import ThrobberBatch

/// Issue 46.2 in the batch library: a clip's preflight visits its frames spread from the ends,
/// within a work budget, and stops when the run is asked to.
struct ClipPreflightTests {
    /// A scene file of `content` on a `canvas` px square with `clocks`.
    static func file(_ content: String, canvas: Int, clocks: String) throws -> FileScene {
        let head = #"{"format": "throbber-scene/1", "id": "cost", "canvas": {"width": \#(canvas), "height": \#(canvas)}, "#
        return try FileScene(text: head + #""clocks": [\#(clocks)], "content": [\#(content)]}"#, path: "/tmp/preflight-tests.scene.json")
    }

    /// The preflight's order spreads every prefix over the clip and visits each frame once.
    @Test(arguments: [0, 1, 2, 3, 9, 100, 1000, 99_999])
    func spreadOrderIsAPermutationSpreadFromTheEnds(count: Int) {
        let order = Clip.spreadOrder(count)
        #expect(order.sorted() == Array(0..<count))
        guard count >= 3 else { return }
        #expect(Array(order.prefix(3)) == [0, count - 1, (count - 1) / 2])
        // After the first 2^k + 1 frames, no gap is wider than about count / 2^k.
        for k in 1...min(10, Int(log2(Double(count)))) {
            let prefix = order.prefix((1 << k) + 1).sorted()
            let widest = zip(prefix, prefix.dropFirst()).map { $1 - $0 }.max() ?? 0
            #expect(Double(widest) <= Double(count) / Double(1 << k) + 1, "k = \(k)")
        }
    }

    /// A heavy file's preflight stops at its work budget instead of evaluating every frame, and
    /// a cancellation set before it stops it between frames.
    @Test func preflightIsBoundedAndCancellable() throws {
        let discs = (0..<40).map { #"{"type": "disc", "center": ["i", \#($0)], "radius": 1, "color": [0, 0, 0, 1]}"# }.joined(separator: ",")
        let clock = #"{"name": "c", "duration": 1, "repeat": "forever"}"#
        let heavy = try Self.file(#"{"type": "replicator", "count": 300, "content": [\#(discs)]}"#, canvas: 100, clocks: clock)
        let (_, evaluation) = try heavy.evaluate(at: 0, work: ())
        #expect(evaluation > 12_000 && evaluation <= FileScene.budget)
        // What a preflight counts: the evaluation and the primitives placed.
        let work = try Scene(heavy).validated().preflightFrame(at: 0)
        #expect(work > evaluation)
        let clip = try Clip(scene: Scene(heavy), frames: 3000, fps: 60, outputs: [try Output.pngSequence("/out/f_%05d.png")])
        // A limit of ten frames' work (the default, `Limits.preflightWork`, is a few seconds in a release build).
        let limit = 10 * work
        let checked = try clip.preflight(observer: PreflightObserver(), workLimit: limit)
        #expect(checked >= 10 && checked <= 11)
        #expect(try clip.preflight(observer: PreflightObserver(), workLimit: 0) == 2)
        // A light clip has every frame checked.
        let light = try Clip(scene: Scene(Self.file(#"{"type": "disc", "center": [1, 1], "radius": "c.t", "color": [0, 0, 0, 1]}"#, canvas: 10, clocks: clock)),
                             frames: 500, fps: 60, outputs: [try Output.pngSequence("/out/f_%05d.png")])
        #expect(try light.preflight(observer: PreflightObserver()) == 500)

        let flag = CancellationFlag()
        flag.cancel("SIGINT")
        let observer = PreflightObserver()
        observer.observe(report: nil, cancellation: flag)
        #expect {
            _ = try clip.preflight(observer: observer)
        } throws: { error in
            (error as! ThrobberError).kind == .interrupted && (error as! ThrobberError).message.contains("interrupted by SIGINT")
        }
    }
}
