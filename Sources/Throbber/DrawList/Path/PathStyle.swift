/// The affine map from a path's own space to px: x′ = a·x + c·y + tx, y′ = b·x + d·y + ty
/// (SPEC §9 "Geometry": every point goes through it before anything else).
public struct PathTransform: Sendable, Hashable {
    public var a: Double
    public var b: Double
    public var c: Double
    public var d: Double
    public var tx: Double
    public var ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// The identity.
    public static let identity = PathTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// `p` mapped.
    public func apply(_ p: PathPoint) -> PathPoint {
        PathPoint(a * p.x + c * p.y + tx, b * p.x + d * p.y + ty)
    }

    /// The determinant of the linear part.
    public var determinant: Double { a * d - b * c }

    /// The map back, or nil when the linear part is singular (or too near it to invert).
    public var inverse: PathTransform? {
        let det = determinant
        guard det.isFinite, abs(det) > 1e-300 else { return nil }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return PathTransform(a: ia, b: ib, c: ic, d: id, tx: -(ia * tx + ic * ty), ty: -(ib * tx + id * ty))
    }

    /// The same linear part, no translation: what flattening and stroking depend on (a path that
    /// only moves keeps its outline, moved).
    public var linear: PathTransform { PathTransform(a: a, b: b, c: c, d: d, tx: 0, ty: 0) }

    /// `geometry` with every point mapped (a cubic's control points too: affine maps keep Béziers).
    public func apply(_ geometry: PathGeometry) -> PathGeometry {
        PathGeometry(subpaths: geometry.subpaths.map { subpath in
            Subpath(start: apply(subpath.start), segments: subpath.segments.map { segment in
                switch segment {
                case .line(let p): .line(to: apply(p))
                case let .cubic(c1, c2, p): .cubic(apply(c1), apply(c2), to: apply(p))
                }
            }, closed: subpath.closed)
        })
    }
}

/// How a stroke meets itself where two segments join (SPEC §9 "Strokes").
public enum StrokeJoin: String, Sendable, Hashable, CaseIterable {
    case miter, round, bevel
}

/// What a stroke draws at the ends of an open subpath (SPEC §9 "Strokes").
public enum StrokeCap: String, Sendable, Hashable, CaseIterable {
    case butt, round, square
}

/// A stroke's shape, in px (a width or dash length in pt already multiplied by the scale and by
/// sqrt(|det|) of the node's transform, SPEC §9 "Strokes").
public struct StrokeStyle: Sendable, Hashable {
    /// The stroke's width in px; 0 strokes nothing.
    public var width: Double
    public var join: StrokeJoin
    /// Miters longer than this many half widths (1 / sin(θ/2)) become bevels; SVG's default is 4.
    public var miterLimit: Double
    public var cap: StrokeCap
    /// On and off lengths in px, even in count (an odd list is given repeated); empty: no dashes.
    public var dash: [Double]
    /// How far into the dash pattern each piece starts, px (any real: taken modulo the pattern).
    public var dashOffset: Double

    public init(width: Double, join: StrokeJoin = .miter, miterLimit: Double = 4, cap: StrokeCap = .butt,
                dash: [Double] = [], dashOffset: Double = 0) {
        self.width = width
        self.join = join
        self.miterLimit = miterLimit
        self.cap = cap
        self.dash = dash.count % 2 == 1 ? dash + dash : dash
        self.dashOffset = dashOffset
    }
}

/// The part of a path kept by a trim (SPEC §9 "Lengths, dashes and trims"): lengths L·a to L·b of
/// the whole path, a = start + offset and b = end + offset taken modulo 1 (wrapping through the
/// end when b < a); end − start ≥ 1 keeps everything, end ≤ start nothing.
public struct PathTrim: Sendable, Hashable {
    /// Fractions of the whole length, 0…1.
    public var start: Double
    public var end: Double
    /// In turns: added to both ends.
    public var offset: Double

    public init(start: Double, end: Double, offset: Double = 0) {
        self.start = start
        self.end = end
        self.offset = offset
    }

    /// Whether the trim keeps the whole path as it is.
    public var keepsEverything: Bool { end - start >= 1 }
}
