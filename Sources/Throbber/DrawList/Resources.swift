/// What a draw list's primitives read by identity rather than carry: today an atlas of coverage
/// (the glyph atlas text draws from). A renderer keeps what it made of a resource (a texture, a
/// prepared copy) by its identity and revision: a resource whose revision is unchanged is stated
/// to be unchanged, so nothing compares its bytes frame after frame.
public struct DrawResources: Sendable, Equatable {
    /// Coverage atlases by identity.
    public var atlases: [ResourceID: CoverageAtlas]

    public init(atlases: [ResourceID: CoverageAtlas] = [:]) { self.atlases = atlases }
}

/// The name of a resource, unique within a draw list.
public typealias ResourceID = Identifier<DrawResources>

/// A single-channel image of coverage in [0, 255], rows top-down: what a primitive that paints
/// from an atlas (glyphs) multiplies its colour by, and, where its maker knows them, the outlines
/// its bitmaps were rasterised from (for a writer of vector files, which cannot use the bytes).
public struct CoverageAtlas: Sendable, Equatable {
    /// A bitmap's top-left texel in the atlas: where a `Glyphs.Quad` (`atlasX`, `atlasY`) reads it.
    public struct Position: Sendable, Hashable {
        public var x: Int
        public var y: Int

        public init(x: Int, y: Int) {
            self.x = x
            self.y = y
        }
    }

    public let width: Int
    public let height: Int
    /// `width × height` bytes.
    public let coverage: [UInt8]
    /// Raised by whoever changes the contents; equal revisions of one identity hold equal bytes.
    public let revision: Int
    /// The filled outline of each bitmap, by the bitmap's top-left texel: lines and cubics in px,
    /// y down, relative to the bitmap's top-left pixel, filled by the nonzero rule. Its exact area
    /// coverage (SPEC §9 "Coverage of a fill") is the bitmap's bytes / 255 to within rounding
    /// (SPEC §6 "Outlines"). Empty when the atlas's maker gave none.
    public let outlines: [Position: PathGeometry]

    /// - Parameter outlines: each bitmap's outline by its top-left texel (see `outlines`); none
    ///   by default.
    /// - Precondition: `coverage.count == width * height`.
    public init(width: Int, height: Int, coverage: [UInt8], revision: Int, outlines: [Position: PathGeometry] = [:]) {
        precondition(width >= 0 && height >= 0 && coverage.count == width * height, "atlas size does not match \(width)×\(height)")
        self.width = width
        self.height = height
        self.coverage = coverage
        self.revision = revision
        self.outlines = outlines
    }

    /// The outline of the bitmap whose top-left texel is (`atlasX`, `atlasY`), relative to that
    /// texel (a quad at canvas pixel (x, y) translates it by (x, y)); nil when the atlas holds
    /// no outline there.
    public func outline(atlasX: Int, atlasY: Int) -> PathGeometry? { outlines[Position(x: atlasX, y: atlasY)] }

    /// Same identity and revision are the same contents (outlines included, which the revision's
    /// maker derives with the bytes): compared without the bytes.
    public static func == (a: CoverageAtlas, b: CoverageAtlas) -> Bool {
        a.width == b.width && a.height == b.height && a.revision == b.revision
    }
}
