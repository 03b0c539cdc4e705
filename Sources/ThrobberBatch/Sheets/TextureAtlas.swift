import Foundation
import Throbber

/// A sprite sheet page's texture atlas in TexturePacker's "JSON Hash" or "JSON Array" form, which
/// Phaser 3 and PixiJS load: every frame's rectangle on the page by name, in frame order, the
/// animation of this page's frames, and `meta` (on the first page, the other pages' atlases in
/// `related_multi_packs` and the whole animation across every page in `meta.animations`).
///
/// Written by `JSONEncoder` in ``JSONOutput``'s style (pretty-printed, sorted keys) and read back
/// by `JSONDecoder` (a resume compares an atlas it finds with the one it would write, value for
/// value, so the bytes' layout is no part of what it keeps). Only `frames` keeps its members in
/// frame order: see ``json()``.
public struct TextureAtlas: Sendable, Equatable {
    /// A rectangle in pixels.
    public struct Rect: Codable, Sendable, Hashable {
        public var x: Int, y: Int, w: Int, h: Int
    }

    /// A size in pixels.
    public struct Size: Codable, Sendable, Equatable {
        public var w: Int, h: Int
    }

    /// One frame, never rotated: where its pixels are on the page (`frame`), where they sit in
    /// the whole frame (`spriteSourceSize`, the whole frame unless `trimmed`) and the whole
    /// frame's size (`sourceSize`), as PixiJS (`orig`, `trim`) and Phaser read them.
    public struct Frame: Codable, Sendable, Equatable {
        /// The frame's pixels on the page.
        public var frame: Rect
        public var rotated = false
        /// Whether transparent borders were cut off.
        public var trimmed = false
        public var spriteSourceSize: Rect
        public var sourceSize: Size
        /// How long the frame shows, in whole milliseconds (`FrameClock`: they add up to the
        /// animation's length).
        public var duration: Double
        /// The frame's time in the clip, in seconds (Throbber's own key).
        public var t: Double?
    }

    /// A frame of a "JSON Array" atlas or a Phaser multi-atlas: the frame and its name.
    struct ListedFrame: Codable {
        var filename: String
        var frame: Rect
        var rotated: Bool
        var trimmed: Bool
        var spriteSourceSize: Rect
        var sourceSize: Size
        var duration: Double
        var t: Double?

        init(_ named: NamedFrame) {
            filename = named.name
            frame = named.frame.frame
            rotated = named.frame.rotated
            trimmed = named.frame.trimmed
            spriteSourceSize = named.frame.spriteSourceSize
            sourceSize = named.frame.sourceSize
            duration = named.frame.duration
            t = named.frame.t
        }

        var named: NamedFrame {
            NamedFrame(name: filename, frame: Frame(frame: frame, rotated: rotated, trimmed: trimmed, spriteSourceSize: spriteSourceSize,
                                                    sourceSize: sourceSize, duration: duration, t: t))
        }
    }

    /// What the atlas says of the sheet as a whole.
    public struct Meta: Codable, Sendable, Equatable {
        public var app = "Throbber"
        public var version = throbberVersion
        /// The sheet's file name, relative to the atlas.
        public var image: String
        public var format = "RGBA8888"
        public var size: Size
        /// The pixels per point, as a string (as TexturePacker writes it).
        public var scale: String
        public var frameRate: Double
        public var loop: Bool
        /// The other pages' atlases, relative to this one, on the first page of a sheet of several
        /// (PixiJS loads them with it); absent elsewhere.
        public var relatedMultiPacks: [String]?
        /// Every animation whole, in order, whichever page its frames are on, on the first page
        /// only (the top-level `animations` lists this page's frames only, which is what PixiJS's
        /// parser resolves); absent on the others.
        public var animations: [String: [String]]?
        /// The provenance that renders the frames again, by tEXt key without `Throbber:`; absent
        /// when there is none.
        public var throbber: [String: String]?

        enum CodingKeys: String, CodingKey {
            case app, version, image, format, size, scale, frameRate, loop
            case relatedMultiPacks = "related_multi_packs"
            case animations, throbber
        }
    }

    /// A frame and its name.
    public struct NamedFrame: Sendable, Equatable {
        public var name: String
        public var frame: Frame
    }

    /// The frames, in frame order.
    public var frames: [NamedFrame]
    /// The animations by name, each its frames' names in order.
    public var animations: [String: [String]]
    public var meta: Meta
    /// The form `json()` writes.
    public var format: SheetSettings.AtlasFormat

    /// An atlas of these frames, animations and meta.
    public init(frames: [NamedFrame], animations: [String: [String]], meta: Meta, format: SheetSettings.AtlasFormat = .hash) {
        self.frames = frames
        self.animations = animations
        self.meta = meta
        self.format = format
    }

    /// The atlas as JSON text, ending in a newline.
    ///
    /// Every value and every key is written by `JSONEncoder`. The members of `frames` are joined
    /// here, in frame order, because `JSONEncoder` on Linux writes a keyed container's members in
    /// no set order (or sorted), and the order of an atlas's frames is data: Phaser lists a
    /// texture's frames in it, and a pattern such as `ring-%d` does not sort in frame order.
    public func json() -> Data {
        let encoder = JSONOutput.encoder
        encoder.outputFormatting.insert(.withoutEscapingSlashes)
        func encoded<T: Encodable>(_ value: T) -> String {
            do {
                return String(decoding: try encoder.encode(value), as: UTF8.self)
            } catch {
                // Only a number that is not finite fails, and the atlas's are checked finite.
                preconditionFailure("an atlas value does not encode: \(error)")
            }
        }
        let framesText = format == .array ? encoded(frames.map(ListedFrame.init))
            : Self.object(frames.map { (encoded($0.name), encoded($0.frame)) })
        let document = Self.object([(encoded("frames"), framesText), (encoded("animations"), encoded(animations)),
                                    (encoded("meta"), encoded(meta))])
        return Data((document + "\n").utf8)
    }

    /// A JSON object of encoded keys and values in the order given, in `JSONEncoder`'s pretty
    /// layout (two spaces a level, `"key" : value`).
    private static func object(_ members: [(key: String, value: String)]) -> String {
        guard !members.isEmpty else { return "{\n\n}" }
        let lines = members.map { "  \($0.key) : " + $0.value.replacingOccurrences(of: "\n", with: "\n  ") }
        return "{\n" + lines.joined(separator: ",\n") + "\n}"
    }

    /// Reads an atlas back, its frames in the order the file lists them.
    ///
    /// - Throws: a data error when `data` is not an atlas of this form.
    public init(decoding data: Data) throws {
        struct Document: Decodable {
            var frames: [String: Frame]
            var animations: [String: [String]]
            var meta: Meta
        }
        struct ArrayDocument: Decodable {
            var frames: [ListedFrame]
            var animations: [String: [String]]
            var meta: Meta
        }
        if let listed = try? JSONDecoder().decode(ArrayDocument.self, from: data) {
            self.init(frames: listed.frames.map(\.named), animations: listed.animations, meta: listed.meta, format: .array)
            return
        }
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw ThrobberError("not a texture atlas: \(error)", kind: .badData)
        }
        // JSONDecoder keeps no order either: the order comes from the file's own text.
        guard case .object(let members) = try JSONNode.parse(String(decoding: data, as: UTF8.self)).value,
              case .object(let frameMembers)? = members.first(where: { $0.key == "frames" })?.value.value else {
            throw ThrobberError("not a texture atlas: no \"frames\" object", kind: .badData)
        }
        self.init(frames: frameMembers.compactMap { member in document.frames[member.key].map { NamedFrame(name: member.key, frame: $0) } },
                  animations: document.animations, meta: document.meta)
    }
}

/// Phaser 3's multi-atlas: every page of a sheet in one file (`this.load.multiatlas`), each page's
/// image, size and frames, and the atlases' `meta`.
public struct MultiAtlas: Encodable, Sendable {
    /// One page.
    struct Texture: Encodable, Sendable {
        var image: String
        var format: String
        var size: TextureAtlas.Size
        /// The pixels per point as a number, as Phaser's loader takes it (and ignores: docs/sheets.md).
        var scale: Double
        var frames: [TextureAtlas.ListedFrame]
    }

    var textures: [Texture]
    var meta: TextureAtlas.Meta

    /// The multi-atlas of `pages`, whose images are named relative to the multi-atlas's own
    /// directory by `images`.
    init(pages: [TextureAtlas], images: [String], scale: Double) {
        textures = zip(pages, images).map { page, image in
            Texture(image: image, format: page.meta.format, size: page.meta.size, scale: scale, frames: page.frames.map(TextureAtlas.ListedFrame.init))
        }
        var meta = pages[0].meta
        meta.image = images[0]
        meta.size = pages[0].meta.size
        meta.relatedMultiPacks = nil
        self.meta = meta
    }

    /// The file's text, pretty-printed with sorted keys (frames in order: arrays keep it).
    func json() -> Data {
        let encoder = JSONOutput.encoder
        encoder.outputFormatting.insert(.withoutEscapingSlashes)
        // Only a number that is not finite fails, and the atlases' are checked finite.
        return (try! encoder.encode(self)) + Data("\n".utf8)
    }
}
