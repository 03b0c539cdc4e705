import Foundation

/// A stroke along a circle of radius `radius` around the centre, from clock angle `start`
/// clockwise through `sweep` radians, with round caps (SPEC §0 "arc"); a sweep ≥ 2π is a full
/// circle stroke. With a mask rotation, the SVProgressHUD angle mask multiplies the coverage (SPEC §5).
public struct Arc: Primitive {
    public static let kind = "Arc"
    public static let noun = (one: "arc", many: "arcs")
    public var centerX: Float
    public var centerY: Float
    public var radius: Float
    public var lineWidth: Float
    /// Clock angle (0 at 12 o'clock, clockwise), reduced modulo 2π.
    public var start: Float
    public var sweep: Float
    /// Clock angle the mask starts from, reduced modulo 2π; negative when there is no mask.
    public var maskRotation: Float
    /// The direction (cos, sin in the y-down frame) of the mask's seam, the ray from the centre
    /// at clock angle `maskRotation` where the mask jumps from 1 back to 0; computed once in
    /// double precision so both renderers put a pixel on the same side of it (SPEC §5).
    public var maskDirectionX: Float
    public var maskDirectionY: Float
    public var color: PaintColor
    public var bounds: PixelRect

    /// The sweep stored for a closed circle: clearly above 2π in any precision, so GLSL
    /// (`sweep >= TWO_PI`) and Swift take the same branch.
    public static let fullCircleSweep: Float = 8

    /// Whether the stroke is a closed circle (no caps, δ = |p − c| − R).
    public var isFullCircle: Bool { sweep >= Arc.fullCircleSweep }

    public init(centerX: Double, centerY: Double, radius: Double, lineWidth: Double, start: Double,
                sweep: Double, maskRotation: Double? = nil, color: RGBA, width: Int, height: Int) {
        self.centerX = Float(centerX)
        self.centerY = Float(centerY)
        self.radius = Float(radius)
        self.lineWidth = Float(lineWidth)
        self.start = Float(reducedPhase(start))
        self.sweep = sweep >= 2 * .pi ? Arc.fullCircleSweep : Float(sweep)
        self.maskRotation = maskRotation.map { Float(reducedPhase($0)) } ?? -1
        // Clock angle φ is θ + π/2, so the seam points at θ = φ − π/2: (sin φ, −cos φ).
        let seam = reducedPhase(maskRotation ?? 0)
        maskDirectionX = Float(sin(seam))
        maskDirectionY = Float(-cos(seam))
        self.color = PaintColor(color)
        let reach = radius + lineWidth / 2
        bounds = PixelRect(minX: centerX - reach, minY: centerY - reach, maxX: centerX + reach,
                           maxY: centerY + reach, width: width, height: height)
    }

    /// The stroke's band grown by its anti-aliased edge: a thin circle's bounding square is
    /// almost all outside it.
    public var annulus: Annulus? {
        let reach = lineWidth / 2 + Float(Antialiasing.boundsMargin)
        return Annulus(centerX: centerX, centerY: centerY, inner: max(0, radius - reach), outer: radius + reach)
    }
}
