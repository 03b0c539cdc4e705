/// A colour over the whole canvas whose coverage grows with the distance from a centre:
/// c = min(1, |p − g| / reach), g = (centerX, centerY), all in pixels (SPEC §7 "Mask":
/// SVProgressHUD's gradient mask, black at alpha 0.75 around the canvas centre, reach the
/// canvas's shorter side).
public struct RadialGradient: Primitive {
    public static let kind = "RadialGradient"
    public static let noun = (one: "radial gradient", many: "radial gradients")
    public var centerX: Float
    public var centerY: Float
    /// The distance (px) at which the coverage reaches 1; positive.
    public var reach: Float
    public var color: PaintColor
    /// The whole canvas.
    public var bounds: PixelRect

    /// `color` over a `width` × `height` canvas, its coverage rising from 0 at (centerX, centerY)
    /// to 1 at `reach` px from it and beyond.
    ///
    /// - Precondition: `reach > 0`.
    public init(centerX: Double, centerY: Double, reach: Double, color: RGBA, width: Int, height: Int) {
        precondition(reach > 0 && Float(reach) > 0, "a radial gradient's reach is positive, not \(reach)")
        self.centerX = Float(centerX)
        self.centerY = Float(centerY)
        self.reach = Float(reach)
        self.color = PaintColor(color)
        bounds = PixelRect(x0: 0, y0: 0, x1: max(0, width), y1: max(0, height))
    }
}
