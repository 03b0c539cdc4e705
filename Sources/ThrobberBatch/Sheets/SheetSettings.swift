import Foundation
import Throbber
import ThrobberPNG

/// What a `sheet` output writes, as TexturePacker's settings name it: the page images (PNG or
/// WebP, by the path's extension) and their atlases (JSON Hash or JSON Array), optionally one
/// Phaser 3 multi-atlas for every page; frames trimmed of transparent borders, identical frames
/// stored once, padding and extruded edges between them. docs/sheets.md.
public struct SheetSettings: Sendable, Equatable {
    /// The atlas's form.
    public enum AtlasFormat: String, Sendable, CaseIterable {
        /// TexturePacker's "JSON Hash": `frames` an object keyed by name, in frame order.
        case hash
        /// TexturePacker's "JSON Array": `frames` an array of objects, each with its `filename`.
        case array
    }

    /// The page image's path: `{page}` numbers every page (`SpriteSheet.pageFiles`); a page is
    /// lossless WebP when it ends in `.webp`, otherwise PNG.
    public var path: String
    /// The atlas's path, alike.
    public var json: String
    /// The grid's columns of an untrimmed sheet (nil: the squarest grid).
    public var columns: Int?
    /// The largest side of a page.
    public var maxSize: Int
    /// The PNG encoder of the pages (a `.webp` page is lossless WebP).
    public var encoder: PNGEncoder
    /// Transparent borders cut off each frame (`trimmed`, `spriteSourceSize`, `sourceSize` as
    /// PixiJS and Phaser read them); the pages are then packed by area.
    public var trim: Bool
    /// Identical frames stored once and listed under every name.
    public var alias: Bool
    /// Padding and extrusion around each stored frame.
    public var spacing: SpriteSheet.Spacing
    /// The atlas's form.
    public var format: AtlasFormat
    /// Where the Phaser 3 multi-atlas (every page in one file) goes; nil: none.
    public var multiatlas: String?
    /// The sheet's own frame rate, at most the clip's (`Resampling`); nil: the clip's.
    public var fps: Double?
    /// The animation's key in the atlases; nil: the clip's name.
    public var animation: String?

    public init(path: String, json: String? = nil, columns: Int? = nil, maxSize: Int = SpriteSheet.defaultMaxSize,
                encoder: PNGEncoder = PNGEncoder.sheetDefault, trim: Bool = false, alias: Bool = false,
                spacing: SpriteSheet.Spacing = .none, format: AtlasFormat = .hash, multiatlas: String? = nil,
                fps: Double? = nil, animation: String? = nil) {
        self.path = path
        self.json = json ?? URL(fileURLWithPath: path).deletingPathExtension().appendingPathExtension("json").path
        self.columns = columns
        self.maxSize = maxSize
        self.encoder = encoder
        self.trim = trim
        self.alias = alias
        self.spacing = spacing
        self.format = format
        self.multiatlas = multiatlas
        self.fps = fps
        self.animation = animation
    }

    /// Whether the layout depends on the frames' pixels (trimming or aliasing): the pages are
    /// then packed once every frame is drawn, and how many there are is known only then.
    public var packs: Bool { trim || alias }

    /// Whether the pages are WebP (lossless) rather than PNG.
    public var webp: Bool { URL(fileURLWithPath: path).pathExtension.lowercased() == "webp" }

    /// What `padding` and `extrude` may be, in pixels.
    public static let paddingRule = IntegerRule("padding", 0...256)
    public static let extrudeRule = IntegerRule("extrude", 0...256)

    /// The rate the sheet's frames play at for a clip at `clipFPS`.
    public func playbackFPS(clipFPS: Double) -> Double { fps ?? clipFPS }
}

extension PNGEncoder {
    /// A sheet's and a preview's default encoder: `compact` (docs/png-encoders.md).
    public static var sheetDefault: PNGEncoder {
        // The named setting is in the catalogue: it parses.
        try! PNGEncoder(name: PNGEncoderCatalog.sheetDefaultName)
    }
}
