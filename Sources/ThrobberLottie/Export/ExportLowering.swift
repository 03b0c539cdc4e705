import Foundation
import Throbber

/// A draw list's items as Lottie shape groups (issue 51; docs/lottie.md "Writing Lottie"): each
/// primitive by what it means, not by its pixels — a disc is a circle, a ring of boxes is boxes,
/// a wave is a two-wavelength sine band that moves, an arc is a trimmed circle.
enum ExportLowering {
    /// The angle mask (SPEC §5) in this many steps of opacity: each step is within 1.25/N/2 of the
    /// mask's value.
    static let angleMaskSteps = 32

    /// Every element of `list` in paint order, the background first.
    /// `text`: the same frame drawn at `textScale` times the scale, whose glyphs are placed to
    /// a quarter of its finer pixels: each glyph's outline is taken from it, scaled back.
    static func elements(of list: DrawList, tolerance: Double, text: DrawList? = nil, textScale: Double = 1) throws -> [ExportElement] {
        var out: [ExportElement] = []
        if list.background.a > 0 {
            var g = GroupBuilder(key: "background", tolerance: tolerance)
            g.items.append(rectangle(&g, "r", center: [Double(list.width) / 2, Double(list.height) / 2],
                                     size: [Double(list.width), Double(list.height)], radius: 0))
            g.fill(list.background)
            out.append(g.element())
        }
        for item in list.items {
            if let glyphs = item.primitive as? Glyphs {
                let fine = text?.items.first { $0.id == item.id }?.primitive as? Glyphs
                out.append(try glyphElement(fine ?? glyphs, key: item.id.name, resources: fine != nil ? text!.resources : list.resources,
                                            scale: fine != nil ? 1 / textScale : 1, tolerance: tolerance))
                continue
            }
            try lower(item, into: &out, list: list, tolerance: tolerance)
        }
        return out
    }

    static func rectangle(_ g: inout GroupBuilder, _ name: String, center: [Double], size: [Double], radius: Double) -> LottieValue {
        .object([("ty", .string("rc")), ("d", .integer(1)),
                 ("p", g.channel(name + "p", .length(g.tolerance), center)),
                 ("s", g.channel(name + "s", .length(g.tolerance), size)),
                 ("r", g.channel(name + "r", .scalarLength(g.tolerance), [radius]))])
    }

    static func lower(_ item: DrawItem, into out: inout [ExportElement], list: DrawList, tolerance: Double) throws {
        let key = item.id.name
        switch item.primitive {
        case let disc as Disc:
            var g = GroupBuilder(key: key, tolerance: tolerance)
            g.path("s", Bezier.circle(center: PathPoint(0, 0), radius: unitRadius))
            g.fill(disc.color)
            out.append(g.element(position: [Double(disc.centerX), Double(disc.centerY)], radius: Double(disc.radius)))
        case let wave as Wave:
            out.append(waveElement(wave, key: key, list: list, tolerance: tolerance))
        case let arc as Arc:
            out.append(arcElement(arc, key: key, tolerance: tolerance))
        case let boxes as Boxes:
            for (k, box) in boxes.boxes.enumerated() {
                out.append(boxElement(box, key: "\(key)/\(k)", tolerance: tolerance))
            }
        case let ring as BoxRing:
            let step = 360 / Double(ring.steps)
            if ring.colors.count == 1 && ring.slots == Array(0..<ring.steps) {
                var element = boxElement(ring.box(slot: 0, color: ring.color(at: 0)), key: key, tolerance: tolerance)
                element.instance = ExportInstance(centerX: ring.centerX, centerY: ring.centerY, angle: 0, count: ring.steps, step: step)
                out.append(element)
            } else if ring.colors.count == 1 {
                for slot in ring.slots {
                    var element = boxElement(ring.box(slot: 0, color: ring.color(at: 0)), key: "\(key)/\(slot)", tolerance: tolerance)
                    element.instance = ExportInstance(centerX: ring.centerX, centerY: ring.centerY, angle: Double(slot) * step, count: 1, step: step)
                    out.append(element)
                }
            } else {
                for (k, slot) in ring.slots.enumerated() {
                    out.append(boxElement(ring.box(slot: slot, color: ring.color(at: k)), key: "\(key)/\(slot)", tolerance: tolerance))
                }
            }
        case let strokes as Strokes:
            var g = GroupBuilder(key: key, tolerance: tolerance)
            let s = strokes.segments
            func point(_ x: Float, _ y: Float) -> PathPoint { PathPoint(Double(x), Double(y)) }
            if s.count == 2 && s[0].x1 == s[1].x0 && s[0].y1 == s[1].y0 {
                var polyline = Bezier(closed: false)
                polyline.add(point(s[0].x0, s[0].y0))
                polyline.add(point(s[0].x1, s[0].y1))
                polyline.add(point(s[1].x1, s[1].y1))
                g.path("p0", polyline)
            } else {
                for (k, segment) in s.enumerated() {
                    var line = Bezier(closed: false)
                    line.add(point(segment.x0, segment.y0))
                    line.add(point(segment.x1, segment.y1))
                    g.path("p\(k)", line)
                }
            }
            g.stroke(strokes.color, width: Double(strokes.lineWidth), cap: .round, join: .round)
            out.append(g.element())
        case let gradient as RadialGradient:
            out.append(radialElement(gradient, key: key, list: list, tolerance: tolerance))
        case let path as Path:
            out.append(try pathElement(path, key: key, tolerance: tolerance))
        case let glyphs as Glyphs:
            out.append(try glyphElement(glyphs, key: key, resources: list.resources, scale: 1, tolerance: tolerance))
        case let layer as Layer:
            try lowerLayer(layer, key: key, into: &out, list: list, tolerance: tolerance)
        case is Bitmap:
            throw refusal(key, "draws an image")
        default:
            throw refusal(key, "is a \(type(of: item.primitive).kind)")
        }
    }

    static func refusal(_ key: String, _ what: String) -> ThrobberError {
        ThrobberError("export: '\(key)' \(what), which the Lottie export does not write; export refuses the scene rather than drop it",
                      kind: .badData)
    }

    // MARK: - Boxes

    static func boxElement(_ box: QuadInstance, key: String, tolerance: Double) -> ExportElement {
        var g = GroupBuilder(key: key, tolerance: tolerance)
        let hx = Double(box.halfX), hy = Double(box.halfY)
        g.items.append(rectangle(&g, "r", center: [0, 0], size: [2 * hx, 2 * hy], radius: Double(box.cornerRadius)))
        g.fill(box.color)
        return g.element(position: [Double(box.centerX), Double(box.centerY)], rotation: Double(box.rotation) * 180 / .pi,
                         reach: (hx * hx + hy * hy).squareRoot())
    }

    /// `value` with every channel placeholder's name prefixed.
    static func renamed(_ value: LottieValue, prefix: String) -> LottieValue {
        switch value {
        case .channel(let name): .channel(prefix + name)
        case .array(let items): .array(items.map { renamed($0, prefix: prefix) })
        case .object(let members): .object(members.map { ($0.0, renamed($0.1, prefix: prefix)) })
        default: value
        }
    }

    // MARK: - Arcs

    static func arcElement(_ arc: Arc, key: String, tolerance: Double) -> ExportElement {
        // A circle of `unitRadius` the group scales to the arc's radius; the width in its units.
        let radius = Double(arc.radius)
        let width = Double(arc.lineWidth) * unitRadius / max(radius, 1e-6)
        let length = 2 * .pi * radius
        let center = [Double(arc.centerX), Double(arc.centerY)]
        var g = GroupBuilder(key: key, tolerance: tolerance)
        func trimmed(_ g: inout GroupBuilder, _ name: String, from: Double, to: Double, offset: Double) -> LottieValue {
            .object([("ty", .string("tm")),
                     ("s", g.channel(name + "s", .percent(tolerance, length: length), [from * 100])),
                     ("e", g.channel(name + "e", .percent(tolerance, length: length), [to * 100])),
                     ("o", g.channel(name + "o", .angle(tolerance, reach: radius), [offset])), ("m", .integer(1))])
        }
        if arc.maskRotation < 0 {
            g.path("s", Bezier.circle(center: PathPoint(0, 0), radius: unitRadius))
            if arc.isFullCircle {
                g.stroke(arc.color, width: width, cap: .butt, join: .round)
            } else {
                g.items.append(trimmed(&g, "m", from: 0, to: Double(arc.sweep) / (2 * .pi), offset: Double(arc.start) * 180 / .pi))
                g.stroke(arc.color, width: width, cap: .round, join: .round)
            }
            return g.element(position: center, radius: max(radius, 1e-6))
        }
        // SPEC §5's angle mask: pieces of the arc between steps of the mask, each an arc at the
        // mask's value in its middle, the group turned to the mask's seam. The first
        // and last pieces carry the round caps.
        let seam = Double(arc.maskRotation)
        var from = (Double(arc.start) - seam) / (2 * .pi)
        from -= from.rounded(.down)
        let to = from + (arc.isFullCircle ? 1 : Double(arc.sweep) / (2 * .pi))
        let n = Double(angleMaskSteps)
        var cuts = [from]
        var step = (from * n).rounded(.down) + 1
        while step / n < to {
            cuts.append(step / n)
            step += 1
        }
        cuts.append(to)
        let pieces = Array(zip(cuts, cuts.dropFirst())).filter { $0.1 > $0.0 }
        for (k, (a, b)) in pieces.enumerated() {
            var x = (a + b) / 2
            x -= x.rounded(.down)
            let m = 0.5 * x + 1.5 * x * x - x * x * x
            var sub = GroupBuilder(key: "\(key)/\(k)", tolerance: tolerance)
            // The piece itself, not a trimmed circle: a cubic, not the circle again for each.
            sub.path("s", Bezier.arc(radius: unitRadius, from: a, to: b))
            let capped = !arc.isFullCircle && (k == 0 || k == pieces.count - 1)
            sub.stroke(arc.color, width: width, cap: capped ? .round : .butt, join: .round)
            var element = sub.element()
            // The piece's mask value is its group's opacity: the stroke keeps the colour's own.
            element.channels["to"]!.value = [m * 100]
            for (name, value) in element.channels { g.channels["p\(k)" + name] = value }
            for paint in element.paints {
                g.paints.append(ExportPaint(colorChannel: "p\(k)" + paint.colorChannel, opacityChannel: "p\(k)" + paint.opacityChannel,
                                            color: paint.color))
            }
            g.items.append(renamed(element.group, prefix: "p\(k)"))
        }
        return g.element(position: center, rotation: seam * 180 / .pi, radius: max(radius, 1e-6), reach: radius + Double(arc.lineWidth) / 2)
    }

    // MARK: - Waves

    /// A wave's band, placed later (`ExportTracks.placeWaves`) once the whole export's travel is
    /// known: its channel "s" holds amplitude, k, depth, and the left and right of what it must cover.
    static func waveElement(_ wave: Wave, key: String, list: DrawList, tolerance: Double) -> ExportElement {
        var g = GroupBuilder(key: key, tolerance: tolerance)
        let k = Double(wave.k)
        let hasClip = wave.clipRadius >= 0
        let bottom: Double = hasClip ? Double(wave.clipCenterY + wave.clipRadius) + 2
            : wave.bottom == Wave.noBottom ? Double(list.height) + 2 : Double(wave.bottom)
        let left = hasClip ? Double(wave.clipCenterX - wave.clipRadius) - 2 : -2
        let right = hasClip ? Double(wave.clipCenterX + wave.clipRadius) + 2 : Double(list.width) + 2
        // y = A·sin(k·(x − x0) + φ) + b = A·sin(k·u) + b with u = x − X, X = x0 − φ/k.
        let origin = Double(wave.originX) - Double(wave.phase) / k
        // The last value says whether the band's bottom is free (below a clip circle or the
        // canvas) rather than an edge that is drawn.
        let free: Double = hasClip || wave.bottom == Wave.noBottom ? 1 : 0
        g.channels[waveChannel] = ChannelValue(kind: .length(tolerance),
                                               value: [Double(wave.amplitude), k, bottom - Double(wave.baseline), left, right, free])
        g.items.append(.object([("ty", .string("sh")), ("ks", .channel("s"))]))
        g.fill(wave.color)
        var element = g.element(position: [origin, Double(wave.baseline)])
        // The band's vertical scale: the amplitude, where the band can scale (`placeWaves`).
        element.channels["ty"] = ChannelValue(kind: ChannelKind.percent(tolerance, length: 100).asVector, value: [100, 100])
        element.group = ExportLowering.withScale(element.group, channel: "ty")
        element.channels["tp"]!.kind.period = 2 * .pi / k
        if hasClip {
            var clip = GroupBuilder(key: key, tolerance: tolerance)
            let pt = clip.channel("m", .path(tolerance, closed: true),
                                  Bezier.circle(center: PathPoint(Double(wave.clipCenterX), Double(wave.clipCenterY)),
                                                radius: Double(wave.clipRadius)).values)
            element.channels["m"] = clip.channels["m"]
            element.masks = [.object([("inv", .bool(false)), ("mode", .string("a")), ("pt", pt),
                                      ("o", .fixed(.integer(100))), ("x", .fixed(.integer(0))), ("nm", .string("clip"))])]
        }
        return element
    }

    static let waveChannel = "wave"

    /// `group` with its transform scaled by `channel`.
    static func withScale(_ group: LottieValue, channel: String) -> LottieValue {
        guard case .object(var members) = group, let k = members.firstIndex(where: { $0.0 == "it" }),
              case .array(var items) = members[k].1, case .object(var transform)? = items.last else { return group }
        transform.insert(("s", .channel(channel)), at: transform.count - 1)
        items[items.count - 1] = .object(transform)
        members[k].1 = .array(items)
        return .object(members)
    }

    /// The band below A·sin(k·u) from u0 to u1 (multiples of the wavelength) down to `depth`, in
    /// 8 cubic pieces a wavelength (each within 0.09 % of A of the sine).
    static func waveBand(amplitude a: Double, k: Double, depth: Double, from u0: Double, to u1: Double) -> Bezier {
        let step = Double.pi / 4 / k
        let count = Int(((u1 - u0) / step).rounded())
        var band = Bezier(closed: true)
        for j in 0...count {
            let u = u0 + Double(j) * step
            let y = a * sin(k * u), slope = a * k * cos(k * u)
            let h = step / 3
            band.add(PathPoint(u, y), in: j == 0 ? PathPoint(0, 0) : PathPoint(-h, -h * slope),
                     out: j == count ? PathPoint(0, 0) : PathPoint(h, h * slope))
        }
        band.add(PathPoint(u1, depth))
        band.add(PathPoint(u0, depth))
        return band
    }

    // MARK: - Gradients, paths, glyphs

    static func radialElement(_ gradient: RadialGradient, key: String, list: DrawList, tolerance: Double) -> ExportElement {
        var g = GroupBuilder(key: key, tolerance: tolerance)
        let w = Double(list.width), h = Double(list.height)
        g.items.append(rectangle(&g, "r", center: [w / 2, h / 2], size: [w + 2, h + 2], radius: 0))
        let c = gradient.color
        let cx = Double(gradient.centerX), cy = Double(gradient.centerY)
        // Coverage min(1, d / reach) is the colour's opacity rising linearly from the centre.
        let stops: [Double] = [0, Double(c.r), Double(c.g), Double(c.b), 1, Double(c.r), Double(c.g), Double(c.b), 0, 0, 1, 1]
        g.items.append(.object([("ty", .string("gf")), ("t", .integer(2)),
                                ("s", g.channel("gs", .length(tolerance), [cx, cy])),
                                ("e", g.channel("ge", .length(tolerance), [cx + Double(gradient.reach), cy])),
                                ("g", .object([("p", .integer(2)), ("k", .fixed(.numbers(stops, digits: 3)))])),
                                ("o", g.channel("o0", .opacity, [Double(c.a) * 100])), ("r", .integer(1))]))
        return g.element()
    }
}
