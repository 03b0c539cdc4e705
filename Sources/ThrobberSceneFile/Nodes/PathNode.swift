import Foundation
import Throbber

/// `path`: SVG path data filled, then stroked (docs/scene-files.md §8, SPEC §9): each paint one
/// `Path` item, solid or a gradient in the node's own coordinates; a trim and a dash offset that
/// may animate (how loaders spin).
///
/// The path data is read once, with the file: a frame only evaluates the numbers around it, and
/// a path that only moves or changes colour reuses its outline (`FileScene.pathOutlines`).
struct PathNode: PrimitiveNode {
    static let type = "path"
    static let keys = ["d", "fillRule", "fill", "stroke", "trim", "opacity"]
    static let requiredKeys = ["d"]
    static let objectKeys = ["stroke": ObjectKeys(keys: ["paint", "width", "join", "miterLimit", "cap", "dash", "dashOffset"]),
                             "trim": ObjectKeys(keys: ["start", "end", "offset"])]

    /// The most segments one path's data may hold (lines and cubics, an arc counted as its cubics).
    static let mostSegments = 65_536
    /// The farthest a point of the data may lie from the origin, pt (the longest length).
    static let farthestPoint = Limits.length * 10
    /// The most points the outlines of one frame's paths may hold, copies counted, as estimated
    /// at the largest scale (`Shape.outlinePoints`): 16 bytes each, 256 MiB at most.
    static let mostOutlinePoints = 1 << 24

    let info: NodeInfo
    let curves: Curves
    let rule: PathCoverage.FillRule
    /// nil: `"none"`.
    let fill: PaintSource?
    let stroke: StrokeSource?
    let trim: TrimSource?
    let opacity: SceneSource?

    /// A paint as read: a colour, or a gradient's points, numbers and stops.
    enum PaintSource: Sendable {
        case color(SceneSource)
        case linear(from: SceneDefinition.Point, to: SceneDefinition.Point, stops: [StopSource])
        case radial(center: SceneDefinition.Point, radius: SceneSource, highlight: SceneSource?, angle: SceneSource?, stops: [StopSource])
    }

    struct StopSource: Sendable {
        var offset: SceneSource
        var color: SceneSource
    }

    struct StrokeSource: Sendable {
        /// nil: `"none"`.
        var paint: PaintSource?
        var width: SceneSource?
        var join: StrokeJoin
        var miterLimit: SceneSource?
        var cap: StrokeCap
        var dash: [SceneSource]
        var dashOffset: SceneSource?
    }

    struct TrimSource: Sendable {
        var start: SceneSource?
        var end: SceneSource?
        var offset: SceneSource?
    }

    /// The node's curves, read once from its `d`, in its own coordinates (pt), with what bounds
    /// the points of their outline at any transform (`Shape.outlinePoints`).
    final class Curves: Sendable, Equatable {
        let geometry: PathGeometry
        /// Lines and cubics.
        let segments: Int
        let cubics: Int
        let subpaths: Int
        /// Σ √L over the cubics, L = max(|p0 − 2p1 + p2|, |p1 − 2p2 + p3|) (SPEC §9 "Flattening"): a
        /// cubic becomes at most 1 + √(0.75·σ·L / ε) chords under a map that stretches by σ.
        let rootBends: Double
        /// Σ of the control polygons' lengths: at least the curves' length.
        let polygonLength: Double

        init(_ geometry: PathGeometry) {
            self.geometry = geometry
            var segments = 0, cubics = 0, rootBends = 0.0, length = 0.0
            for subpath in geometry.subpaths {
                var current = subpath.start
                for segment in subpath.segments {
                    segments += 1
                    switch segment {
                    case .line(let p):
                        length += (p - current).length
                    case let .cubic(c1, c2, p):
                        cubics += 1
                        rootBends += max((current - 2 * c1 + c2).length, (c1 - 2 * c2 + p).length).squareRoot()
                        length += (c1 - current).length + (c2 - c1).length + (p - c2).length
                    }
                    current = segment.end
                }
            }
            self.segments = segments
            self.cubics = cubics
            subpaths = geometry.subpaths.count
            self.rootBends = rootBends
            polygonLength = length
        }

        /// The farthest any point (control points included) lies from the origin along x or y.
        var reach: Double {
            geometry.subpaths.reduce(0.0) { far, subpath in
                subpath.segments.reduce(max(far, abs(subpath.start.x), abs(subpath.start.y))) { far, segment in
                    switch segment {
                    case .line(let p): max(far, abs(p.x), abs(p.y))
                    case let .cubic(a, b, p): max(far, abs(a.x), abs(a.y), abs(b.x), abs(b.y), abs(p.x), abs(p.y))
                    }
                }
            }
        }

        static func == (a: Curves, b: Curves) -> Bool { a === b || a.geometry == b.geometry }
    }

    static func read(_ f: NodeFields, in reader: inout SceneFileReader) throws -> PathNode {
        let field = f.field
        let curves = try reader.pathData(f["d"]!, field: "\(field).d")
        let ruleName = try reader.string(f["fillRule"], "\(field).fillRule") ?? "nonzero"
        guard let rule = PathCoverage.FillRule(rawValue: ruleName) else {
            throw reader.fail(f["fillRule"]!.value, "invalid \(field).fillRule '\(ThrobberError.echoed(ruleName))' (known: nonzero, evenodd)")
        }
        let fill = try f["fill"].map { try reader.paint($0.value, field: "\(field).fill", in: f.scope) } ?? .color(Self.black)
        var stroke: StrokeSource?
        if f["stroke"] != nil {
            let s = try reader.members("stroke", of: PathNode.self, f)
            let join = try reader.choice(s["join"], "\(field).stroke.join", default: StrokeJoin.miter)
            let cap = try reader.choice(s["cap"], "\(field).stroke.cap", default: StrokeCap.butt)
            let width = try s["width"].map { try reader.checkedNumber($0.value, field: "\(field).stroke.width", in: f.scope, "a width is at least 0") { $0 >= 0 } }
            let miterLimit = try s["miterLimit"].map {
                try reader.checkedNumber($0.value, field: "\(field).stroke.miterLimit", in: f.scope, "a miter limit is at least 1") { $0 >= 1 }
            }
            var dash: [SceneSource] = []
            if let member = s["dash"] {
                let items = try reader.array(member.value, "\(field).stroke.dash")
                dash = try items.enumerated().map {
                    try reader.checkedNumber($1, field: "\(field).stroke.dash[\($0)]", in: f.scope, "a dash length is at least 0") { $0 >= 0 }
                }
                let constants = dash.compactMap { NodeWork.constant($0)?.number }
                if !dash.isEmpty, constants.count == dash.count, constants.reduce(0, +) <= 0 {
                    throw reader.fail(member.value, "invalid \(field).stroke.dash: its lengths add up to 0; a dash pattern needs a length above 0 (or give [] for none)")
                }
            }
            stroke = StrokeSource(paint: try s["paint"].map { try reader.paint($0.value, field: "\(field).stroke.paint", in: f.scope) } ?? .color(Self.black),
                                  width: width, join: join, miterLimit: miterLimit, cap: cap, dash: dash,
                                  dashOffset: try s["dashOffset"].map { try reader.source($0.value, field: "\(field).stroke.dashOffset", type: .number, in: f.scope) })
        }
        var trim: TrimSource?
        if f["trim"] != nil {
            let t = try reader.members("trim", of: PathNode.self, f)
            func number(_ key: String) throws -> SceneSource? {
                try t[key].map { try reader.source($0.value, field: "\(field).trim.\(key)", type: .number, in: f.scope) }
            }
            trim = TrimSource(start: try number("start"), end: try number("end"), offset: try number("offset"))
        }
        let opacity = try f["opacity"].map {
            try reader.checkedNumber($0.value, field: "\(field).opacity", in: f.scope, "an opacity is in [0, 1]") { (0...1).contains($0) }
        }
        return PathNode(info: f.info, curves: curves, rule: rule, fill: fill, stroke: stroke, trim: trim, opacity: opacity)
    }

    /// SVG's default paint.
    static let black = SceneSource.expression(SceneExpression(constant: .color(RGBA(0, 0, 0, 1))))

    var slotsRead: Set<Int> {
        var sources: [SceneSource?] = [info.visible, opacity, trim?.start, trim?.end, trim?.offset]
        var points: [SceneDefinition.Point] = []
        func add(_ paint: PaintSource?) {
            switch paint {
            case .color(let c)?: sources.append(c)
            case let .linear(from, to, stops)?:
                points += [from, to]
                sources += stops.flatMap { [$0.offset, $0.color] }
            case let .radial(center, radius, highlight, angle, stops)?:
                points.append(center)
                sources += [radius, highlight, angle] + stops.flatMap { [$0.offset, $0.color] }
            case nil: break
            }
        }
        add(fill)
        if let stroke {
            add(stroke.paint)
            sources += [stroke.width, stroke.miterLimit, stroke.dashOffset] + stroke.dash
        }
        return points.reduce(ThrobberSceneFile.slotsRead(sources)) { $0.union($1.slotsRead) }
    }

    /// The items its paints surely draw: a paint of `"none"` draws none, and data of no segment
    /// nothing.
    func leastShapes(limit: Int) -> Int {
        guard curves.segments > 0 else { return 0 }
        return (fill == nil ? 0 : 1) + (stroke?.paint == nil ? 0 : 1)
    }

    func evaluate(in e: inout FileSceneEvaluator) throws -> (any ScenePrimitive)? {
        guard try e.visible(info) else { return nil }
        let place = info.place
        let fill = try self.fill.map { try Self.paint($0, "fill", in: &e, place) }
        var stroke: Shape.Stroke?
        if let s = self.stroke, let paintSource = s.paint {
            let paint = try Self.paint(paintSource, "stroke.paint", in: &e, place)
            let width = try e.length(s.width, "stroke.width", place, default: 1)
            let miterLimit = try e.number(s.miterLimit, "stroke.miterLimit", place, default: 4)
            guard miterLimit >= 1 else { throw e.failure(place, "stroke.miterLimit", "= \(formatNumber(miterLimit)): a miter limit is at least 1") }
            var dash: [Double] = []
            for (k, length) in s.dash.enumerated() { dash.append(try e.length(length, "stroke.dash[\(k)]", place)) }
            guard dash.isEmpty || dash.reduce(0, +) > 0 else {
                throw e.failure(place, "stroke.dash", "adds up to 0: a dash pattern needs a length above 0")
            }
            stroke = Shape.Stroke(paint: paint, width: width, join: s.join, miterLimit: miterLimit, cap: s.cap, dash: dash,
                                  dashOffset: try e.number(s.dashOffset, "stroke.dashOffset", place))
        }
        var trim: PathTrim?
        if let t = self.trim {
            // As an arc's (CAShapeLayer's): start and end clamped to [0, 1], the offset free.
            let start = min(max(try e.number(t.start, "trim.start", place), 0), 1)
            let end = min(max(try e.number(t.end, "trim.end", place, default: 1), 0), 1)
            let offset = try e.number(t.offset, "trim.offset", place)
            // A trim that keeps nothing draws nothing, fill and stroke alike.
            guard end > start else { return nil }
            if end - start < 1 { trim = PathTrim(start: start, end: end, offset: offset) }
        }
        let opacity = try e.number(self.opacity, "opacity", place, default: 1)
        guard (0...1).contains(opacity) else { throw e.failure(place, "opacity", "= \(formatNumber(opacity)): an opacity is in [0, 1]") }
        guard fill != nil || stroke != nil else { return nil }
        return Shape(curves: curves, rule: rule, fill: fill, stroke: stroke, trim: trim, opacity: opacity)
    }

    /// A paint's numbers now.
    static func paint(_ source: PaintSource, _ field: String, in e: inout FileSceneEvaluator, _ place: String) throws -> Shape.Paint {
        func stops(_ list: [StopSource], _ field: String, in e: inout FileSceneEvaluator) throws -> [Shape.Stop] {
            try list.enumerated().map { k, stop in
                let offset = try e.number(stop.offset, "\(field)[\(k)][0]", place)
                guard (0...1).contains(offset) else { throw e.failure(place, "\(field)[\(k)][0]", "= \(formatNumber(offset)): a stop's offset is in [0, 1]") }
                return Shape.Stop(offset: offset, color: try e.color(stop.color, "\(field)[\(k)][1]", place))
            }
        }
        switch source {
        case .color(let c):
            return .solid(try e.color(c, field, place))
        case let .linear(from, to, list):
            let (x0, y0) = try e.point(from, "\(field).linear.from", place)
            let (x1, y1) = try e.point(to, "\(field).linear.to", place)
            return .linear(from: PathPoint(x0, y0), to: PathPoint(x1, y1), stops: try stops(list, "\(field).linear.stops", in: &e))
        case let .radial(center, radius, highlight, angle, list):
            let (cx, cy) = try e.point(center, "\(field).radial.center", place)
            return .radial(center: PathPoint(cx, cy), radius: try e.length(radius, "\(field).radial.radius", place),
                           highlight: try e.number(highlight, "\(field).radial.highlight", place),
                           angle: try e.number(angle, "\(field).radial.angle", place), stops: try stops(list, "\(field).radial.stops", in: &e))
        }
    }
}

extension PathNode {
    /// A path in points: its curves in the node's own coordinates, the transform of its groups
    /// and copies (identity until placed), its paints there, its trim, its opacity.
    struct Shape: ScenePrimitive, Equatable {
        /// A stop of a gradient: its offset, 0…1, and its colour.
        struct Stop: Sendable, Equatable {
            var offset: Double
            var color: RGBA
        }

        /// A paint in the node's own coordinates (SPEC §9 "Paints").
        enum Paint: Sendable, Equatable {
            case solid(RGBA)
            case linear(from: PathPoint, to: PathPoint, stops: [Stop])
            case radial(center: PathPoint, radius: Double, highlight: Double, angle: Double, stops: [Stop])

            /// Every colour multiplied by `tint` (the placement's opacity goes to the item's).
            func tinted(_ tint: [Double]) -> Paint {
                func tinted(_ stops: [Stop]) -> [Stop] { stops.map { Stop(offset: $0.offset, color: Placement.painted($0.color, opacity: 1, tint: tint)) } }
                switch self {
                case .solid(let c): return .solid(Placement.painted(c, opacity: 1, tint: tint))
                case let .linear(from, to, stops): return .linear(from: from, to: to, stops: tinted(stops))
                case let .radial(center, radius, highlight, angle, stops):
                    return .radial(center: center, radius: radius, highlight: highlight, angle: angle, stops: tinted(stops))
                }
            }

            /// The DrawList's paint.
            var pathPaint: PathPaint {
                func stops(_ list: [Stop]) -> [GradientStop] { list.map { GradientStop(offset: $0.offset, color: $0.color) } }
                switch self {
                case .solid(let c): return .solid(PaintColor(c))
                case let .linear(from, to, list): return .linear(from: from, to: to, stops: stops(list))
                case let .radial(center, radius, highlight, angle, list):
                    return .radial(center: center, radius: radius, highlight: highlight, angle: angle, stops: stops(list))
                }
            }
        }

        /// A stroke in points (its width and dashes scale with the path).
        struct Stroke: Sendable, Equatable {
            var paint: Paint
            var width: Double
            var join: StrokeJoin
            var miterLimit: Double
            var cap: StrokeCap
            var dash: [Double]
            var dashOffset: Double
        }

        var curves: Curves
        var rule: PathCoverage.FillRule
        var fill: Paint?
        var stroke: Stroke?
        var trim: PathTrim?
        var opacity: Double
        /// Own coordinates → the canvas, pt.
        var transform = SceneTransform.identity

        func placed(at p: Placement, by evaluator: FileSceneEvaluator, place: String) throws -> Shape {
            var placed = self
            placed.transform = p.transform.then(transform)
            placed.fill = fill?.tinted(p.tint)
            if let stroke { placed.stroke?.paint = stroke.paint.tinted(p.tint) }
            placed.opacity = opacity * p.opacity
            return placed
        }

        /// At most how many points its items' outlines hold at any scale up to `Limits.scale`
        /// (SPEC §9): a cubic flattens to at most 1 + √(0.75·σ·L / ε) chords; a trim cuts a few
        /// more. A stroke's pieces are polygons of their own (PathStroker): a quadrilateral or two
        /// lobes (6 points at most) between consecutive samples — the chords, and the samples
        /// added where the normal turns (about 1.6·√(w / ε) a cubic) — a join or a cap at most a
        /// half turn of round arc, and each dash piece two caps and its cut ends; the number of
        /// dashes does not depend on the scale.
        var outlinePoints: Double {
            let epsilon = PathFlattening.epsilon
            let sigma = abs(transform.scale) * Limits.scale
            let subpaths = Double(curves.subpaths)
            let chords = Double(curves.segments) + subpaths + (0.75 * sigma / epsilon).squareRoot() * curves.rootBends
            var points = fill == nil ? 0 : chords + 2 * subpaths + 4
            if let stroke {
                let w = stroke.width * sigma
                let halfTurn = 2 * (2 + (0.75 * 0.47 * w / 2 / epsilon).squareRoot())
                let samples = Double(curves.cubics) * (32 + 2 * (w / epsilon).squareRoot())
                let join = stroke.join == .round ? halfTurn + 2 : 4
                let cap = stroke.cap == .round ? halfTurn + 2 : 4
                var pieces = subpaths
                let pattern = stroke.dash.reduce(0, +)
                if pattern > 0 {
                    let pairs = Double(stroke.dash.count % 2 == 1 ? stroke.dash.count : stroke.dash.count / 2)
                    pieces += (curves.polygonLength / pattern + 1) * pairs + subpaths
                }
                points += 6 * (chords + samples + 2 * subpaths) + Double(curves.segments + curves.subpaths) * join + pieces * (2 * cap + 12)
            }
            return points
        }

        /// The fill's item (`ID.fill`), then the stroke's (`ID.stroke`): the curves placed by the
        /// transform times the scale, a stroke's width and dashes times the scale and the
        /// transform's √|det| (SPEC §9 "Strokes").
        func lower(_ placed: PlacedPrimitive, into lowering: inout Lowering) {
            let s = lowering.scale, T = transform
            let (c, sn) = T.rotation == 0 ? (1.0, 0.0) : (cos(T.rotation), sin(T.rotation))
            let k = s * T.scale
            let px = PathTransform(a: k * c, b: k * sn, c: -k * sn, d: k * c, tx: s * T.offsetX, ty: s * T.offsetY)
            if let fill {
                lowering.append(DrawItem(ItemID(placed.id + ".fill"),
                                         Path(curves.geometry, transform: px, role: .fill(rule), trim: trim, paint: fill.pathPaint, opacity: opacity,
                                              width: lowering.width, height: lowering.height, cache: lowering.pathOutlines)))
            }
            if let stroke {
                let toPx = s * abs(T.scale)
                let style = StrokeStyle(width: stroke.width * toPx, join: stroke.join, miterLimit: stroke.miterLimit, cap: stroke.cap,
                                        dash: stroke.dash.map { $0 * toPx }, dashOffset: stroke.dashOffset * toPx)
                lowering.append(DrawItem(ItemID(placed.id + ".stroke"),
                                         Path(curves.geometry, transform: px, role: .stroke(style), trim: trim, paint: stroke.paint.pathPaint,
                                              opacity: opacity, width: lowering.width, height: lowering.height, cache: lowering.pathOutlines)))
            }
        }
    }
}
