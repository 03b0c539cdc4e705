import Testing
import Throbber
@testable import ThrobberLottie

/// Shapes where the format says they start and which way they run, modifiers on the paths above
/// them, gradient stops merged, transforms composed as the players compose them.
struct LottieShapeTests {
    @Test func rectanglesStartTopRightAndRunClockwise() {
        let r = LottieGeometry.rectangle(center: PathPoint(0, 0), size: PathPoint(20, 10), roundness: 0, reversed: false)
        #expect(r.vertices == [PathPoint(10, -5), PathPoint(10, 5), PathPoint(-10, 5), PathPoint(-10, -5)])
        let back = LottieGeometry.rectangle(center: PathPoint(0, 0), size: PathPoint(20, 10), roundness: 0, reversed: true)
        #expect(back.vertices == [PathPoint(10, -5), PathPoint(-10, -5), PathPoint(-10, 5), PathPoint(10, 5)])
        // Roundness is held to half the shorter side.
        let round = LottieGeometry.rectangle(center: PathPoint(0, 0), size: PathPoint(20, 10), roundness: 50, reversed: false)
        #expect(round.vertices.first == PathPoint(10, 0))
    }

    @Test func ellipsesStartAtTheTop() {
        let e = LottieGeometry.ellipse(center: PathPoint(5, 5), size: PathPoint(10, 20), reversed: false)
        #expect(e.vertices == [PathPoint(5, -5), PathPoint(10, 5), PathPoint(5, 15), PathPoint(0, 5)])
    }

    @Test func polystarsStartStraightUpTurnedByTheirRotation() throws {
        let star = try #require(LottieGeometry.polystar(true, center: PathPoint(0, 0), points: 5, rotation: 90, outer: 10, inner: 4,
                                                        outerRoundness: 0, innerRoundness: 0, reversed: false))
        #expect(star.vertices.count == 10)
        #expect(abs(star.vertices[0].x - 10) < 1e-12 && abs(star.vertices[0].y) < 1e-12)
        #expect(abs(star.vertices[1].length - 4) < 1e-12)
    }

    @Test func roundedCornersCutSharpCornersOnly() {
        let square = LottieGeometry.rectangle(center: PathPoint(0, 0), size: PathPoint(20, 20), roundness: 0, reversed: false)
        let rounded = LottieGeometry.roundedCorners(square, radius: 4)
        #expect(rounded.vertices.count == 8)
        // The top right corner becomes a point 4 back along the top side, then one 4 down the right side.
        #expect(rounded.vertices[0] == PathPoint(6, -10) && rounded.vertices[1] == PathPoint(10, -6))
        // A radius beyond half a side stops at the middle.
        #expect(LottieGeometry.roundedCorners(square, radius: 100).vertices[0] == PathPoint(0, -10))
        let circle = LottieGeometry.ellipse(center: PathPoint(0, 0), size: PathPoint(10, 10), reversed: false)
        #expect(LottieGeometry.roundedCorners(circle, radius: 3) == circle)
    }

    func lengths(_ entries: [LottieShapeEvaluator.Entry]) -> [Double] {
        entries.map { e in e.geometry.subpaths.reduce(0) { $0 + PathMeasure.length(PathMeasure.curves($1)) } }
    }

    @Test func trimsCutEachPathOrThePathsInTurn() {
        func line(_ length: Double) -> LottieShapeEvaluator.Entry {
            .init(geometry: PathGeometry(subpaths: [Subpath(start: PathPoint(0, 0), segments: [.line(to: PathPoint(length, 0))])]), transform: .identity)
        }
        // m = 1: each of the lines 10 and 30 long keeps its first half.
        var each = [line(10), line(30)]
        LottieTrim.apply(to: &each, start: 0, end: 0.5, offset: 0, sequentially: false)
        #expect(lengths(each).map { ($0 * 1e6).rounded() / 1e6 } == [5, 15])
        // m = 2: the first half of 40 in all: all of the first, 10 of the second.
        var turn = [line(10), line(30)]
        LottieTrim.apply(to: &turn, start: 0, end: 0.5, offset: 0, sequentially: true)
        #expect(lengths(turn).map { ($0 * 1e6).rounded() / 1e6 } == [10, 10])
        // An offset of 0.3 turns keeps 30 % … 80 % of the 40: 12 … 32, all on the second line.
        var wrapped = [line(10), line(30)]
        LottieTrim.apply(to: &wrapped, start: 0, end: 0.5, offset: 0.3, sequentially: true)
        #expect(lengths(wrapped).map { ($0 * 1e6).rounded() / 1e6 } == [0, 20])
        // A start after the end is swapped.
        var swapped = [line(10)]
        LottieTrim.apply(to: &swapped, start: 0.8, end: 0.2, offset: 0, sequentially: false)
        #expect(abs(lengths(swapped)[0] - 6) < 1e-9)
    }

    @Test func gradientColourAndOpacityStopsAreMergedAtEveryOffset() {
        // Colours black → white at 0 and 1; opacity 1 → 0 at 0 and 0.5.
        let stops = LottieGradientStops.stops(LottieVector([0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 0.5, 0]), count: 2)
        #expect(stops.map(\.offset) == [0, 0.5, 1])
        #expect(stops[1].color == PaintColor(RGBA(0.5, 0.5, 0.5, 0)))
        // Without opacity stops the colour stops stay as given, two at one offset included.
        let hard = LottieGradientStops.stops(LottieVector([0, 1, 0, 0, 0.5, 1, 0, 0, 0.5, 0, 0, 1, 1, 0, 0, 1]), count: 4)
        #expect(hard.count == 4)
    }

    @Test func transformsComposeAnchorScaleSkewRotationPosition() {
        var t = LottieTransform()
        t.anchor = .fixed(LottieVector([10, 0]))
        t.position = .fixed(LottieVector([100, 50]))
        t.scale = .fixed(LottieVector([200, 100]))
        t.rotation = .fixed(90)
        let m = LottieTransformValue(t, at: 0).matrix
        // (20, 0): 10 right of the anchor, scaled to 20, turned clockwise to straight down.
        let p = m.apply(PathPoint(20, 0))
        #expect(abs(p.x - 100) < 1e-9 && abs(p.y - 70) < 1e-9)
        // Skew 45° along x: a point 10 below moves 10 left (K shears by −tan).
        var s = LottieTransform()
        s.skew = .fixed(45)
        let q = LottieTransformValue(s, at: 0).matrix.apply(PathPoint(0, 10))
        #expect(abs(q.x + 10) < 1e-9 && abs(q.y - 10) < 1e-9)
    }
}
