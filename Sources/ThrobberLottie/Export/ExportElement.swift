import Foundation
import Throbber

/// How one animated property is fitted to keyframes and written.
struct ChannelKind: Sendable, Equatable {
    enum Form: Sendable, Equatable {
        /// Numbers; `scalar` writes one number rather than an array.
        case vector(scalar: Bool)
        /// A Bézier path of n vertices, values v₀…vₙ₋₁, then the in tangents, then the out
        /// tangents (each x, y, tangents relative to their vertex).
        case path(closed: Bool)
    }

    var form: Form
    /// The largest difference a fitted value may have from a sampled one, per component.
    var tolerance: Double
    /// Decimals written.
    var digits: Int
    /// Values taken modulo this are unwrapped from frame to frame (angles, a wave's phase).
    var period: Double?

    /// A position or length in pt. Half the tolerance is the fitting's and half the rounding's:
    /// a written value is within the tolerance of the scene's.
    static func length(_ tolerance: Double) -> ChannelKind {
        ChannelKind(form: .vector(scalar: false), tolerance: tolerance / 2, digits: digits(for: tolerance))
    }

    static func scalarLength(_ tolerance: Double) -> ChannelKind {
        ChannelKind(form: .vector(scalar: true), tolerance: tolerance / 2, digits: digits(for: tolerance))
    }

    /// An angle in degrees, fitted so that a point `reach` pt from the pivot moves less than the tolerance.
    static func angle(_ tolerance: Double, reach: Double) -> ChannelKind {
        let degrees = tolerance / max(reach, 1) * 180 / .pi
        return ChannelKind(form: .vector(scalar: true), tolerance: degrees / 2, digits: digits(for: degrees), period: 360)
    }

    /// A colour's r, g, b in [0, 1]: half a step of 1/255.
    static let color = ChannelKind(form: .vector(scalar: false), tolerance: 0.5 / 255, digits: 3)
    /// An opacity in [0, 100]: half a step of 1/255.
    static let opacity = ChannelKind(form: .vector(scalar: true), tolerance: 50 / 255, digits: 1)
    /// A trim's percentage of a length `length` pt long.
    static func percent(_ tolerance: Double, length: Double) -> ChannelKind {
        let p = tolerance / max(length, 1) * 100
        return ChannelKind(form: .vector(scalar: true), tolerance: p / 2, digits: digits(for: p))
    }

    /// The same, written as an array (a scale's x and y).
    var asVector: ChannelKind {
        var kind = self
        kind.form = .vector(scalar: false)
        return kind
    }

    static func path(_ tolerance: Double, closed: Bool) -> ChannelKind {
        ChannelKind(form: .path(closed: closed), tolerance: tolerance / 2, digits: digits(for: tolerance))
    }

    /// Decimals enough that rounding moves a value by at most half of `tolerance`.
    static func digits(for tolerance: Double) -> Int {
        min(6, max(0, Int((-log10(max(tolerance, 1e-9)) - 1e-9).rounded(.up))))
    }
}

/// One animated property's value in one frame.
struct ChannelValue: Sendable {
    var kind: ChannelKind
    var value: [Double]
}

/// A paint whose colour may be a parameter's (`ColorBinding`): the channels its colour and
/// opacity are written in, and the colour it has.
struct ExportPaint: Sendable {
    var colorChannel: String
    var opacityChannel: String
    var color: PaintColor
}

/// What one draw item (or one part of one: a box of a ring) is in Lottie in one frame: a shape
/// group with placeholders, the values of its animated properties, the masks of the layer it
/// needs (a wave's clip circle), and its paints.
struct ExportElement: Sendable {
    /// Where it comes from: the same key in two frames is the same thing moving.
    var key: String
    /// The group (`"ty": "gr"`) with `.channel` placeholders.
    var group: LottieValue
    var channels: [String: ChannelValue]
    /// Layer masks (`masksProperties`), with placeholders; elements with masks get a layer each.
    var masks: [LottieValue] = []
    var paints: [ExportPaint] = []
    /// Where the group is one box of a ring (`ExportInstance`): drawn once in an asset and
    /// placed by turned precomposition layers rather than written again for every box.
    var instance: ExportInstance?
    /// The draw list's layer it is drawn in (`ExportLowering.lowerLayer`): its masks and
    /// opacity (channel "layer-o") are the Lottie layer's that holds it and the rest of that layer.
    var layer: String?

    /// The structure that must not change for two frames to be one track.
    var signature: String {
        var text = group.text + LottieValue.array(masks).text + (layer ?? "") + (instance.map { "\($0.centerX),\($0.centerY),\($0.count),\($0.step)" } ?? "")
        for name in channels.keys.sorted() {
            let c = channels[name]!
            text += "|\(name):\(c.value.count):\(c.kind.form)"
        }
        return text
    }
}

/// A box of a ring as its turned copy (issue 51: "paths shared, not repeated"): the group
/// draws the ring's box at its first step; a layer turns it about the ring's centre by `angle`
/// degrees, or, for a whole ring (`count` > 1), `count` copies `step` degrees apart are made by
/// precompositions that each double the one before (100 ticks: 7 assets, 16 layers).
struct ExportInstance: Sendable, Equatable {
    var centerX: Double
    var centerY: Double
    var angle: Double
    var count: Int
    var step: Double
}

/// Builds one element's group: shapes, paints and the group transform, naming channels.
struct GroupBuilder {
    let key: String
    let tolerance: Double
    var items: [LottieValue] = []
    var channels: [String: ChannelValue] = [:]
    var paints: [ExportPaint] = []

    init(key: String, tolerance: Double) {
        self.key = key
        self.tolerance = tolerance
    }

    /// A property holding a channel named `name` (unique in the group), of `kind`, now `value`.
    mutating func channel(_ name: String, _ kind: ChannelKind, _ value: [Double]) -> LottieValue {
        channels[name] = ChannelValue(kind: kind, value: value)
        return .channel(name)
    }

    mutating func path(_ name: String, _ bezier: Bezier) {
        items.append(.object([("ty", .string("sh")), ("ks", channel(name, .path(tolerance, closed: bezier.closed), bezier.values))]))
    }

    mutating func fill(_ color: PaintColor, opacity: Double = 1, evenOdd: Bool = false) {
        let n = paints.count
        items.append(.object([("ty", .string("fl")), ("c", colorChannel("c\(n)", color)),
                              ("o", channel("o\(n)", .opacity, [Double(color.a) * opacity * 100])),
                              ("r", .integer(evenOdd ? 2 : 1))]))
        paints.append(ExportPaint(colorChannel: "c\(n)", opacityChannel: "o\(n)", color: color))
    }

    mutating func stroke(_ color: PaintColor, opacity: Double = 1, width: Double, cap: StrokeCap, join: StrokeJoin,
                         miterLimit: Double = 4, dash: [Double] = [], dashOffset: Double = 0) {
        let n = paints.count
        var members: [(String, LottieValue)] = [
            ("ty", .string("st")), ("c", colorChannel("c\(n)", color)),
            ("o", channel("o\(n)", .opacity, [Double(color.a) * opacity * 100])),
            ("w", channel("w\(n)", .scalarLength(tolerance), [width])),
            ("lc", .integer(cap == .butt ? 1 : cap == .round ? 2 : 3)),
            ("lj", .integer(join == .miter ? 1 : join == .round ? 2 : 3)),
        ]
        if join == .miter { members.append(("ml", .number(miterLimit, digits: 3))) }
        if !dash.isEmpty {
            // Lottie repeats dash, gap pairs: an odd list is written twice, as SVG reads it.
            let pattern = dash.count % 2 == 1 ? dash + dash : dash
            var entries: [LottieValue] = pattern.enumerated().map { k, length in
                .object([("n", .string(k % 2 == 0 ? "d" : "g")), ("v", channel("d\(n)-\(k)", .scalarLength(tolerance), [length]))])
            }
            entries.append(.object([("n", .string("o")), ("v", channel("d\(n)-o", .scalarLength(tolerance), [dashOffset]))]))
            members.append(("d", .array(entries)))
        }
        items.append(.object(members))
        paints.append(ExportPaint(colorChannel: "c\(n)", opacityChannel: "o\(n)", color: color))
    }

    mutating func colorChannel(_ name: String, _ color: PaintColor) -> LottieValue {
        channel(name, .color, [Double(color.r), Double(color.g), Double(color.b)])
    }

    /// The group, with a transform of position `position`, rotation `rotation` (degrees,
    /// clockwise) about the origin, and the presence-and-fade opacity every group has.
    /// `radius`: the group scales a shape drawn at `unitRadius` pt to it (its scale in % is the
    /// radius in pt): a circle that grows is one shape and a few keys.
    func element(position: [Double]? = nil, rotation: Double? = nil, radius: Double? = nil, reach: Double = 1) -> ExportElement {
        var builder = self
        var transform: [(String, LottieValue)] = [("ty", .string("tr"))]
        if let position { transform.append(("p", builder.channel("tp", .length(tolerance), position))) }
        if let rotation { transform.append(("r", builder.channel("tr", .angle(tolerance, reach: reach), [rotation]))) }
        if let radius { transform.append(("s", builder.channel("ts", .length(tolerance), [radius, radius]))) }
        transform.append(("o", builder.channel("to", .opacity, [100])))
        let group = LottieValue.object([("ty", .string("gr")), ("nm", .string(key)),
                                        ("it", .array(builder.items + [.object(transform)]))])
        return ExportElement(key: key, group: group, channels: builder.channels, paints: builder.paints)
    }
}

/// A Bézier path as Lottie holds it: vertices with in and out tangents relative to them.
struct Bezier: Sendable {
    var vertices: [PathPoint] = []
    var inTangents: [PathPoint] = []
    var outTangents: [PathPoint] = []
    var closed: Bool

    init(closed: Bool) { self.closed = closed }

    /// Flattened v, i, o.
    var values: [Double] {
        (vertices + inTangents + outTangents).flatMap { [$0.x, $0.y] }
    }

    mutating func add(_ p: PathPoint, in i: PathPoint = PathPoint(0, 0), out o: PathPoint = PathPoint(0, 0)) {
        vertices.append(p)
        inTangents.append(i)
        outTangents.append(o)
    }

    /// Each subpath of `geometry` (cubic and line segments) as a Bézier path.
    static func paths(_ geometry: PathGeometry) -> [Bezier] {
        geometry.subpaths.compactMap { subpath in
            var bezier = Bezier(closed: subpath.closed)
            bezier.add(subpath.start)
            for segment in subpath.segments {
                let from = bezier.vertices[bezier.vertices.count - 1]
                switch segment {
                case .line(let to):
                    bezier.add(to)
                case let .cubic(c1, c2, to):
                    bezier.outTangents[bezier.outTangents.count - 1] = c1 - from
                    bezier.add(to, in: c2 - to)
                }
            }
            // A closed subpath whose last segment ends on its start: Lottie closes it itself.
            if subpath.closed, bezier.vertices.count > 1, let last = bezier.vertices.last, last == subpath.start {
                bezier.inTangents[0] = bezier.inTangents.removeLast()
                bezier.vertices.removeLast()
                bezier.outTangents.removeLast()
            }
            return bezier.vertices.isEmpty ? nil : bezier
        }
    }

    /// An open arc of radius `r` about the origin from clock fraction `from` to `to` (turns from
    /// 12 o'clock, clockwise, y down), one cubic for every 1/32 turn or less (each within
    /// 2·10⁻⁹·r of the circle).
    static func arc(radius r: Double, from: Double, to: Double) -> Bezier {
        var bezier = Bezier(closed: false)
        let count = max(1, Int(((to - from) * 32).rounded(.up)))
        let step = (to - from) * 2 * Double.pi / Double(count)
        let handle = 4.0 / 3 * tan(step / 4) * r
        for k in 0...count {
            let a = -Double.pi / 2 + from * 2 * Double.pi + Double(k) * step
            let tangent = PathPoint(-sin(a), cos(a))
            bezier.add(PathPoint(r * cos(a), r * sin(a)), in: k == 0 ? PathPoint(0, 0) : -handle * tangent,
                       out: k == count ? PathPoint(0, 0) : handle * tangent)
        }
        return bezier
    }

    /// A circle of radius `r` about `c` from 12 o'clock clockwise (y down), in `segments` cubic
    /// arcs: 8 put it within 4·10⁻⁶·r of the circle (4, Lottie's ellipse, 2.7·10⁻⁴·r).
    static func circle(center c: PathPoint, radius r: Double, segments: Int = 8) -> Bezier {
        var bezier = Bezier(closed: true)
        let step = 2 * Double.pi / Double(segments)
        let handle = 4.0 / 3 * tan(step / 4) * r
        for k in 0..<segments {
            let a = -Double.pi / 2 + Double(k) * step
            let p = PathPoint(c.x + r * cos(a), c.y + r * sin(a))
            let tangent = PathPoint(-sin(a), cos(a))
            bezier.add(p, in: -handle * tangent, out: handle * tangent)
        }
        return bezier
    }
}

/// The radius (pt) of the circles a group scales to a radius (`GroupBuilder.element(radius:)`).
let unitRadius = 100.0

prefix func - (p: PathPoint) -> PathPoint { PathPoint(-p.x, -p.y) }
