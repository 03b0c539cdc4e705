import Foundation

/// A path filled or stroked (SPEC §9): closed polygons of flattened chords (`PathOutline`) whose
/// coverage is the exact accumulated signed area in each pixel, read by a fill rule, painted with
/// a solid colour or a gradient times an opacity, source-over. A path node's fill and its stroke
/// are two items, the fill first.
///
/// The curves stay in the path's own space with the transform that places them, so that a path
/// that only moves or changes colour reuses its outline (`PathOutlineCache`); gradients are read
/// in that own space (SPEC §9 "Paints").
public struct Path: Primitive {
    public static let kind = "Path"
    public static let noun = (one: "path", many: "paths")

    /// What the item paints of its curves.
    public enum Role: Sendable, Hashable {
        /// The inside, by a fill rule.
        case fill(PathCoverage.FillRule)
        /// The stroke of the curves, `StrokeStyle` in px.
        case stroke(StrokeStyle)
        /// The stroke of the curves in their own space, `StrokeStyle` in own units, mapped to px
        /// by the transform: a non-uniform scale or a skew makes the pen elliptic, as Lottie's
        /// and SVG's strokes are (`PathOutline.build(_:transform:role:trim:)`).
        case ownSpaceStroke(StrokeStyle)
    }

    /// The curves, in the path's own space.
    public let geometry: PathGeometry
    /// Own space → px.
    public let transform: PathTransform
    public let role: Role
    /// The part of the curves kept, for fill and stroke alike; nil keeps everything.
    public let trim: PathTrim?
    /// The paint, in own space (a gradient's stops sorted by offset).
    public let paint: PathPaint
    /// Multiplies the paint's alpha, 0…1.
    public let opacity: Float
    /// px → own space, for gradients; nil when the transform is singular.
    public let paintInverse: PathTransform?
    /// What is filled, in px.
    public let outline: PathOutline
    public let bounds: PixelRect

    /// `geometry` placed by `transform` on a `width` × `height` canvas, painting `role` with
    /// `paint` at `opacity`; its outline taken from `cache` when it holds it.
    public init(_ geometry: PathGeometry, transform: PathTransform = .identity, role: Role, trim: PathTrim? = nil,
                paint: PathPaint, opacity: Double = 1, width: Int, height: Int, cache: PathOutlineCache? = nil) {
        self.geometry = geometry
        self.transform = transform
        self.role = role
        self.trim = trim.flatMap { $0.keepsEverything ? nil : $0 }
        switch paint {
        case .solid: self.paint = paint
        case let .linear(from, to, stops): self.paint = .linear(from: from, to: to, stops: PathPaint.sorted(stops))
        case let .radial(center, radius, highlight, angle, stops):
            self.paint = .radial(center: center, radius: radius, highlight: min(max(highlight, -0.99), 0.99), angle: angle,
                                 stops: PathPaint.sorted(stops))
        }
        self.opacity = Float(min(max(opacity, 0), 1))
        paintInverse = transform.inverse
        outline = cache?.outline(geometry, transform: transform, role: role, trim: self.trim)
            ?? PathOutline.build(geometry, transform: transform, role: role, trim: self.trim)
        if let e = outline.extent {
            bounds = PixelRect(minX: e.minX, minY: e.minY, maxX: e.maxX, maxY: e.maxY, margin: 0, width: width, height: height)
        } else {
            bounds = PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)
        }
    }

    /// Equal curves, placement, role, trim, paint and opacity: the outline and bounds follow.
    public static func == (a: Path, b: Path) -> Bool {
        a.transform == b.transform && a.role == b.role && a.trim == b.trim && a.paint == b.paint && a.opacity == b.opacity
            && a.bounds == b.bounds && (a.outline === b.outline || a.geometry == b.geometry)
    }
}

extension Path {
    /// The paint as both rows shade it (SPEC §9 "Paints"), worked out once here so they cannot
    /// differ: a paint of one colour (a gradient whose stops are all alike too) is solid; so is a
    /// gradient under a singular transform, which covers nothing, by its last stop (clear without
    /// stops); a radial gradient's highlight becomes its focal point f = c + h·r·(cos a, sin a),
    /// a in degrees by §0's θ convention (c itself without a highlight). Colours are straight,
    /// before the opacity.
    public enum Shading: Sendable, Equatable {
        case solid(PaintColor)
        case linear(from: PathPoint, to: PathPoint, stops: [GradientStop])
        case radial(center: PathPoint, radius: Double, focal: PathPoint, stops: [GradientStop])
    }

    /// `paint` as the rows shade it.
    public var shading: Shading {
        if let color = paint.uniformColor { return .solid(color) }
        switch paint {
        case .solid(let color):
            return .solid(color)
        case let .linear(from, to, stops):
            guard paintInverse != nil else { return .solid(stops.last?.color ?? PaintColor(.clear)) }
            return .linear(from: from, to: to, stops: stops)
        case let .radial(center, radius, highlight, angle, stops):
            guard paintInverse != nil else { return .solid(stops.last?.color ?? PaintColor(.clear)) }
            let a = angle * .pi / 180
            let focal = highlight == 0 ? center
                : PathPoint(center.x + highlight * radius * cos(a), center.y + highlight * radius * sin(a))
            return .radial(center: center, radius: radius, focal: focal, stops: stops)
        }
    }
}
