import Foundation
import Throbber

// The path's row (Throbber/DrawList/Primitives/Path.swift, SPEC §9): one instanced quad over its
// bounds, drawn by the boxes pass, each pixel summing the signed areas of the chords of its band
// of rows, read from the path data texture (BoxesPass binds it); its GLSL is
// Shaders/Primitives/path.glsl, which describes the data's layout.

extension Path: GLPrimitive {
    static let shaderFile = "path.glsl"
    static let recordCoverage: String? = "pathCoverage(p, bounds.xy, head.w, b)"
    static let recordColor: String? = "pathColor(p, head.w, b, color)"
    static let recordKind = GLPrimitiveRows.recordKind(of: Path.self)

    /// Its chords clipped to its bounds and banded, and its paint, laid out once (`PathGLItem`).
    func prepareGL() -> any GLItem { PathGLItem(self) }
}

/// A path as the boxes pass draws it: its record's numbers and its data texels (path.glsl's
/// layout), worked out once and kept while the item is unchanged (`GLPreparedItems`).
struct PathGLItem: GLItem {
    /// Rows per band: a pixel loops over the chords of its band only.
    static let bandHeight = 8
    /// Paint kinds of the header.
    static let solid: Float = 0, linear: Float = 1, radial: Float = 2

    let bounds: PixelRect
    /// The record's colour: the solid colour with its alpha times the opacity (a gradient's
    /// colour is path.glsl's `pathColor`).
    let color: PaintColor
    /// b = (rule, opacity, band height, band table's offset).
    let fields: [Float]
    /// Its texels, 4 floats each, offsets relative to the first.
    let data: [Float]

    init(_ path: Path) {
        bounds = path.bounds
        let opacity = path.opacity
        var data: [Float] = []
        var solid: PaintColor? = path.paint.uniformColor
        let inverse = path.paintInverse
        if solid == nil && inverse == nil {
            // A singular transform: nothing is covered; the last stop stands for the paint.
            switch path.paint {
            case .linear(_, _, let stops), .radial(_, _, _, _, let stops): solid = stops.last?.color ?? PaintColor(RGBA(0, 0, 0, 0))
            case .solid(let c): solid = c
            }
        }
        if let solid {
            var faded = solid
            faded.a *= opacity
            color = faded
            data += [PathGLItem.solid, 0, 1, 0]
        } else {
            color = PaintColor(RGBA(0, 0, 0, 0))
            let m = inverse!
            let kind: Float, stops: [GradientStop], g0: [Double], g1: [Double]
            switch path.paint {
            case let .linear(from, to, s):
                (kind, stops, g0, g1) = (PathGLItem.linear, s, [from.x, from.y, to.x, to.y], [0, 0, 0, 0])
            case let .radial(center, radius, highlight, angle, s):
                let a = angle * .pi / 180
                let f = PathPoint(center.x + highlight * radius * cos(a), center.y + highlight * radius * sin(a))
                (kind, stops, g0, g1) = (PathGLItem.radial, s, [center.x, center.y, radius, 0],
                                         highlight == 0 ? [center.x, center.y, 0, 0] : [f.x, f.y, 0, 0])
            case .solid:
                preconditionFailure("a solid paint has a uniform colour")
            }
            data += [kind, Float(stops.count), Float(5 + 2 * stops.count), 0]
            data += [m.a, m.b, m.c, m.d, m.tx, m.ty, 0, 0].map { Float($0) }
            data += (g0 + g1).map { Float($0) }
            for stop in stops { data += [stop.offset, 0, 0, 0, stop.color.r, stop.color.g, stop.color.b, stop.color.a] }
        }
        let tableOffset = data.count / 4
        let bandHeight = PathGLItem.bandHeight
        let bandCount = max(1, (bounds.y1 - bounds.y0 + bandHeight - 1) / bandHeight)
        var bands = [[Float]](repeating: [], count: bandCount)
        if !bounds.isEmpty {
            let width = Double(bounds.x1 - bounds.x0), height = Double(bounds.y1 - bounds.y0)
            let ox = Double(bounds.x0), oy = Double(bounds.y0)
            for polygon in path.outline.polygons {
                for k in polygon.indices {
                    let a = polygon[k], b = polygon[(k + 1) % polygon.count]
                    PathGLItem.clip(PathPoint(a.x - ox, a.y - oy), PathPoint(b.x - ox, b.y - oy), width: width, height: height) { p, q in
                        let top = min(p.y, q.y), bottom = max(p.y, q.y)
                        let first = max(0, Int((top / Double(bandHeight)).rounded(.down)))
                        let last = min(bandCount - 1, Int((bottom / Double(bandHeight)).rounded(.up)) - 1)
                        guard first <= last else { return }
                        let chord = [Float(p.x), Float(p.y), Float(q.x), Float(q.y)]
                        for band in first...last { bands[band] += chord }
                    }
                }
            }
        }
        var next = tableOffset + bandCount
        for band in bands {
            data += [Float(next), Float(band.count / 4), 0, 0]
            next += band.count / 4
        }
        for band in bands { data += band }
        self.data = data
        let evenOdd: Float = path.outline.rule == .evenodd ? 1 : 0
        fields = [evenOdd, opacity, Float(bandHeight), Float(tableOffset)]
    }

    /// The parts of the chord from `a` to `b` (px relative to the bounds' top left) that can
    /// change the signed area of a pixel of a `width` × `height` box, handed to `emit`: rows
    /// outside the box dropped, a part left of it made vertical on its left edge (it covers
    /// every pixel of the box to its right whole: clamp(i + 1 − x, 0, 1) = 1 for x ≤ 0 ≤ i), a
    /// part right of it dropped (it covers none: x ≥ width ≥ i + 1). Exact, and it keeps every
    /// number the shader reads small. Horizontal parts are left out.
    static func clip(_ a: PathPoint, _ b: PathPoint, width: Double, height: Double, _ emit: (PathPoint, PathPoint) -> Void) {
        guard a.y != b.y else { return }
        // The chord as a function of t ∈ [0, 1]; the part with y in [0, height].
        let ty0 = (0 - a.y) / (b.y - a.y), ty1 = (height - a.y) / (b.y - a.y)
        let low = max(0, min(ty0, ty1)), high = min(1, max(ty0, ty1))
        guard low < high else { return }
        var cuts = [low, high]
        if a.x != b.x {
            for x in [0, width] {
                let t = (x - a.x) / (b.x - a.x)
                if t > low && t < high { cuts.append(t) }
            }
        }
        cuts.sort()
        func point(_ t: Double) -> PathPoint {
            PathPoint(a.x + (b.x - a.x) * t, min(max(a.y + (b.y - a.y) * t, 0), height))
        }
        for (t0, t1) in zip(cuts, cuts.dropFirst()) where t1 > t0 {
            var p = point(t0), q = point(t1)
            guard p.y != q.y else { continue }
            let middle = a.x + (b.x - a.x) * (t0 + t1) / 2
            if middle >= width { continue }
            if middle <= 0 {
                (p.x, q.x) = (0, 0)
            } else {
                p.x = min(max(p.x, 0), width)
                q.x = min(max(q.x, 0), width)
            }
            emit(p, q)
        }
    }

    func addLayers(to plan: inout LayerPlan, index: Int) { plan.leaveToBoxesPass(index) }

    /// One record: head = (kind, cx, cy, first data texel), a = (halfX, halfY, 1, 0) (the
    /// instance's quad, grown by BOX_QUAD_GROWTH, covers the bounds exactly), b = `fields`.
    func addRecords(to stack: inout FrameStack, asInstances: Bool) {
        guard !bounds.isEmpty else { return }
        let growth = Antialiasing.boxQuadGrowth
        let halfX = Float(bounds.x1 - bounds.x0) / 2, halfY = Float(bounds.y1 - bounds.y0) / 2
        let first = stack.addPathData(data)
        stack.addRecord(kind: Path.recordKind,
                        [Float(bounds.x0) + halfX, Float(bounds.y0) + halfY, Float(first), halfX - growth, halfY - growth, 1, 0] + fields,
                        color, bounds, nil, isBox: false, instance: asInstances)
    }
}
