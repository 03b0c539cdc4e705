import Testing
import Throbber
@testable import ThrobberSceneFile

/// SVG path data as SVG 1.1 §8.3 reads it.
struct SVGPathDataTests {
    @Test func everyCommandAbsoluteAndRelative() throws {
        let path = try SVGPathData.read("M10 10 h5 v5 H10 V10 l1 1 L 2 2 c1 1 2 2 3 3 s1 1 2 2 q 1 1 2 2 t 2 2 a 5 5 0 0 1 4 4 Z m 1 1 z")
        #expect(path.subpaths.count == 2)
        let first = path.subpaths[0]
        #expect(first.closed && first.start == PathPoint(10, 10))
        #expect(first.segments[0] == .line(to: PathPoint(15, 10)))
        #expect(first.segments[1] == .line(to: PathPoint(15, 15)))
        #expect(first.segments[2] == .line(to: PathPoint(10, 15)))
        #expect(first.segments[3] == .line(to: PathPoint(10, 10)))
        #expect(first.segments[4] == .line(to: PathPoint(11, 11)))
        #expect(first.segments[5] == .line(to: PathPoint(2, 2)))
        #expect(first.segments[6] == .cubic(PathPoint(3, 3), PathPoint(4, 4), to: PathPoint(5, 5)))
        // S reflects the previous second control point (4, 4) about (5, 5).
        #expect(first.segments[7] == .cubic(PathPoint(6, 6), PathPoint(6, 6), to: PathPoint(7, 7)))
        // The second subpath starts at the first's start moved by (1, 1).
        #expect(path.subpaths[1].start == PathPoint(11, 11) && path.subpaths[1].closed)
    }

    @Test func implicitRepeatsAndCompactNumbers() throws {
        let path = try SVGPathData.read("M0,0 10,0 10-10.5.5-1e1")
        #expect(path.subpaths[0].segments == [.line(to: PathPoint(10, 0)), .line(to: PathPoint(10, -10.5)), .line(to: PathPoint(0.5, -10))])
        let arc = try SVGPathData.read("M0 0a10 10 0 0120 0")
        #expect(arc.subpaths[0].segments.last?.end == PathPoint(20, 0))
    }

    @Test(arguments: [("L 1 1", 0), ("M 1", 3), ("M 1 1 X 2", 6), ("M 1 1 L 2 e", 10), ("M 0 0 A 1 1 0 2 0 1 1", 14)])
    func badDataNamesTheCharacter(data: String, offset: Int) {
        #expect(throws: SVGPathData.Failure.self) { try SVGPathData.read(data) }
        do { _ = try SVGPathData.read(data) } catch let failure as SVGPathData.Failure {
            #expect(failure.offset == offset, "\(data): \(failure)")
        } catch {
            Issue.record("\(error)")
        }
    }

    /// Radii whose arc overflows double precision are refused at the arc's arguments, never
    /// drawn as something else; a huge rotation is taken in whole turns first.
    @Test func arcsBeyondDoublePrecisionAreRefused() throws {
        for data in ["M 10 10 A 1e-300 25 0 1 0 25 18", "M 10 10 A 1e308 1e-308 0 1 0 25 18"] {
            #expect(throws: SVGPathData.Failure.self, "\(data)") { try SVGPathData.read(data) }
        }
        let turned = try SVGPathData.read("M 0 0 A 10 5 1e308 0 1 20 0")
        #expect(turned.subpaths[0].segments.last?.end == PathPoint(20, 0))
        let failure = #expect(throws: SVGPathData.Failure.self) { try SVGPathData.read("M 0 0 \u{2028}") }
        #expect(failure?.message.contains("\u{2028}") == false)
    }
}
