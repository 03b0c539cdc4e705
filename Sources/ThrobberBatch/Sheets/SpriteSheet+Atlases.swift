import Foundation
import Throbber

/// A sheet's texture atlases: each frame's entry and the TexturePacker JSON of every page
/// (PixiJS and Phaser load them), a grid sheet's entries, and the one-page atlas of a grid.
extension SpriteSheet {
    /// One frame as a sheet's atlases list it.
    public struct AtlasEntry: Sendable, Equatable {
        /// The frame's name (a key of the atlas's `frames`).
        public var name: String
        /// The page its pixels are on.
        public var page: Int
        /// Its pixels on that page.
        public var frame: TextureAtlas.Rect
        /// Where they sit in the whole frame (the whole frame unless trimmed).
        public var source: TextureAtlas.Rect
        /// The whole frame's size.
        public var sourceSize: TextureAtlas.Size
        /// How long it shows, in milliseconds.
        public var duration: Double
        /// Its time in the clip, in seconds.
        public var t: Double?

        public init(name: String, page: Int, frame: TextureAtlas.Rect, source: TextureAtlas.Rect, sourceSize: TextureAtlas.Size,
                    duration: Double, t: Double?) {
            self.name = name
            self.page = page
            self.frame = frame
            self.source = source
            self.sourceSize = sourceSize
            self.duration = duration
            self.t = t
        }

        /// Whether the frame lost transparent borders.
        public var trimmed: Bool { source != TextureAtlas.Rect(x: 0, y: 0, w: sourceSize.w, h: sourceSize.h) }
    }

    /// The atlases of a sheet's pages, one per page, in TexturePacker's form.
    ///
    /// Each page's `frames` lists the entries on it in order (an aliased frame under each of its
    /// names, at the one rectangle); its `animations` names them in order under `animationName`
    /// (PixiJS resolves those against the page's own textures). `meta` records the page's image
    /// and size, the scale (as a string, as TexturePacker writes it), `frameRate`, `loop` and the
    /// provenance. The first page's `meta` alone also names the other pages' atlases
    /// (`related_multi_packs`, by which PixiJS's `Assets.load` of that page loads the others, each
    /// without its own related packs) and every entry of every page in order (`meta.animations`):
    /// so the sheet is loaded from its first page, and the atlases together grow with the frames
    /// and pages, not with their product (every page listing every other and the whole clip made
    /// a 4,000-page sheet's atlases 704 MB).
    ///
    /// - Parameters:
    ///   - entries: every frame, in order; names distinct.
    ///   - pages: each page's image and atlas file names (the atlas's relative to the others) and size.
    ///   - fps: the frames' rate.
    ///   - loop: whether the animation repeats.
    ///   - animationName: the animation's key.
    ///   - scale: the pixels per point the frames were rendered at.
    ///   - provenance: tEXt-style pairs (`Throbber:scene`, `Throbber:parameters`, …) that render
    ///     the frames again, recorded under `meta.throbber` by their names without the prefix.
    ///   - format: JSON Hash or JSON Array.
    /// - Precondition: names are distinct, `fps`, `scale` and the times are finite, `fps` and
    ///   `scale` positive, every entry's page one of `pages`.
    public static func atlases(entries: [AtlasEntry], pages: [(image: String, json: String, width: Int, height: Int)], fps: Double,
                               loop: Bool, animationName: String, scale: Double, provenance: [(String, String)] = [],
                               format: SheetSettings.AtlasFormat = .hash) -> [TextureAtlas] {
        precondition(Set(entries.map(\.name)).count == entries.count, "sprite frame names are not distinct")
        precondition(fps.isFinite && fps > 0, "sprite frame rate \(fps) is not positive")
        precondition(scale.isFinite && scale > 0, "sprite scale \(scale) is not positive")
        precondition(entries.allSatisfy { $0.t?.isFinite ?? true }, "a sprite frame time is not finite")
        precondition(entries.allSatisfy { pages.indices.contains($0.page) }, "a sprite frame is on no page")
        let throbber = Dictionary(provenance.map { key, value in
            (key.hasPrefix("Throbber:") ? String(key.dropFirst("Throbber:".count)) : key, value)
        }, uniquingKeysWith: { first, _ in first })
        // Each page's entries, in order, in one pass over them.
        var onPage = Array(repeating: [AtlasEntry](), count: pages.count)
        for entry in entries { onPage[entry.page].append(entry) }
        return pages.indices.map { number in
            let mine = onPage[number]
            let frames = mine.map { entry in
                TextureAtlas.NamedFrame(name: entry.name, frame: TextureAtlas.Frame(
                    frame: entry.frame, trimmed: entry.trimmed, spriteSourceSize: entry.source, sourceSize: entry.sourceSize,
                    duration: entry.duration, t: entry.t))
            }
            let first = number == 0
            let others = first ? pages.dropFirst().map(\.json) : []
            let meta = TextureAtlas.Meta(image: pages[number].image, size: TextureAtlas.Size(w: pages[number].width, h: pages[number].height),
                                         scale: scaleText(scale), frameRate: fps, loop: loop,
                                         relatedMultiPacks: others.isEmpty ? nil : others,
                                         animations: first ? [animationName: entries.map(\.name)] : nil,
                                         throbber: throbber.isEmpty ? nil : throbber)
            return TextureAtlas(frames: frames, animations: [animationName: mine.map(\.name)], meta: meta, format: format)
        }
    }

    /// The grid entries of `frameNames` on one page: frame i in cell i (row by row, `columns`
    /// across), untrimmed, each lasting its `FrameClock` milliseconds at `fps`.
    public static func gridEntries(frameNames: [String], frameWidth: Int, frameHeight: Int, columns: Int, fps: Double,
                                   times: [Double]? = nil, spacing: Spacing = .none, page: Int = 0, firstFrame: Int = 0) -> [AtlasEntry] {
        precondition(columns > 0, "sprite sheet columns \(columns) is not positive")
        let clock = FrameClock.milliseconds(fps: fps)
        return frameNames.enumerated().map { index, name in
            AtlasEntry(name: name, page: page,
                       frame: TextureAtlas.Rect(x: spacing.origin(index % columns, side: frameWidth), y: spacing.origin(index / columns, side: frameHeight),
                                                w: frameWidth, h: frameHeight),
                       source: TextureAtlas.Rect(x: 0, y: 0, w: frameWidth, h: frameHeight), sourceSize: TextureAtlas.Size(w: frameWidth, h: frameHeight),
                       duration: Double(clock.delay(frame: firstFrame + index)), t: times?[index])
        }
    }

    /// The atlas of a one-page grid sheet of `frameNames` (``gridEntries(frameNames:frameWidth:frameHeight:columns:fps:times:spacing:page:firstFrame:)``,
    /// ``atlases(entries:pages:fps:loop:animationName:scale:provenance:format:)``).
    public static func textureAtlas(
        imageName: String, frameNames: [String], frameWidth: Int, frameHeight: Int, columns: Int,
        sheetWidth: Int, sheetHeight: Int, fps: Double, loop: Bool, animationName: String, scale: Double,
        provenance: [(String, String)] = [], times: [Double]? = nil
    ) -> TextureAtlas {
        let entries = gridEntries(frameNames: frameNames, frameWidth: frameWidth, frameHeight: frameHeight, columns: columns, fps: fps, times: times)
        return atlases(entries: entries, pages: [(imageName, "", sheetWidth, sheetHeight)], fps: fps, loop: loop,
                       animationName: animationName, scale: scale, provenance: provenance)[0]
    }

    /// ``textureAtlas(imageName:frameNames:frameWidth:frameHeight:columns:sheetWidth:sheetHeight:fps:loop:animationName:scale:provenance:times:)``
    /// as JSON text (``TextureAtlas/json()``), UTF-8, ending in a newline.
    public static func textureAtlasJSON(
        imageName: String, frameNames: [String], frameWidth: Int, frameHeight: Int, columns: Int,
        sheetWidth: Int, sheetHeight: Int, fps: Double, loop: Bool, animationName: String, scale: Double,
        provenance: [(String, String)] = [], times: [Double]? = nil
    ) -> Data {
        textureAtlas(imageName: imageName, frameNames: frameNames, frameWidth: frameWidth, frameHeight: frameHeight, columns: columns,
                     sheetWidth: sheetWidth, sheetHeight: sheetHeight, fps: fps, loop: loop, animationName: animationName, scale: scale,
                     provenance: provenance, times: times).json()
    }

    /// The scale as the atlas's `meta.scale` string: integral values without a fraction ("2",
    /// not "2.0"), others in Swift's shortest round-tripping form ("1.5").
    static func scaleText(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }
}
