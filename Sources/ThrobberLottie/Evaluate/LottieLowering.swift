import Foundation
import Throbber

/// A shape layer's draws as `Path` items (SPEC §9), bottom first: each draw's paths become one
/// path, kept in their own space under one transform when they share it (so a layer that only
/// moves reuses its outlines), else placed in the layer's space.
enum LottieLowering {
    static func paths(_ shapes: LottieShapeEvaluator, placed toPixels: PathTransform, width: Int, height: Int,
                      cache: PathOutlineCache?) -> [(name: String, primitive: Path)] {
        var result: [(name: String, primitive: Path)] = []
        for draw in shapes.draws where draw.opacity > 0 {
            let entries = draw.entries.map { shapes.entries[$0] }.filter { !$0.geometry.subpaths.isEmpty }
            guard let first = entries.first else { continue }
            let stylePlaced = toPixels.concatenating(draw.transform)
            if case let .stroke(p, w, cap, join, miter, dash, offset) = draw.paint, !isSimilarity(stylePlaced) {
                // A pen stretched unevenly: the stroke is built in the style's own space.
                guard w > 0, let inverse = draw.transform.inverse else { continue }
                var geometry = PathGeometry()
                for entry in entries { geometry.subpaths += inverse.concatenating(entry.transform).apply(entry.geometry).subpaths }
                let style = StrokeStyle(width: w, join: join, miterLimit: miter, cap: cap, dash: dash, dashOffset: offset)
                result.append((name: draw.name, primitive: Path(geometry, transform: stylePlaced, role: .ownSpaceStroke(style), paint: p,
                                                                opacity: draw.opacity, width: width, height: height, cache: cache)))
                continue
            }
            let shared = entries.allSatisfy { $0.transform == first.transform }
            let own = shared ? first.transform : .identity
            // The style's space to the geometry's: what maps a gradient's points and its widths.
            let styleToGeometry: PathTransform
            if own == draw.transform {
                styleToGeometry = .identity
            } else if let inverse = own.inverse {
                styleToGeometry = inverse.concatenating(draw.transform)
            } else {
                continue
            }
            var geometry = PathGeometry()
            for entry in entries {
                geometry.subpaths += shared ? entry.geometry.subpaths : entry.transform.apply(entry.geometry).subpaths
            }
            let transform = toPixels.concatenating(own)
            let widthScale = toPixels.concatenating(draw.transform).lengthScale
            let role: Path.Role
            let paint: PathPaint
            switch draw.paint {
            case let .fill(p, evenOdd):
                role = .fill(evenOdd ? .evenodd : .nonzero)
                paint = mapped(p, by: styleToGeometry)
            case let .stroke(p, w, cap, join, miter, dash, offset):
                guard w > 0 else { continue }
                role = .stroke(StrokeStyle(width: w * widthScale, join: join, miterLimit: miter, cap: cap,
                                           dash: dash.map { $0 * widthScale }, dashOffset: offset * widthScale))
                paint = mapped(p, by: styleToGeometry)
            }
            result.append((name: draw.name, primitive: Path(geometry, transform: transform, role: role, paint: paint, opacity: draw.opacity,
                                                            width: width, height: height, cache: cache)))
        }
        return result
    }

    /// Whether `m` keeps shapes (a turn, a uniform scale, a mirror): a round pen stays round.
    static func isSimilarity(_ m: PathTransform) -> Bool {
        let scale = max(abs(m.a) + abs(m.b), abs(m.c) + abs(m.d), 1e-300)
        let tolerance = 1e-9 * scale
        return (abs(m.a - m.d) <= tolerance && abs(m.b + m.c) <= tolerance) || (abs(m.a + m.d) <= tolerance && abs(m.b - m.c) <= tolerance)
    }

    /// A paint defined in one space, in another: a gradient's points mapped, a radial one's
    /// radius scaled by the map's length scale and its highlight's angle turned with it.
    static func mapped(_ paint: PathPaint, by m: PathTransform) -> PathPaint {
        guard m != .identity else { return paint }
        switch paint {
        case .solid: return paint
        case let .linear(from, to, stops): return .linear(from: m.apply(from), to: m.apply(to), stops: stops)
        case let .radial(center, radius, highlight, angle, stops):
            let turn = atan2(m.b, m.a) * 180 / Double.pi
            return .radial(center: m.apply(center), radius: radius * m.lengthScale, highlight: highlight, angle: angle + turn, stops: stops)
        }
    }
}
