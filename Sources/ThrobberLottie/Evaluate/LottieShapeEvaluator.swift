import Foundation
import Throbber

/// A shape layer's items at one frame, as Lottie composes them (docs/lottie.md "Shapes"): a
/// style (fill, stroke, gradient) paints every path above it in its group and in the groups
/// above it; a modifier (trim, repeater, rounded corners) changes every path above it, whichever
/// styles paint them; the first item paints on top.
///
/// Paths and styles carry the transform from their own group to the group being evaluated, and
/// take each enclosing group's as they leave it; a modifier first bakes the paths it changes into
/// its own group's space.
struct LottieShapeEvaluator {
    /// A path above the item being read, with the transform to the current group's space.
    struct Entry {
        var geometry: PathGeometry
        var transform: PathTransform
    }

    /// What a style paints, with everything resolved but the geometry, in its own group's space.
    enum Paint {
        case fill(PathPaint, evenOdd: Bool)
        case stroke(PathPaint, width: Double, cap: StrokeCap, join: StrokeJoin, miterLimit: Double, dash: [Double], dashOffset: Double)
    }

    /// A style at work: what it paints, the entries it paints (indices), its opacity and the
    /// transform from its group's space to the current group's.
    struct Draw {
        var paint: Paint
        var entries: [Int]
        var opacity: Double
        var transform: PathTransform
        var name: String
    }

    let frame: Double
    var entries: [Entry] = []
    /// Bottom first.
    var draws: [Draw] = []

    init(frame: Double) { self.frame = frame }

    /// Evaluates a layer's items; `name` prefixes the draws' names (their identities).
    mutating func evaluate(_ items: [LottieShape], name: String) {
        let result = group(items, name: name)
        entries = result.entries
        draws = result.draws
    }

    func group(_ items: [LottieShape], name: String) -> (entries: [Entry], draws: [Draw]) {
        var entries: [Entry] = []
        var draws: [Draw] = []
        for (k, item) in items.enumerated() {
            let itemName = "\(name).\(k)"
            // A style paints every path above it, beneath the styles above it.
            func paintAbove(_ paint: Paint, _ opacity: LottieAnimated<Double>) {
                draws.insert(Draw(paint: paint, entries: Array(entries.indices), opacity: Self.percent(opacity.value(at: frame)),
                                  transform: .identity, name: itemName), at: 0)
            }
            switch item {
            case .nothing: break
            case let .group(children, transform):
                let value = LottieTransformValue(transform, at: frame)
                let inner = group(children, name: itemName)
                let base = entries.count
                entries += inner.entries.map { Entry(geometry: $0.geometry, transform: value.matrix.concatenating($0.transform)) }
                let innerDraws = inner.draws.map { draw -> Draw in
                    var d = draw
                    d.entries = draw.entries.map { $0 + base }
                    d.transform = value.matrix.concatenating(draw.transform)
                    d.opacity *= value.opacity
                    return d
                }
                draws = innerDraws + draws
            case let .rectangle(position, size, roundness, reversed):
                let p = position.value(at: frame), s = size.value(at: frame)
                let shape = LottieGeometry.rectangle(center: PathPoint(p[0], p[1]), size: PathPoint(s[0], s[1]),
                                                     roundness: roundness.value(at: frame), reversed: reversed)
                entries.append(Entry(geometry: Self.geometry(shape), transform: .identity))
            case let .ellipse(position, size, reversed):
                let p = position.value(at: frame), s = size.value(at: frame)
                let shape = LottieGeometry.ellipse(center: PathPoint(p[0], p[1]), size: PathPoint(s[0], s[1]), reversed: reversed)
                entries.append(Entry(geometry: Self.geometry(shape), transform: .identity))
            case let .path(bezier, _):
                entries.append(Entry(geometry: Self.geometry(bezier.value(at: frame)), transform: .identity))
            case .polystar(let star):
                let p = star.position.value(at: frame)
                if let shape = LottieGeometry.polystar(star.star, center: PathPoint(p[0], p[1]), points: star.points.value(at: frame),
                                                       rotation: star.rotation.value(at: frame), outer: star.outerRadius.value(at: frame),
                                                       inner: star.innerRadius.value(at: frame), outerRoundness: star.outerRoundness.value(at: frame),
                                                       innerRoundness: star.innerRoundness.value(at: frame), reversed: star.reversed) {
                    entries.append(Entry(geometry: Self.geometry(shape), transform: .identity))
                }
            case let .fill(color, opacity, evenOdd):
                paintAbove(.fill(.solid(Self.color(color.value(at: frame))), evenOdd: evenOdd), opacity)
            case let .stroke(color, opacity, style):
                paintAbove(stroke(.solid(Self.color(color.value(at: frame))), style), opacity)
            case let .gradientFill(gradient, opacity, evenOdd):
                paintAbove(.fill(paint(gradient), evenOdd: evenOdd), opacity)
            case let .gradientStroke(gradient, opacity, style):
                paintAbove(stroke(paint(gradient), style), opacity)
            case let .trim(start, end, offset, sequentially):
                Self.bake(&entries)
                LottieTrim.apply(to: &entries, start: start.value(at: frame) / 100, end: end.value(at: frame) / 100,
                                 offset: offset.value(at: frame) / 360, sequentially: sequentially)
            case .roundedCorners(let radius):
                Self.bake(&entries)
                let r = radius.value(at: frame)
                for e in entries.indices {
                    let rounded = entries[e].geometry.subpaths.compactMap { subpath -> Subpath? in
                        LottieGeometry.roundedCorners(LottieBezier(subpath), radius: r).subpath()
                    }
                    entries[e].geometry = PathGeometry(subpaths: rounded)
                }
            case let .repeater(copies, offset, belowFirst, transform):
                (entries, draws) = repeated(entries, draws, copies: copies.value(at: frame), offset: offset.value(at: frame),
                                            belowFirst: belowFirst, transform, name: itemName)
            }
        }
        return (entries, draws)
    }

    /// The copies a repeater makes of everything above it: copy i (from `offset`) transformed i
    /// times by the repeater's transform about its anchor, its opacity from the start opacity to
    /// the end opacity; later copies on top unless `belowFirst`.
    func repeated(_ entries: [Entry], _ draws: [Draw], copies: Double, offset: Double, belowFirst: Bool, _ t: LottieTransform,
                  name: String) -> ([Entry], [Draw]) {
        let count = Int(min(max(copies.rounded(.down), 0), Double(LottieEvaluator.mostRepeaterCopies)))
        guard count > 0 else { return ([], []) }
        let anchor = t.anchor.value(at: frame), scale = t.scale.value(at: frame)
        let position = t.position(at: frame)
        let rotation = t.rotation.value(at: frame)
        let startOpacity = Self.percent(t.startOpacity.value(at: frame)), endOpacity = Self.percent(t.endOpacity.value(at: frame))
        var outEntries: [Entry] = []
        var copiesDraws: [[Draw]] = []
        for copy in 0..<count {
            let i = Double(copy) + offset
            let sx = pow(max(scale[0], 0) / 100, i), sy = pow(max(scale.values.count > 1 ? scale[1] : scale[0], 0) / 100, i)
            var m = PathTransform.translation(-anchor[0], -anchor[1])
            m = PathTransform.scaling(sx, sy).concatenating(m)
            m = PathTransform.rotation(degrees: rotation * i).concatenating(m)
            m = PathTransform.translation(anchor[0] + position.x * i, anchor[1] + position.y * i).concatenating(m)
            let base = outEntries.count
            outEntries += entries.map { Entry(geometry: $0.geometry, transform: m.concatenating($0.transform)) }
            let fade = count > 1 ? startOpacity + (endOpacity - startOpacity) * Double(copy) / Double(count - 1) : startOpacity
            copiesDraws.append(draws.map { draw in
                var d = draw
                d.entries = draw.entries.map { $0 + base }
                d.transform = m.concatenating(draw.transform)
                d.opacity *= fade
                d.name = "\(draw.name).r\(name.split(separator: ".").last ?? "")x\(copy)"
                return d
            })
        }
        return (outEntries, (belowFirst ? copiesDraws.reversed() : copiesDraws).flatMap { $0 })
    }

    func stroke(_ paint: PathPaint, _ style: LottieStrokeStyle) -> Paint {
        let dash = style.dashes.map { max($0.value(at: frame), 0) }
        let usable = dash.reduce(0, +) > 0 ? dash : []
        return .stroke(paint, width: max(style.width.value(at: frame), 0), cap: style.cap, join: style.join, miterLimit: style.miterLimit,
                       dash: usable, dashOffset: style.dashOffset.value(at: frame))
    }

    /// A gradient's paint in its group's space.
    func paint(_ g: LottieGradient) -> PathPaint {
        let stops = LottieGradientStops.stops(g.stops.value(at: frame), count: g.count)
        let s = g.start.value(at: frame), e = g.end.value(at: frame)
        let from = PathPoint(s[0], s[1]), to = PathPoint(e[0], e[1])
        switch g.kind {
        case .linear: return .linear(from: from, to: to, stops: stops)
        case .radial:
            let d = to - from
            let highlight = g.highlightLength.value(at: frame) / 100
            let angle = g.highlightAngle.value(at: frame) + atan2(d.y, d.x) * 180 / Double.pi
            return .radial(center: from, radius: d.length, highlight: highlight, angle: angle, stops: stops)
        }
    }

    /// Bakes every entry into the current group's space (before a modifier measures or edits it).
    static func bake(_ entries: inout [Entry]) {
        for k in entries.indices where entries[k].transform != .identity {
            entries[k] = Entry(geometry: entries[k].transform.apply(entries[k].geometry), transform: .identity)
        }
    }

    static func geometry(_ shape: LottieBezier) -> PathGeometry {
        PathGeometry(subpaths: shape.subpath().map { [$0] } ?? [])
    }

    static func color(_ v: LottieVector) -> PaintColor {
        PaintColor(RGBA(min(max(v[0], 0), 1), min(max(v[1], 0), 1), min(max(v[2], 0), 1), 1))
    }

    static func percent(_ x: Double) -> Double { min(max(x / 100, 0), 1) }
}

extension LottieBezier {
    /// A subpath as vertices with tangents: each segment's end a vertex (a closed subpath's last
    /// segment returning to the start ends on the first vertex).
    init(_ subpath: Subpath) {
        var v = [subpath.start], i = [PathPoint(0, 0)], o: [PathPoint] = []
        for segment in subpath.segments {
            let from = v[v.count - 1]
            switch segment {
            case .line(let p):
                o.append(PathPoint(0, 0))
                v.append(p)
                i.append(PathPoint(0, 0))
            case let .cubic(c1, c2, p):
                o.append(c1 - from)
                v.append(p)
                i.append(c2 - p)
            }
        }
        o.append(PathPoint(0, 0))
        if subpath.closed, v.count > 1, v[v.count - 1] == v[0] {
            i[0] = i[i.count - 1]
            v.removeLast()
            i.removeLast()
            o.removeLast()
        }
        self.init(closed: subpath.closed, vertices: v, inTangents: i, outTangents: o)
    }
}
