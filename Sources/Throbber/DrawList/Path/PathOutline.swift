import Foundation

/// What a renderer fills for one path item: closed polygons in px, every chord already flattened
/// (SPEC §9), and the rule their winding numbers are read by. A fill's polygons are its subpaths'
/// chords (after any trim); a stroke's are the pieces of its stroke outline, each turning the same
/// way, read `nonzero` (SPEC §9 "Strokes"). Built once, in shared code, and read by both renderers.
public final class PathOutline: Sendable {
    /// Closed polygons (the last point joins the first), px.
    public let polygons: [[PathPoint]]
    public let rule: PathCoverage.FillRule
    /// The least and greatest x and y of every point, or nil when there is none.
    public let extent: (minX: Double, minY: Double, maxX: Double, maxY: Double)?
    /// How many chords the polygons hold.
    public let chordCount: Int

    public init(polygons: [[PathPoint]], rule: PathCoverage.FillRule) {
        let kept = polygons.filter { $0.count >= 3 }
        self.polygons = kept
        self.rule = rule
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        var chords = 0
        for polygon in kept {
            chords += polygon.count
            for p in polygon {
                minX = min(minX, p.x)
                minY = min(minY, p.y)
                maxX = max(maxX, p.x)
                maxY = max(maxY, p.y)
            }
        }
        chordCount = chords
        extent = chords == 0 ? nil : (minX, minY, maxX, maxY)
    }

    /// The same outline moved by (dx, dy) px: what a path that only moved draws.
    public func moved(dx: Double, dy: Double) -> PathOutline {
        if dx == 0 && dy == 0 { return self }
        return PathOutline(polygons: polygons.map { $0.map { PathPoint($0.x + dx, $0.y + dy) } }, rule: rule)
    }

    /// The parts of the chord from `a` to `b` (px relative to the bounds' top left) that can
    /// change the signed area of a pixel of a `width` × `height` box, handed to `emit` in order
    /// along the chord: rows outside the box dropped, a part left of it made vertical on its left
    /// edge (clamp(i + 1 − x, 0, 1) = 1 for x ≤ 0 ≤ i), a part right of it dropped
    /// (x ≥ width ≥ i + 1). Horizontal parts are left out. Both rows clip with it, so their chords
    /// are the same floats; exact, and it keeps every number a shader reads small.
    public static func clipChord(_ a: PathPoint, _ b: PathPoint, width: Double, height: Double, _ emit: (PathPoint, PathPoint) -> Void) {
        guard a.y != b.y else { return }
        // The chord as a function of t ∈ [0, 1]; the part with y in [0, height].
        let ty0 = (0 - a.y) / (b.y - a.y), ty1 = (height - a.y) / (b.y - a.y)
        let low = max(0, min(ty0, ty1)), high = min(1, max(ty0, ty1))
        guard low < high else { return }
        // Cut where it crosses x = 0 and x = width between them: at most two cuts, in order.
        var cut0 = Double.infinity, cut1 = Double.infinity
        if a.x != b.x {
            let at0 = (0 - a.x) / (b.x - a.x), atWidth = (width - a.x) / (b.x - a.x)
            if at0 > low && at0 < high { cut0 = at0 }
            if atWidth > low && atWidth < high {
                if atWidth < cut0 { cut1 = cut0; cut0 = atWidth } else { cut1 = atWidth }
            }
        }
        func point(_ t: Double) -> PathPoint {
            PathPoint(a.x + (b.x - a.x) * t, min(max(a.y + (b.y - a.y) * t, 0), height))
        }
        func piece(_ t0: Double, _ t1: Double) {
            guard t1 > t0 else { return }
            var p = point(t0), q = point(t1)
            guard p.y != q.y else { return }
            let middle = a.x + (b.x - a.x) * (t0 + t1) / 2
            if middle >= width { return }
            if middle <= 0 {
                (p.x, q.x) = (0, 0)
            } else {
                p.x = min(max(p.x, 0), width)
                q.x = min(max(q.x, 0), width)
            }
            emit(p, q)
        }
        if cut0 == .infinity {
            piece(low, high)
        } else if cut1 == .infinity {
            piece(low, cut0)
            piece(cut0, high)
        } else {
            piece(low, cut0)
            piece(cut0, cut1)
            piece(cut1, high)
        }
    }

    /// The outline of `role` for `geometry` in its own space placed by `transform`: built in px
    /// (SPEC §9), except a stroke of the own space (`Path.Role.ownSpaceStroke`), whose pieces are
    /// built with its widths in own units and then mapped. They are built under the transform's
    /// largest stretch s as a uniform scale — so the chords lie within ε of the curves in px —
    /// and mapped by the rest of the transform, which stretches nothing.
    public static func build(_ geometry: PathGeometry, transform: PathTransform, role: Path.Role, trim: PathTrim?) -> PathOutline {
        guard case .ownSpaceStroke(let style) = role else { return build(transform.apply(geometry), role: role, trim: trim) }
        let (a, b, c, d) = (transform.a, transform.b, transform.c, transform.d)
        let sum = a * a + b * b + c * c + d * d, det = a * d - b * c
        let s = ((sum + max(sum * sum - 4 * det * det, 0).squareRoot()) / 2).squareRoot()
        guard s.isFinite, s > 1e-12 else { return PathOutline(polygons: [], rule: .nonzero) }
        let pre = PathTransform(a: s, b: 0, c: 0, d: s, tx: 0, ty: 0)
        let rest = PathTransform(a: a / s, b: b / s, c: c / s, d: d / s, tx: transform.tx, ty: transform.ty)
        let scaled = StrokeStyle(width: style.width * s, join: style.join, miterLimit: style.miterLimit, cap: style.cap,
                                 dash: style.dash.map { $0 * s }, dashOffset: style.dashOffset * s)
        let kept = trim.map { PathTrimming.trimmed(pre.apply(geometry), $0) } ?? pre.apply(geometry)
        let pieces = PathStroker.polygons(kept, style: scaled)
        return PathOutline(polygons: pieces.map { $0.map(rest.apply) }, rule: .nonzero)
    }

    /// The outline of `role` for `geometry` already in px, trimmed by `trim` (SPEC §9): a fill's
    /// chords, or its stroke's pieces.
    public static func build(_ geometry: PathGeometry, role: Path.Role, trim: PathTrim?) -> PathOutline {
        let kept = trim.map { PathTrimming.trimmed(geometry, $0) } ?? geometry
        switch role {
        case .fill(let rule):
            return PathOutline(polygons: PathFlattening.polygons(kept), rule: rule)
        case .stroke(let style), .ownSpaceStroke(let style):
            return PathOutline(polygons: PathStroker.polygons(kept, style: style), rule: .nonzero)
        }
    }
}

/// Counts of outlines built and reused (`PathOutlineCache`), for a bench's stage statistics.
public struct PathOutlineStatistics: Sendable, Equatable {
    /// Outlines flattened (and stroked) from their curves.
    public var built = 0
    /// Outlines taken from an earlier frame unchanged (the path held still).
    public var kept = 0
    /// Outlines taken from an earlier frame and moved (the path only moved).
    public var moved = 0

    public init(built: Int = 0, kept: Int = 0, moved: Int = 0) {
        self.built = built
        self.kept = kept
        self.moved = moved
    }
}

/// What a scene keeps of its paths' outlines from frame to frame: a path whose curves, linear
/// transform, role and trim are those of a path it drew before reuses that outline, moved by the
/// change of translation, instead of flattening and stroking its curves again (a path that only
/// moves or changes colour). Held by one scene, shared by the threads that evaluate its frames.
public final class PathOutlineCache: @unchecked Sendable {
    struct Key: Hashable {
        var geometry: PathGeometry
        var linear: PathTransform
        var role: Path.Role
        var trim: PathTrim?
    }

    private let lock = NSLock()
    private var entries: [Key: (outline: PathOutline, tx: Double, ty: Double)] = [:]
    private var counted = PathOutlineStatistics()
    /// The most outlines held; past it the cache starts again.
    public static let capacity = 4096

    public init() {}

    /// The outline of `geometry` (own space) under `transform` for `role` and `trim`.
    public func outline(_ geometry: PathGeometry, transform: PathTransform, role: Path.Role, trim: PathTrim?) -> PathOutline {
        let key = Key(geometry: geometry, linear: transform.linear, role: role, trim: trim)
        if let entry = lock.withLock({ entries[key] }) {
            let dx = transform.tx - entry.tx, dy = transform.ty - entry.ty
            lock.withLock { if dx == 0 && dy == 0 { counted.kept += 1 } else { counted.moved += 1 } }
            return entry.outline.moved(dx: dx, dy: dy)
        }
        let outline = PathOutline.build(geometry, transform: transform, role: role, trim: trim)
        lock.withLock {
            if entries.count >= PathOutlineCache.capacity { entries.removeAll() }
            entries[key] = (outline, transform.tx, transform.ty)
            counted.built += 1
        }
        return outline
    }

    /// What the cache has done so far.
    public var statistics: PathOutlineStatistics { lock.withLock { counted } }
}
