/// One frame as a scene author states it: the canvas, its background, the primitives to paint
/// in order and the resources they read — in pixels, free of any renderer's data.
///
/// Geometry and animation are computed in Swift (double precision) before a renderer sees this;
/// the values here are the numbers both renderers consume, so GL and CPU start from identical
/// inputs and only their rasterisation can differ. Each renderer derives what it needs from a
/// list itself (its prepare step: the CPU renderer's columns, box axes and frame memory, GL's
/// layer plans and records), keyed by the items' identities.
public struct DrawList: Sendable, Equatable {
    /// Canvas width in pixels.
    public var width: Int
    /// Canvas height in pixels.
    public var height: Int
    /// The colour every pixel starts with (straight alpha).
    public var background: PaintColor
    /// What to paint, first to last, source-over.
    public var items: [DrawItem]
    /// What the items read by identity (an atlas of glyph coverage, later images).
    public var resources: DrawResources

    /// Creates a draw list.
    public init(width: Int, height: Int, background: PaintColor, items: [DrawItem], resources: DrawResources = DrawResources()) {
        self.width = width
        self.height = height
        self.background = background
        self.items = items
        self.resources = resources
    }

    /// Same pixel size and background.
    public func sameCanvas(as other: DrawList) -> Bool {
        width == other.width && height == other.height && background == other.background
    }
}

/// A name that identifies something from frame to frame, of one kind (`Tag`): an item (`ItemID`)
/// or a resource (`ResourceID`).
public struct Identifier<Tag>: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The scene's name for it, such as `ball.front-wave`.
    public let name: String

    public init(_ name: String) { self.name = name }
    public init(stringLiteral name: String) { self.name = name }
    public var description: String { name }
}

/// What names an item from frame to frame: the item of the next frame with the same identity is
/// the same thing drawn again (moved, recoloured or unchanged), so a renderer can keep what it
/// derived from it. Identities are unique within a list.
public typealias ItemID = Identifier<DrawItem>

/// One primitive of a draw list, with the identity it keeps from frame to frame.
public struct DrawItem: Sendable, Equatable {
    /// Which item this is across frames.
    public var id: ItemID
    /// What it paints.
    public var primitive: any Primitive

    /// An item `id` painting `primitive`.
    public init(_ id: ItemID, _ primitive: some Primitive) {
        self.id = id
        self.primitive = primitive
    }

    /// The pixels it can cover (`Primitive.bounds`).
    public var bounds: PixelRect { primitive.bounds }

    /// The primitive, when it is a `P`.
    public func primitive<P: Primitive>(as type: P.Type) -> P? { primitive as? P }

    /// The same identity and an equal primitive: the item paints the same wherever it reaches.
    public static func == (a: DrawItem, b: DrawItem) -> Bool {
        a.id == b.id && a.primitive.isEqual(to: b.primitive)
    }
}

/// A colour as the renderers take it: straight-alpha sRGB components in single precision.
public struct PaintColor: Sendable, Equatable, Hashable {
    public var r: Float
    public var g: Float
    public var b: Float
    public var a: Float

    /// Converts a scene colour.
    public init(_ color: RGBA) {
        r = Float(color.r)
        g = Float(color.g)
        b = Float(color.b)
        a = Float(color.a)
    }
}
