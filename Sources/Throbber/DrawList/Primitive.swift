/// A kind of thing a draw list paints: a disc, a wave, an arc, rounded boxes, a ring of boxes, glyphs,
/// strokes, a radial gradient.
///
/// Each kind is a row of files side by side, named after it (DESIGN "One row per primitive"):
/// its value, bounds and reach here in `DrawList/Primitives/`; its coverage twin in
/// `ThrobberCPU/Primitives/`; its layers and records in `ThrobberGL/Primitives/`; its GLSL in
/// `Shaders/Primitives/`. A new kind adds a row and a line to `PrimitiveKinds.all`, and touches no
/// switch elsewhere; `PrimitiveRowTests` checks that every kind has its row.
public protocol Primitive: Sendable, Equatable {
    /// The kind's name: the row's files are named after it (`Disc` → `Disc.swift`, `Disc+CPU.swift`,
    /// `Disc+GL.swift`, `disc.glsl`).
    static var kind: String { get }
    /// The pixels it can cover, its anti-aliased edge included, clipped to the canvas: a
    /// renderer shades nothing outside. A superset is allowed (a renderer may derive tighter).
    var bounds: PixelRect { get }
    /// The ring outside which its coverage is zero, when it has one.
    var annulus: Annulus? { get }
    /// How many rounded boxes a frame of it has and the pixels of their bounds, for the limit on
    /// a frame's box work (`Scene.validate`, `Limits.boxPixelsPerFrame`).
    var boxWork: BoxWork { get }
}

extension Primitive {
    public var annulus: Annulus? { nil }
    public var boxWork: BoxWork { BoxWork() }

    /// Whether `other` is a primitive of this kind with equal values.
    public func isEqual(to other: any Primitive) -> Bool {
        // The kinds first: a cast to a kind the value is not costs more than this comparison.
        guard type(of: other) == Self.self else { return false }
        return self == (other as! Self)
    }
}

/// Rounded boxes in a frame and the pixels their bounds cover on the canvas.
public struct BoxWork: Sendable, Equatable {
    public var boxes = 0
    public var pixels = 0.0

    public init(boxes: Int = 0, pixels: Double = 0) {
        self.boxes = boxes
        self.pixels = pixels
    }

    /// The work of boxes with these bounds.
    public init(bounds: some Collection<PixelRect>) {
        boxes = bounds.count
        pixels = bounds.reduce(0) { $0 + Double(max(0, $1.x1 - $1.x0)) * Double(max(0, $1.y1 - $1.y0)) }
    }
}

/// Every kind of primitive, in the order GL numbers their records. Adding a kind adds it here.
public enum PrimitiveKinds {
    public static let all: [any Primitive.Type] = [Disc.self, Wave.self, Arc.self, Boxes.self, BoxRing.self, Glyphs.self,
                                                  Strokes.self, RadialGradient.self]
}
