import Foundation
import Testing
@testable import Throbber
@testable import ThrobberSceneFile
import ThrobberText

/// Issue 46.2 for scene files: a file's frames are measured as they are drawn, its nested
/// copies and computed counts are bounded before they are made, and its reproducers (frames of
/// thousands of full-canvas shapes) are refused as data naming the file.
struct FileSceneWorkTests {
    static let path = "/tmp/budget-tests.scene.json"

    static func file(_ content: String, canvas: Int = 1000, clocks: String = "") throws -> FileScene {
        try FileScene(text: """
            {"format": "throbber-scene/1", "id": "cost", "canvas": {"width": \(canvas), "height": \(canvas)},
             \(clocks.isEmpty ? "" : "\"clocks\": [\(clocks)],")
             "content": [\(content)]}
            """, path: path)
    }

    /// The reproducers: 10,000 full-canvas arcs (277 s a frame) and 10,000 rotating translucent
    /// 300 px boxes (2 s a frame) are refused as the scene is validated, as data (exit 65),
    /// naming the file, the shapes and their pixels; a tenth of them is drawn.
    @Test(arguments: [
        (#"{"type": "arc", "center": [500, 500], "radius": 490, "width": 4, "sweep": 360, "color": [0, 0, 0, 0.01]}"#, "arcs"),
        (#"{"type": "box", "center": [500, 500], "size": [300, 300], "rotation": "360 * spin.u + i", "color": [0.2, 0.3, 0.9, 0.05]}"#, "boxes"),
        (#"{"type": "disc", "center": [500, 500], "radius": 500, "color": [0, 0, 0, 0.01]}"#, "boxes"), // replicated discs are boxes
        (#"{"type": "polyline", "points": [[0, 0], [1000, 1000]], "width": 300, "color": [0, 0, 0, 0.01]}"#, "strokes"),
    ])
    func heavyFileFramesAreRefusedBeforeDrawing(primitive: String, noun: String) throws {
        let spin = #"{"name": "spin", "duration": 1, "repeat": "forever"}"#
        let heavy = try Self.file(#"{"type": "replicator", "count": 10000, "content": [\#(primitive)]}"#, clocks: spin)
        #expect {
            try Scene(heavy).validate()
        } throws: { error in
            let error = error as! ThrobberError
            return error.kind == .badData && error.message.hasPrefix(Self.path + ": the 10000 \(noun) of a frame cover ")
                && error.message.contains("at t = 0 s and scale 1") && !error.message.contains("invalid  ")
        }
        let light = try Self.file(#"{"type": "replicator", "count": 1000, "content": [\#(primitive)]}"#, clocks: spin)
        try Scene(light).validate()
        // At a scale that makes the light one heavy, the file and the scale are named.
        #expect(throws: ThrobberError.self) { try Scene(light, scale: 4).validate() }
    }

    /// A frame the preflight does not reach is measured as it is drawn: a count that grows with
    /// time passes at t = 0 and is refused at t = 9 s, before drawing.
    @Test func aFileFrameIsMeasuredAsItIsDrawn() throws {
        let grow = #"{"name": "grow", "duration": 10}"#
        let file = try Self.file(#"{"type": "replicator", "count": "floor(10000 * grow.u)", "content": [{"type": "arc", "center": [500, 500], "radius": 490, "width": 4, "sweep": 360, "color": [0, 0, 0, 0.01]}]}"#, clocks: grow)
        let scene = try LaidOutScene(Scene(file))
        _ = try scene.checkedDrawList(at: 0.5)
        #expect {
            _ = try scene.checkedDrawList(at: 9)
        } throws: { error in
            (error as! ThrobberError).kind == .badData && (error as! ThrobberError).message.contains("arcs of a frame cover")
        }
        #expect { _ = try scene.preflightFrame(at: 9) } throws: { ($0 as! ThrobberError).message.contains("at t = 9 s") }
    }

    /// Nested replicators whose counts are constants are refused as the file is read, at the
    /// count (FILE:LINE:COLUMN), before one copy is made: from their node evaluations (arcs,
    /// which may draw nothing) and from their shapes (discs, each a shape to set up); the same
    /// nesting under the budgets reads.
    @Test(arguments: [("arc", 10_000, 10_000, "10001 nodes"), ("arc", 10_000, 1001, "1002 nodes"), ("arc", 10_000, 998, nil),
                      ("arc", 4000, 3000, "3001 nodes"), ("arc", 3000, 3000, nil), ("disc", 10_000, 10_000, "10000 shapes"),
                      ("disc", 1000, 600, "600 shapes"), ("disc", 1000, 66, "66 shapes"), ("disc", 1000, 65, nil), ("disc", 3000, 3, nil)])
    func nestedCopiesAreRefusedFromTheirCounts(kind: String, outer: Int, inner: Int, refused: String?) throws {
        let primitive = kind == "arc" ? #"{"type": "arc", "center": [50, 50], "radius": 1, "width": 1, "sweep": 90, "color": [0, 0, 0, 1]}"#
            : #"{"type": "disc", "center": [50, 50], "radius": 1, "color": [0, 0, 0, 1]}"#
        let text = """
            {"format": "throbber-scene/1", "id": "nested", "canvas": {"width": 100, "height": 100},
             "content": [{"type": "replicator", "count": \(outer), "content": [
               {"type": "replicator", "count": \(inner), "content": [\(primitive)]}]}]}
            """
        if let refused {
            #expect {
                _ = try SceneFileReader.read(text, path: "n.scene.json")
            } throws: { error in
                let error = error as! ThrobberError
                let limit = kind == "arc" ? FileScene.budget : Limits.shapesPerFrame
                return error.kind == .badData && error.message.hasPrefix("n.scene.json:2:46: content[0].count \(outer): \(outer) copies of \(refused)")
                    && error.message.contains("at most \(limit)")
            }
        } else {
            _ = try SceneFileReader.read(text, path: "n.scene.json")
        }
    }

    /// Shapes placed by computed counts are counted as they are placed: the frame is refused at
    /// the shape over `Limits.shapesPerFrame`, before the rest are placed or any is drawn.
    @Test func shapesOfComputedCountsAreCountedAsTheyArePlaced() throws {
        let clock = #"{"name": "c", "duration": 1}"#
        // Half the outer copies at t = 0.05 s place at most the cap; all of them at 0.5 s twice it.
        let outer = 2 * (Limits.shapesPerFrame / 600)
        let file = try Self.file("""
            {"type": "replicator", "count": "\(outer) * min(1, c.t * 10)", "content": [
              {"type": "replicator", "count": 600, "content": [
                {"type": "disc", "center": ["i", 50], "radius": 1, "color": [0, 0, 0, 1]}]}]}
            """, canvas: 100, clocks: clock)
        _ = try file.evaluate(at: 0.05)
        #expect {
            _ = try file.evaluate(at: 0.5)
        } throws: { error in
            (error as! ThrobberError).message.contains("the frame places more than \(Limits.shapesPerFrame) shapes")
        }
    }

    /// A count that is an expression is checked as the frame is evaluated, before its copies are
    /// made: 10,000 computed copies of a 10,000-copy replicator are refused naming the count at
    /// once, without evaluating 10⁸ copies.
    @Test func nestedCopiesOfAComputedCountAreRefusedBeforeTheyAreMade() throws {
        let clock = #"{"name": "c", "duration": 1}"#
        let file = try Self.file("""
            {"type": "replicator", "count": "10000 * min(1, c.t * 10)", "content": [
              {"type": "replicator", "count": 10000, "content": [
                {"type": "disc", "center": ["i", 50], "radius": 1, "color": [0, 0, 0, 1]}]}]}
            """, canvas: 100, clocks: clock)
        // 1,000 × 10,001 at t = 0.01 s is within the budget: only the count that exceeds it is refused.
        _ = try Scene(file).validated()
        let start = ContinuousClock.now
        #expect {
            _ = try file.evaluate(at: 0.5)
        } throws: { error in
            let message = (error as! ThrobberError).message
            return message.hasPrefix(Self.path + ":") && message.contains(": count = 10000: 10000 copies of 10001 nodes need more node evaluations") && message.contains("at t = 0.5 s")
        }
        #expect(ContinuousClock.now - start < .seconds(5))
    }
}
