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
/// from an atlas (glyphs) multiplies its colour by.
public struct CoverageAtlas: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width × height` bytes.
    public let coverage: [UInt8]
    /// Raised by whoever changes the contents; equal revisions of one identity hold equal bytes.
    public let revision: Int

    /// - Precondition: `coverage.count == width * height`.
    public init(width: Int, height: Int, coverage: [UInt8], revision: Int) {
        precondition(width >= 0 && height >= 0 && coverage.count == width * height, "atlas size does not match \(width)×\(height)")
        self.width = width
        self.height = height
        self.coverage = coverage
        self.revision = revision
    }

    /// Same identity and revision are the same contents: compared without the bytes.
    public static func == (a: CoverageAtlas, b: CoverageAtlas) -> Bool {
        a.width == b.width && a.height == b.height && a.revision == b.revision
    }
}
