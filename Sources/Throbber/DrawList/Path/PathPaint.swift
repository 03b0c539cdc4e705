/// A colour at an offset of a gradient (SPEC §9 "Paints").
public struct GradientStop: Sendable, Hashable {
    /// Where along the gradient, 0…1.
    public var offset: Float
    public var color: PaintColor

    public init(offset: Double, color: RGBA) {
        self.offset = Float(min(max(offset, 0), 1))
        self.color = PaintColor(color)
    }
}

/// What a path's fill or stroke is painted with (SPEC §9 "Paints"): one colour, or a gradient
/// defined in the path's own space (a renderer takes each pixel centre back through the path's
/// transform to read it).
public enum PathPaint: Sendable, Hashable {
    case solid(PaintColor)
    /// t = clamp(((q − from)·(to − from)) / |to − from|², 0, 1).
    case linear(from: PathPoint, to: PathPoint, stops: [GradientStop])
    /// t = clamp(|q − center| / radius, 0, 1); with a highlight (`highlight` h a fraction of the
    /// radius, |h| ≤ 0.99, toward `angle` degrees) the focal form of SPEC §9.
    case radial(center: PathPoint, radius: Double, highlight: Double, angle: Double, stops: [GradientStop])

    /// The stops sorted by offset, stably (SPEC §9: where several share an offset, the last holds there).
    public static func sorted(_ stops: [GradientStop]) -> [GradientStop] {
        stops.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }.map(\.element)
    }

    /// The colour when the paint is one colour everywhere (solid, or a gradient of one stop or
    /// of stops all alike).
    public var uniformColor: PaintColor? {
        switch self {
        case .solid(let color): return color
        case .linear(_, _, let stops), .radial(_, _, _, _, let stops):
            guard let first = stops.first, stops.allSatisfy({ $0.color == first.color }) else { return nil }
            return first.color
        }
    }
}
