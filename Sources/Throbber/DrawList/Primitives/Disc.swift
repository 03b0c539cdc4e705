/// A filled circle: coverage = fill(|p − c| − r) (SPEC §0).
public struct Disc: Primitive {
    public static let kind = "Disc"
    public static let noun = (one: "disc", many: "discs")
    public var centerX: Float
    public var centerY: Float
    public var radius: Float
    public var color: PaintColor
    public var bounds: PixelRect

    public init(centerX: Double, centerY: Double, radius: Double, color: RGBA, width: Int, height: Int) {
        self.centerX = Float(centerX)
        self.centerY = Float(centerY)
        self.radius = Float(radius)
        self.color = PaintColor(color)
        bounds = PixelRect(minX: centerX - radius, minY: centerY - radius, maxX: centerX + radius,
                           maxY: centerY + radius, width: width, height: height)
    }

    /// The disc grown by its anti-aliased edge: a disc's bounding square wastes a fifth of its pixels.
    public var annulus: Annulus? {
        Annulus(centerX: centerX, centerY: centerY, inner: 0, outer: radius + Float(Antialiasing.boundsMargin))
    }
}
