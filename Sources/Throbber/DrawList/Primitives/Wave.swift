/// The region below y = amplitude·sin(k·(x − originX) + phase) + baseline, all in pixels
/// (SPEC §0 "below a curve"), intersected with an optional clip circle and an optional bottom edge.
public struct Wave: Primitive {
    public static let kind = "Wave"
    public static let noun = (one: "wave", many: "waves")
    public var originX: Float
    public var amplitude: Float
    /// Radians per pixel.
    public var k: Float
    /// Radians, already reduced modulo 2π in double precision.
    public var phase: Float
    public var baseline: Float
    public var clipCenterX: Float
    public var clipCenterY: Float
    /// Negative when there is no clip circle.
    public var clipRadius: Float
    /// The anti-aliased bottom edge (inside where y < bottom); `Wave.noBottom` when there is none.
    public var bottom: Float
    public var color: PaintColor
    public var bounds: PixelRect

    /// The bottom value meaning "no bottom edge": fill(y − 1e30) is 1 for every pixel.
    public static let noBottom: Float = 1e30

    /// A wave clipped to a circle (SPEC §1 steps 2–3).
    public init(originX: Double, amplitude: Double, k: Double, phase: Double, baseline: Double,
                clipCenterX: Double, clipCenterY: Double, clipRadius: Double, color: RGBA, width: Int, height: Int) {
        self.originX = Float(originX)
        self.amplitude = Float(amplitude)
        self.k = Float(k)
        self.phase = Float(reducedPhase(phase))
        self.baseline = Float(baseline)
        self.clipCenterX = Float(clipCenterX)
        self.clipCenterY = Float(clipCenterY)
        self.clipRadius = Float(clipRadius)
        self.bottom = Wave.noBottom
        self.color = PaintColor(color)
        let top = max(clipCenterY - clipRadius, baseline - abs(amplitude))
        bounds = PixelRect(minX: clipCenterX - clipRadius, minY: top, maxX: clipCenterX + clipRadius,
                           maxY: clipCenterY + clipRadius, width: width, height: height)
    }

    /// A wave across the canvas, filled down to `bottom` (anti-aliased) or, when `bottom` is nil,
    /// to the canvas edge (SPEC §2, §3).
    public init(originX: Double, amplitude: Double, k: Double, phase: Double, baseline: Double,
                bottom: Double?, color: RGBA, width: Int, height: Int) {
        self.originX = Float(originX)
        self.amplitude = Float(amplitude)
        self.k = Float(k)
        self.phase = Float(reducedPhase(phase))
        self.baseline = Float(baseline)
        clipCenterX = 0
        clipCenterY = 0
        clipRadius = -1
        self.bottom = bottom.map(Float.init) ?? Wave.noBottom
        self.color = PaintColor(color)
        bounds = PixelRect(minX: 0, minY: baseline - abs(amplitude), maxX: Double(width),
                           maxY: bottom ?? Double(height), width: width, height: height)
    }

    /// The clip circle grown by its anti-aliased edge, when there is one.
    public var annulus: Annulus? {
        clipRadius >= 0 ? Annulus(centerX: clipCenterX, centerY: clipCenterY, inner: 0, outer: clipRadius + Float(Antialiasing.boundsMargin)) : nil
    }
}
