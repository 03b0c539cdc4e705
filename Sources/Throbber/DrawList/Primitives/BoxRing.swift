import Foundation

/// Rounded boxes that are one box turned about a centre by whole steps of a turn: a tick ring,
/// spinner leaves (SPEC §1, §4). What an author means by "N ticks around the ball": the box at
/// angle 0, how many steps make a turn, which steps are drawn and in which colours.
///
/// The box of slot s is the box at angle 0 turned about the centre by
/// α = start + s·(2π / steps): its centre (cx + ox·cos α − oy·sin α, cy + ox·sin α + oy·cos α),
/// its rotation `boxRotation` + α, all in double precision (`boxes()`), then in single precision
/// as every box. A renderer may instead find the few boxes near a pixel from its angle (GL's ring
/// layer), or keep the boxes it placed while the ring is unchanged (the CPU renderer): the value is
/// a few numbers and the slots, cheap to build and to compare every frame.
public struct BoxRing: Primitive {
    public static let kind = "BoxRing"
    /// The centre the boxes turn about (px).
    public var centerX: Double
    public var centerY: Double
    /// The box at angle 0: its centre's offset from the ring's centre (px), half extents (px),
    /// rotation (radians, y down, clockwise) and corner radius (px).
    public var offsetX: Double
    public var offsetY: Double
    public var halfX: Double
    public var halfY: Double
    public var boxRotation: Double
    public var cornerRadius: Double
    /// The angle of slot 0 (radians).
    public var start: Double
    /// Steps in a full turn (at least 1).
    public var steps: Int
    /// The steps drawn, in paint order.
    public var slots: [Int]
    /// One colour for every box, or one per slot.
    public var colors: [PaintColor]
    /// The canvas the ring is clipped to.
    public var width: Int
    public var height: Int

    /// A ring of `slots.count` boxes.
    ///
    /// - Precondition: `steps ≥ 1`; `colors` holds one colour or one per slot.
    public init(centerX: Double, centerY: Double, offsetX: Double, offsetY: Double, halfX: Double, halfY: Double,
                boxRotation: Double, cornerRadius: Double, start: Double, steps: Int, slots: [Int], colors: [RGBA],
                width: Int, height: Int) {
        precondition(steps >= 1, "a ring has at least one step")
        precondition(colors.count == 1 || colors.count == slots.count, "one colour, or one per slot")
        self.centerX = centerX
        self.centerY = centerY
        self.offsetX = offsetX
        self.offsetY = offsetY
        self.halfX = halfX
        self.halfY = halfY
        self.boxRotation = boxRotation
        self.cornerRadius = cornerRadius
        self.start = start
        self.steps = steps
        self.slots = slots
        self.colors = colors.map(PaintColor.init)
        self.width = width
        self.height = height
    }

    /// The colour of the box at `index` in paint order.
    public func color(at index: Int) -> PaintColor { colors.count == 1 ? colors[0] : colors[index] }

    /// The angle slot `slot` turns the box at angle 0 by.
    public func angle(slot: Int) -> Double { start + Double(slot) * (2 * Double.pi / Double(steps)) }

    /// The box of `slot`, in `color`.
    public func box(slot: Int, color: PaintColor) -> QuadInstance {
        let alpha = angle(slot: slot)
        return QuadInstance(centerX: centerX + offsetX * cos(alpha) - offsetY * sin(alpha),
                            centerY: centerY + offsetX * sin(alpha) + offsetY * cos(alpha),
                            halfX: halfX, halfY: halfY, rotation: boxRotation + alpha, cornerRadius: cornerRadius, paint: color)
    }

    /// Every box, in paint order.
    public func boxes() -> [QuadInstance] { slots.indices.map { box(slot: slots[$0], color: color(at: $0)) } }

    /// Within the box's reach of the circle its centre travels on: a square around the ring.
    public var bounds: PixelRect {
        let reach = (offsetX * offsetX + offsetY * offsetY).squareRoot() + (halfX * halfX + halfY * halfY).squareRoot()
        return PixelRect(minX: centerX - reach, minY: centerY - reach, maxX: centerX + reach, maxY: centerY + reach,
                         margin: Antialiasing.boxBoundsMargin, width: width, height: height)
    }

    /// The band the boxes' centres travel on, grown by a box's half diagonal and the margin.
    public var annulus: Annulus? {
        let radius = (offsetX * offsetX + offsetY * offsetY).squareRoot()
        let reach = (halfX * halfX + halfY * halfY).squareRoot() + Antialiasing.boxBoundsMargin
        return Annulus(centerX: Float(centerX), centerY: Float(centerY), inner: Float(max(0, radius - reach)), outer: Float(radius + reach))
    }

    public static let noun = (one: "box", many: "boxes")
    public var pixelWork: PixelWork { PixelWork(bounds: slots.indices.map { box(slot: slots[$0], color: color(at: 0)).bounds(width: width, height: height) }) }
}
