import Foundation
import Throbber

/// A sprite sheet's texture atlas in TexturePacker's "JSON Hash" form, which Phaser 3 and PixiJS
/// load: every frame's rectangle on the sheet by name, in frame order, one animation of them, and
/// the sheet's `meta`.
///
/// Written by `JSONEncoder` in ``JSONOutput``'s style (pretty-printed, sorted keys) and read back
/// by `JSONDecoder` (a resume compares an atlas it finds with the one it would write, value for
/// value, so the bytes' layout is no part of what it keeps). Only `frames` keeps its members in
/// frame order: see ``json()``.
public struct TextureAtlas: Sendable, Equatable {
    /// A rectangle in pixels.
    public struct Rect: Codable, Sendable, Equatable {
        public var x: Int, y: Int, w: Int, h: Int
    }

    /// A size in pixels.
    public struct Size: Codable, Sendable, Equatable {
        public var w: Int, h: Int
    }

    /// One frame: untrimmed and unrotated, so its source is the whole cell.
    public struct Frame: Codable, Sendable, Equatable {
        /// The frame's cell on the sheet.
        public var frame: Rect
        public var rotated = false
        public var trimmed = false
        public var spriteSourceSize: Rect
        public var sourceSize: Size
        /// How long the frame shows, in milliseconds.
        public var duration: Double
        /// The frame's time in the clip, in seconds (Throbber's own key).
        public var t: Double?
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
        /// The other pages' atlases, relative to this one; absent for a sheet of one page.
        public var relatedMultiPacks: [String]?
        /// The provenance that renders the frames again, by tEXt key without `Throbber:`; absent
        /// when there is none.
        public var throbber: [String: String]?

        enum CodingKeys: String, CodingKey {
            case app, version, image, format, size, scale, frameRate, loop
            case relatedMultiPacks = "related_multi_packs"
            case throbber
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

    /// An atlas of these frames, animations and meta.
    public init(frames: [NamedFrame], animations: [String: [String]], meta: Meta) {
        self.frames = frames
        self.animations = animations
        self.meta = meta
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
        let framesText = Self.object(frames.map { (encoded($0.name), encoded($0.frame)) })
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
