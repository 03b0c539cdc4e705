import Foundation

/// Parity's path scene (`paths`, docs/parity.md): random paths drawn from a seed, for holding the
/// path rows of both renderers to each other over SPEC §9's whole range — random cubics and
/// lines, self-intersections, holes, both fill rules, strokes from 0.1 px to thick with every
/// join and cap, miter limits, dashes with offsets, trims that wrap through the end, linear,
/// radial and focal gradients, opacity, transforms that rotate, skew, scale unevenly or mirror,
/// and paths partly off the canvas.
///
/// It is no indicator, so `throbber scenes` does not list it (`SceneRegistry.parityOnly`), but
/// `render` and `parity` take its id like any other, and a random case's command draws it again.
/// Seed 0, the default, is a fixed gallery of sixteen cells, one feature each (the parity
/// matrix's path cases); any other seed draws `count` random paths. Time turns trims, dash
/// offsets and some paths once every `loopSeconds`.
public struct RandomPaths: BuiltInScene {
    public static let id = "paths"
    public static let summary = "parity's random paths: fills, strokes, dashes, trims and gradients drawn from a seed (0: a fixed gallery)"

    /// Which paths: 0 the gallery, any other value a random draw.
    public var seed = 0
    /// How many random paths (each a fill, a stroke or both); the gallery ignores it.
    public var count = 6
    /// The most segments of one random subpath.
    public var segments = 8
    /// The side of the square canvas, pt.
    public var size = 96.0
    /// The widest random stroke, pt (the thinnest is 0.1 px).
    public var strokeWidth = 12.0
    /// The length of one loop of the animation, s.
    public var loopSeconds = 2.0
    /// How many random layers (SPEC §10: masks, mattes, opacity, nesting) wrap the paths; 0 none.
    public var layers = 0
    public var speeds = PartSpeeds()

    public init() {}

    /// The largest seed: every value a 32-bit signed integer holds.
    public static let largestSeed = Int(Int32.max)

    public static var parameters: [SceneParameter<RandomPaths>] {
        [
            // Random cases draw seeds from 1 up: seed 0 is the matrix's gallery.
            .init("seed", .integer(\.seed, 0...largestSeed), "which paths: 0 the fixed gallery, any other a random draw",
                  sampling: .linear(1, Double(largestSeed))),
            .init("count", .integer(\.count, 1...64), "how many random paths, each filled, stroked or both",
                  sampling: .linear(1, 10)),
            .init("segments", .integer(\.segments, 1...64), "the most segments of one random subpath",
                  sampling: .linear(1, 12)),
            .init("size", .number(\.size, .atLeastAtMost(1, 4096)), unit: "pt", "side of the square canvas",
                  sampling: .logarithmic(4, 100, from: 4)),
            .init("strokeWidth", .number(\.strokeWidth, .atLeastAtMost(0.1, 1000)), unit: "pt",
                  "the widest random stroke (the thinnest is 0.1 px)", sampling: .logarithmic(0.1, 40, from: 0.1)),
            .init("loopSeconds", .number(\.loopSeconds, Limits.periodRange), unit: "s",
                  "one turn of the trims, dash offsets and spinning paths", sampling: .logarithmic(0.01, 100, from: 0.01)),
            // Drawn after the time, so that the cases drawn before layers existed keep their values.
            {
                var layers = SceneParameter<RandomPaths>("layers", .integer(\.layers, 0...16),
                                                         "how many random layers (masks, mattes, opacity) wrap the paths; 0 none",
                                                         sampling: .linear(0, 9))
                layers.drawnLast = true
                return layers
            }(),
        ]
    }

    public var canvasSize: (width: Double, height: Double) { (size, size) }
    public var defaultBackground: RGBA { .clear }
    public var loopDuration: Double? { loopSeconds }
    public var periodicParts: [PeriodicPart] { [PeriodicPart("loop", period: loopSeconds)] }
    public var boxParameterNames: [String] { ["size", "count"] }

    /// The animation state of one frame.
    public struct FrameState: Sendable, Equatable {
        /// u = frac(t / loopSeconds).
        public var turn: Double
    }

    public func frameState(at t: Double) -> FrameState {
        let turns = speeds.time("loop", t) / loopSeconds
        let u = turns - turns.rounded(.down)
        return FrameState(turn: u.isFinite ? u : 0)
    }

    public func drawItems(for state: FrameState, scale s: Double, width w: Int, height h: Int) -> [DrawItem] {
        let specs = seed == 0 ? RandomPaths.gallery : randomSpecs()
        let canvas = PathSpec.Canvas(side: size * s, scale: s, width: w, height: h)
        let items = specs.enumerated().flatMap { index, spec in spec.items(index: index, turn: state.turn, canvas: canvas) }
        return seed == 0 ? items : layered(items, turn: state.turn, canvas: canvas)
    }

    /// The random paths of `seed`: the same for the same seed, count, segments and stroke width,
    /// whatever the time, scale or canvas.
    public func randomSpecs() -> [PathSpec] {
        var random = SplitMix64(seed: SplitMix64.mix(UInt64(seed) &+ 0x9E37_79B9_7F4A_7C15))
        return (0..<count).map { _ in PathSpec.random(&random, segments: segments, strokeWidth: strokeWidth) }
    }
}

/// One path of the `paths` scene, before time and the canvas place it: its curves in its own
/// space (about [−1, 1]²), where on the canvas and how it is turned, and what it paints.
public struct PathSpec: Sendable {
    /// The canvas a spec is drawn on, px.
    public struct Canvas: Sendable {
        public var side: Double
        public var scale: Double
        public var width: Int
        public var height: Int
    }

    /// The curves in own space.
    public var geometry: PathGeometry
    /// The centre on the canvas, fractions of its side (outside 0…1: partly off the canvas).
    public var center: PathPoint
    /// The own-space unit in fractions of the canvas side.
    public var radius: Double
    /// The linear part before the radius: rotation (rad), skew, the two axes' scales (negative mirrors).
    public var rotation: Double
    public var skew: Double
    public var scaleX: Double
    public var scaleY: Double
    /// Turns once a loop (+1 or −1), or 0: stays.
    public var spin: Double
    /// The fill rule and paint of the fill, nil for none.
    public var fill: (rule: PathCoverage.FillRule, paint: PathPaint)?
    /// The stroke, its width and dash lengths in pt (times the scale), and its paint; nil for none.
    public var stroke: (style: StrokeStyle, paint: PathPaint)?
    /// Whether the stroke is 0.1 px wide at every scale (its style's width ignored).
    public var hairline: Bool
    /// Whether the dash offset runs one pattern a loop.
    public var dashRuns: Bool
    public var trim: PathTrim?
    /// Whether the trim's offset runs one turn a loop.
    public var trimRuns: Bool
    public var opacity: Double

    /// The linear part of own space → px, before the translation.
    func transform(turn: Double, canvas: Canvas) -> PathTransform {
        let r = radius * canvas.side
        let angle = rotation + 2 * Double.pi * spin * turn
        let (cs, sn) = (cos(angle), sin(angle))
        // R(angle) · [[1, skew], [0, 1]] · diag(scaleX, scaleY) · r
        let a = cs * scaleX * r, b = sn * scaleX * r
        let c = (cs * skew - sn) * scaleY * r, d = (sn * skew + cs) * scaleY * r
        return PathTransform(a: a, b: b, c: c, d: d, tx: center.x * canvas.side, ty: center.y * canvas.side)
    }

    /// The draw items at phase `turn`: the fill first, then the stroke (as a path node's).
    func items(index: Int, turn: Double, canvas: Canvas) -> [DrawItem] {
        let transform = transform(turn: turn, canvas: canvas)
        let trim = trim.map { PathTrim(start: $0.start, end: $0.end, offset: $0.offset + (trimRuns ? turn : 0)) }
        var items: [DrawItem] = []
        if let fill {
            items.append(DrawItem(ItemID("path\(index).fill"), Path(geometry, transform: transform, role: .fill(fill.rule), trim: trim,
                                                                    paint: fill.paint, opacity: opacity,
                                                                    width: canvas.width, height: canvas.height)))
        }
        if let stroke {
            var style = stroke.style
            style.width = hairline ? 0.1 : style.width * canvas.scale
            style.dash = style.dash.map { $0 * canvas.scale }
            let pattern = style.dash.reduce(0, +)
            style.dashOffset = style.dashOffset * canvas.scale + (dashRuns ? pattern * turn : 0)
            items.append(DrawItem(ItemID("path\(index).stroke"), Path(geometry, transform: transform, role: .stroke(style), trim: trim,
                                                                      paint: stroke.paint, opacity: opacity,
                                                                      width: canvas.width, height: canvas.height)))
        }
        return items
    }
}
