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
    /// What one of it is called in a message, one and many (`arc`, `arcs`).
    static var noun: (one: String, many: String) { get }
    /// How many shapes it draws (boxes of a batch or a ring, glyphs, else 1) and the pixels a
    /// renderer shades for them: each shape's bounds on the canvas, summed. What a frame's cost
    /// is checked with before it is drawn (`FrameWork`, `Limits.pixelsPerFrame`).
    var pixelWork: PixelWork { get }
}

extension Primitive {
    public var annulus: Annulus? { nil }
    /// One shape over its bounds.
    public var pixelWork: PixelWork { PixelWork(bounds: [bounds]) }

    /// Whether `other` is a primitive of this kind with equal values.
    public func isEqual(to other: any Primitive) -> Bool {
        // The kinds first: a cast to a kind the value is not costs more than this comparison.
        guard type(of: other) == Self.self else { return false }
        return self == (other as! Self)
    }
}

/// Shapes of a frame and the pixels their bounds cover on the canvas: what a renderer shades
/// for them (GL a quad over each shape's bounds, the CPU renderer each bounds' rows).
public struct PixelWork: Sendable, Equatable {
    public var shapes = 0
    public var pixels = 0.0

    public init(shapes: Int = 0, pixels: Double = 0) {
        self.shapes = shapes
        self.pixels = pixels
    }

    /// The work of shapes with these bounds (already clipped to the canvas).
    public init(bounds: some Collection<PixelRect>) {
        shapes = bounds.count
        pixels = bounds.reduce(0) { $0 + Double(max(0, $1.x1 - $1.x0)) * Double(max(0, $1.y1 - $1.y0)) }
    }
}

/// Every kind of primitive, in the order GL numbers their records. Adding a kind adds it here.
public enum PrimitiveKinds {
    public static let all: [any Primitive.Type] = [Disc.self, Wave.self, Arc.self, Boxes.self, BoxRing.self, Glyphs.self,
                                                  Strokes.self, RadialGradient.self, Path.self, Layer.self, Bitmap.self]
}
