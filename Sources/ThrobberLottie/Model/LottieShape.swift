import Throbber

/// A path's vertices as Lottie stores them: points with in and out tangents relative to each
/// point, open or closed.
public struct LottieBezier: LottieInterpolable, Hashable {
    public var closed: Bool
    public var vertices: [PathPoint]
    public var inTangents: [PathPoint]
    public var outTangents: [PathPoint]

    public init(closed: Bool, vertices: [PathPoint], inTangents: [PathPoint], outTangents: [PathPoint]) {
        self.closed = closed
        self.vertices = vertices
        self.inTangents = inTangents
        self.outTangents = outTangents
    }

    public init?(slot: LottieVector) { nil }
    public var slotVector: LottieVector? { nil }

    /// Vertex by vertex; keyframes of different vertex counts keep the first's (the reader
    /// refuses them, so this is never reached from a file).
    public static func interpolate(_ a: LottieBezier, _ b: LottieBezier, _ progress: (Int) -> Double) -> LottieBezier {
        guard a.vertices.count == b.vertices.count else { return a }
        let t = progress(0)
        func mix(_ p: [PathPoint], _ q: [PathPoint]) -> [PathPoint] { zip(p, q).map { $0 + t * ($1 - $0) } }
        return LottieBezier(closed: a.closed, vertices: mix(a.vertices, b.vertices), inTangents: mix(a.inTangents, b.inTangents),
                            outTangents: mix(a.outTangents, b.outTangents))
    }

    /// The subpath: a cubic from each vertex to the next (v_k + o_k, v_{k+1} + i_{k+1}), and back
    /// to the first when closed; reversed for a shape drawn counter-clockwise (`d` = 3).
    public func subpath(reversed: Bool = false) -> Subpath? {
        guard let first = vertices.first else { return nil }
        let n = vertices.count
        var segments: [PathSegment] = []
        let count = closed ? n : n - 1
        segments.reserveCapacity(count)
        for k in 0..<count {
            let j = (k + 1) % n
            segments.append(.cubic(vertices[k] + outTangents[k], vertices[j] + inTangents[j], to: vertices[j]))
        }
        let subpath = Subpath(start: first, segments: segments, closed: closed)
        if reversed { return LottieGeometry.reversedKeepingStart(self).subpath() }
        return subpath
    }
}

/// A transform as Lottie states it (a layer's `ks`, a group's `tr`, a repeater's `tr`).
public struct LottieTransform: Sendable, Equatable {
    public var anchor: LottieAnimated<LottieVector> = .fixed(LottieVector([0, 0]))
    /// Position; nil when separated into `px`, `py`.
    public var position: LottieAnimated<LottieVector>? = .fixed(LottieVector([0, 0]))
    public var positionX: LottieAnimated<Double>?
    public var positionY: LottieAnimated<Double>?
    public var scale: LottieAnimated<LottieVector> = .fixed(LottieVector([100, 100]))
    public var rotation: LottieAnimated<Double> = .fixed(0)
    public var opacity: LottieAnimated<Double> = .fixed(100)
    public var skew: LottieAnimated<Double> = .fixed(0)
    public var skewAxis: LottieAnimated<Double> = .fixed(0)
    /// A repeater's opacity at its first and last copy (percent).
    public var startOpacity: LottieAnimated<Double> = .fixed(100)
    public var endOpacity: LottieAnimated<Double> = .fixed(100)

    public init() {}
}

/// A gradient as Lottie stores it: `count` colour stops (offset, r, g, b) then, when present,
/// opacity stops (offset, alpha), all in one flat animated vector.
public struct LottieGradient: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case linear, radial }
    public var kind: Kind
    public var count: Int
    public var stops: LottieAnimated<LottieVector>
    public var start: LottieAnimated<LottieVector>
    public var end: LottieAnimated<LottieVector>
    /// Highlight length (percent of the radius) and angle (degrees), radial only.
    public var highlightLength: LottieAnimated<Double>
    public var highlightAngle: LottieAnimated<Double>
}

/// How a stroke is drawn besides its paint.
public struct LottieStrokeStyle: Sendable, Equatable {
    public var width: LottieAnimated<Double>
    public var cap: StrokeCap
    public var join: StrokeJoin
    public var miterLimit: Double
    /// Dashes and gaps in order (`d`, `g`), then the offset (`o`).
    public var dashes: [LottieAnimated<Double>]
    public var dashOffset: LottieAnimated<Double>
}

/// One item of a shape layer or group, in file order (the first paints on top).
public indirect enum LottieShape: Sendable, Equatable {
    case group([LottieShape], LottieTransform)
    case rectangle(position: LottieAnimated<LottieVector>, size: LottieAnimated<LottieVector>, roundness: LottieAnimated<Double>, reversed: Bool)
    case ellipse(position: LottieAnimated<LottieVector>, size: LottieAnimated<LottieVector>, reversed: Bool)
    case path(LottieAnimated<LottieBezier>, reversed: Bool)
    case polystar(LottiePolystar)
    case fill(color: LottieAnimated<LottieVector>, opacity: LottieAnimated<Double>, evenOdd: Bool)
    case stroke(color: LottieAnimated<LottieVector>, opacity: LottieAnimated<Double>, LottieStrokeStyle)
    case gradientFill(LottieGradient, opacity: LottieAnimated<Double>, evenOdd: Bool)
    case gradientStroke(LottieGradient, opacity: LottieAnimated<Double>, LottieStrokeStyle)
    /// `sequentially`: `m` = 2, "individually" in After Effects' words: the paths cut one after another.
    case trim(start: LottieAnimated<Double>, end: LottieAnimated<Double>, offset: LottieAnimated<Double>, sequentially: Bool)
    case repeater(copies: LottieAnimated<Double>, offset: LottieAnimated<Double>, belowFirst: Bool, LottieTransform)
    case roundedCorners(LottieAnimated<Double>)
    /// A transform item (`tr`) outside its group's end, or an item skipped as unsupported:
    /// nothing to draw.
    case nothing
}

/// A star or polygon (`sr`).
public struct LottiePolystar: Sendable, Equatable {
    public var star: Bool
    public var position: LottieAnimated<LottieVector>
    public var points: LottieAnimated<Double>
    public var rotation: LottieAnimated<Double>
    public var outerRadius: LottieAnimated<Double>
    public var innerRadius: LottieAnimated<Double>
    public var outerRoundness: LottieAnimated<Double>
    public var innerRoundness: LottieAnimated<Double>
    public var reversed: Bool
}
