import Foundation
import Throbber

/// Paths, their gradients, and glyph outlines as shape groups (docs/lottie.md "What becomes what").
extension ExportLowering {
    static func pathElement(_ path: Path, key: String, tolerance: Double) throws -> ExportElement {
        // The path stays in its own space under its transform, which is the group's: a path that
        // only moves, turns or scales is one shape and a few transform keys, not a shape a frame.
        // Any other transform is applied to the shape (a fill, or a stroke whose pen stays round
        // in canvas space); a pen that scales with its path on two axes keeps its own space under
        // a turn and two scales; one that shears with it (a Lottie stroke under a skew) or a
        // gradient under a transform that is no similarity is refused.
        let t = path.transform
        let det = t.determinant
        let sx = (t.a * t.a + t.b * t.b).squareRoot(), syLength = (t.c * t.c + t.d * t.d).squareRoot()
        let orthogonal = det != 0 && abs(t.a * t.c + t.b * t.d) <= 1e-9 * max(1, sx * syLength)
        let similar = orthogonal && abs(sx - syLength) <= 1e-9 * max(1, sx)
        var stroke: StrokeStyle?
        var own: Bool
        // A width in canvas pt (a stroke's role) over the scale, in the shape's own units.
        var widthScale = 1.0
        switch path.role {
        case .fill:
            // A similarity only: a transform that is a turn and two scales in one frame is often a
            // shear the next (a child turning under a parent scaled on one axis), and one space
            // for the frames between is what keys can hold.
            own = similar
        case .stroke(let style):
            stroke = style
            own = similar
            widthScale = similar ? 1 / sx : 1
        case .ownSpaceStroke(let style):
            stroke = style
            own = true
            guard orthogonal else { throw refusal(key, "is a stroke whose pen shears with its path (Lottie players differ on skew)") }
        }
        if case .solid = path.paint {} else if !own && !similar {
            throw refusal(key, "is a gradient under a transform that shears it")
        }
        let sy = own ? det / sx : 1
        let angle = own ? atan2(t.b, t.a) * 180 / .pi : 0
        let geometry = own ? path.geometry : t.apply(path.geometry)
        var g = GroupBuilder(key: key, tolerance: tolerance)
        // In its own units the tolerance is the canvas's over the scale.
        let smallest = own ? min(sx, abs(sy)) : 1
        var local = GroupBuilder(key: key, tolerance: tolerance / smallest)
        for (k, bezier) in Bezier.paths(geometry).enumerated() { local.path("s\(k)", bezier) }
        g.items = local.items
        g.channels = local.channels
        let extent = geometry.subpaths.flatMap { [$0.start] + $0.segments.map(\.end) }.map(\.length).max() ?? 1
        let reach = extent * (own ? max(sx, abs(sy)) : 1)
        if let trim = path.trim {
            g.items.append(.object([("ty", .string("tm")),
                                    ("s", g.channel("ms", .percent(tolerance, length: 1000), [trim.start * 100])),
                                    ("e", g.channel("me", .percent(tolerance, length: 1000), [trim.end * 100])),
                                    ("o", g.channel("mo", .angle(tolerance, reach: 1000), [trim.offset * 360])), ("m", .integer(2))]))
        }
        let opacity = Double(path.opacity)
        func point(_ p: PathPoint) -> PathPoint { own ? p : t.apply(p) }
        switch path.paint {
        case .solid(let color):
            if let stroke {
                g.stroke(color, opacity: opacity, width: stroke.width * widthScale, cap: stroke.cap, join: stroke.join,
                         miterLimit: stroke.miterLimit, dash: stroke.dash.map { $0 * widthScale }, dashOffset: stroke.dashOffset * widthScale)
            } else if case .fill(let rule) = path.role {
                g.fill(color, opacity: opacity, evenOdd: rule == .evenodd)
            }
        case let .linear(from, to, stops):
            gradient(&g, type: 1, from: point(from), to: point(to), highlight: nil, stops: stops, opacity: opacity, stroke: stroke,
                     width: (stroke?.width ?? 0) * widthScale, role: path.role)
        case let .radial(center, radius, highlight, angle, stops):
            gradient(&g, type: 2, from: point(center), to: point(center + PathPoint(radius, 0)), highlight: (highlight * 100, angle),
                     stops: stops, opacity: opacity, stroke: stroke, width: (stroke?.width ?? 0) * widthScale, role: path.role)
        }
        var transform: [(String, LottieValue)] = [("ty", .string("tr"))]
        transform.append(("p", g.channel("tp", .length(tolerance), own ? [t.tx, t.ty] : [0, 0])))
        transform.append(("r", g.channel("tr", .angle(tolerance, reach: reach), [angle])))
        transform.append(("s", g.channel("ts", ChannelKind.percent(tolerance, length: reach).asVector, own ? [sx * 100, sy * 100] : [100, 100])))
        transform.append(("o", g.channel("to", .opacity, [100])))
        var element = g.element()
        // Written in its own space or the canvas's: a different track when that changes (a shear
        // that comes and goes), never keys from one space to the other.
        element.group = .object([("ty", .string("gr")), ("nm", .string(key)), ("mn", .string(own ? "own" : "canvas")),
                                 ("it", .array(g.items + [.object(transform)]))])
        return element
    }

    static func gradient(_ g: inout GroupBuilder, type: Int, from: PathPoint, to: PathPoint, highlight: (Double, Double)?,
                         stops: [GradientStop], opacity: Double, stroke: StrokeStyle?, width: Double, role: Path.Role) {
        let tolerance = g.tolerance
        var values: [Double] = []
        for stop in stops { values += [Double(stop.offset), Double(stop.color.r), Double(stop.color.g), Double(stop.color.b)] }
        for stop in stops { values += [Double(stop.offset), Double(stop.color.a)] }
        var members: [(String, LottieValue)] = [
            ("ty", .string(stroke == nil ? "gf" : "gs")), ("t", .integer(type)),
            ("s", g.channel("gs", .length(tolerance), [from.x, from.y])),
            ("e", g.channel("ge", .length(tolerance), [to.x, to.y])),
            ("g", .object([("p", .integer(stops.count)), ("k", g.channel("gk", .color, values))])),
            ("o", g.channel("o0", .opacity, [opacity * 100])),
        ]
        if let highlight {
            members.append(("h", g.channel("gh", .percent(tolerance, length: 100), [highlight.0])))
            members.append(("a", g.channel("ga", .angle(tolerance, reach: 100), [highlight.1])))
        }
        if let stroke {
            members += [("w", g.channel("w0", .scalarLength(tolerance), [width])),
                        ("lc", .integer(stroke.cap == .butt ? 1 : stroke.cap == .round ? 2 : 3)),
                        ("lj", .integer(stroke.join == .miter ? 1 : stroke.join == .round ? 2 : 3)),
                        ("ml", .number(stroke.miterLimit, digits: 3))]
        } else if case .fill(let rule) = role {
            members.append(("r", .integer(rule == .evenodd ? 2 : 1)))
        }
        g.items.append(.object(members))
    }

    static func glyphElement(_ glyphs: Glyphs, key: String, resources: DrawResources, scale: Double, tolerance: Double) throws -> ExportElement {
        guard let outline = glyphs.outlines(in: resources) else { throw refusal(key, "draws text whose glyph outlines are not known") }
        var g = GroupBuilder(key: key, tolerance: tolerance)
        let shrink = PathTransform(a: scale, b: 0, c: 0, d: scale, tx: 0, ty: 0)
        for (k, bezier) in Bezier.paths(shrink.apply(outline)).enumerated() { g.path("s\(k)", bezier) }
        g.fill(glyphs.color)
        return g.element()
    }
}
