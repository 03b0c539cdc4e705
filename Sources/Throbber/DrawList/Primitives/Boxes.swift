import Foundation

/// Rounded boxes painted in order: a HUD's square, any boxes a scene places one by one
/// (SPEC §0 "Instanced quads"). Boxes that are one box turned about a centre are a `BoxRing`.
public struct Boxes: Primitive {
    public static let kind = "Boxes"
    public var boxes: [QuadInstance]
    /// Each box's bounds (`QuadInstance.bounds`).
    public let boxBounds: [PixelRect]
    /// The union of the boxes' bounds.
    public let bounds: PixelRect

    /// `boxes`, painted in order, on a `width` × `height` canvas.
    public init(_ boxes: [QuadInstance], width: Int, height: Int) {
        self.boxes = boxes
        boxBounds = boxes.map { $0.bounds(width: width, height: height) }
        bounds = PixelRect.union(boxBounds)
    }

    public static let noun = (one: "box", many: "boxes")
    public var pixelWork: PixelWork { PixelWork(bounds: boxBounds) }

    public static func == (a: Boxes, b: Boxes) -> Bool { a.boxes == b.boxes && a.boxBounds == b.boxBounds }
}

/// One rounded box (SPEC §0 "Instanced quads"), in single precision as both renderers take it.
public struct QuadInstance: Sendable, Equatable {
    public var centerX: Float
    public var centerY: Float
    /// Half extent along the box's own x axis (radial for ticks and leaves).
    public var halfX: Float
    /// Half extent along the box's own y axis (tangential).
    public var halfY: Float
    /// The angle θ the box's x axis points at (y-down frame, clockwise).
    public var rotation: Float
    public var cornerRadius: Float
    public var color: PaintColor

    public init(centerX: Double, centerY: Double, halfX: Double, halfY: Double, rotation: Double,
                cornerRadius: Double, color: RGBA) {
        self.init(centerX: centerX, centerY: centerY, halfX: halfX, halfY: halfY, rotation: rotation,
                  cornerRadius: cornerRadius, paint: PaintColor(color))
    }

    /// A box of a colour already in the renderers' form.
    public init(centerX: Double, centerY: Double, halfX: Double, halfY: Double, rotation: Double,
                cornerRadius: Double, paint color: PaintColor) {
        self.centerX = Float(centerX)
        self.centerY = Float(centerY)
        self.halfX = Float(halfX)
        self.halfY = Float(halfY)
        self.rotation = Float(reducedPhase(rotation))
        self.cornerRadius = Float(cornerRadius)
        self.color = color
    }

    /// The pixels the box, grown for its anti-aliased edge (`Antialiasing.boxBoundsMargin`), can cover.
    public func bounds(width: Int, height: Int) -> PixelRect {
        let c = abs(Double(cos(rotation)))
        let s = abs(Double(sin(rotation)))
        let hx = Double(halfX), hy = Double(halfY)
        let ex = hx * c + hy * s
        let ey = hx * s + hy * c
        return PixelRect(minX: Double(centerX) - ex, minY: Double(centerY) - ey, maxX: Double(centerX) + ex,
                         maxY: Double(centerY) + ey, margin: Antialiasing.boxBoundsMargin, width: width, height: height)
    }
}
