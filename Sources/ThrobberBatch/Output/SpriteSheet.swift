import Foundation
import Throbber

/// A grid of equally sized frames on one transparent image, and the texture-atlas JSON that game
/// engines (Phaser 3, PixiJS) load with it.
///
/// Frames fill the grid row by row with no gaps or padding: frame i sits in column `i % columns`
/// of row `i / columns`. Cells past the last frame stay transparent. A sheet larger than
/// `maxSize` a side is split into pages (`pages`), each a grid of its own with its own atlas.
public enum SpriteSheet {
    /// The grid for `frameCount` frames.
    ///
    /// - Parameters:
    ///   - frameCount: how many frames the sheet holds.
    ///   - frameWidth: the width of one frame in pixels.
    ///   - frameHeight: the height of one frame in pixels.
    ///   - columns: the number of columns, or `nil` for ⌈√frameCount⌉ (the squarest grid);
    ///     more columns than frames are cut down to one per frame.
    /// - Returns: the columns and rows of the grid and the sheet's size in pixels.
    /// - Precondition: `frameCount`, `frameWidth`, `frameHeight` and `columns` (when given) are positive.
    public static func layout(
        frameCount: Int, frameWidth: Int, frameHeight: Int, columns: Int?
    ) -> (columns: Int, rows: Int, width: Int, height: Int) {
        precondition(frameCount > 0, "a sprite sheet needs at least one frame, not \(frameCount)")
        precondition(frameWidth > 0 && frameHeight > 0, "sprite frame size \(frameWidth)×\(frameHeight) is not positive")
        let chosen: Int
        if let columns {
            precondition(columns > 0, "sprite sheet columns \(columns) is not positive")
            chosen = min(columns, frameCount)
        } else {
            chosen = ceilingSquareRoot(frameCount)
        }
        let rows = (frameCount + chosen - 1) / chosen
        return (chosen, rows, chosen * frameWidth, rows * frameHeight)
    }

    /// The largest side of one page by default: 4096 px, the texture limit of most mobile GPUs.
    public static let defaultMaxSize = 4096
    /// What `maxSize` may be: 1 … `Limits.sheetSide` px (and at least one frame's larger side).
    public static let maxSizeRange = 1...Limits.sheetSide
    /// The rule of a sheet's `maxSize`: an integer in ``maxSizeRange``.
    public static let maxSizeRule = IntegerRule("maxSize", maxSizeRange)

    /// One page of a sheet: a grid of consecutive frames no side of which passes `maxSize`.
    public struct Page: Sendable, Equatable {
        /// The clip's frames on this page, in order.
        public var frames: Range<Int>
        /// The cells across: the page's frames fill them row by row.
        public var columns: Int
        /// The cells down.
        public var rows: Int
        /// The page's size in pixels.
        public var width: Int, height: Int
    }

    /// The pages of a sheet, as TexturePacker's multipack splits one: frames fill each page in
    /// order, every page but the last as full as `maxSize` allows.
    ///
    /// A page holds at most `⌊maxSize / frameWidth⌋` cells across (or `columns`, when fewer) and
    /// `⌊maxSize / frameHeight⌋` down. Each page takes `columns` cells across (cut down to the
    /// page's frames), or, without `columns`, the squarest grid of its frames that fits: so a sheet
    /// that fits one page is laid out exactly as `layout` lays it out.
    ///
    /// - Parameters:
    ///   - frameCount: how many frames the sheet holds.
    ///   - frameWidth: the width of one frame in pixels.
    ///   - frameHeight: the height of one frame in pixels.
    ///   - columns: as `layout` takes it.
    ///   - maxSize: the largest side of a page in pixels.
    /// - Returns: the pages, first to last; one when everything fits.
    /// - Precondition: every argument is positive, and one frame fits `maxSize` (`checkSize`).
    public static func pages(frameCount: Int, frameWidth: Int, frameHeight: Int, columns: Int?, maxSize: Int) -> [Page] {
        precondition(frameCount > 0, "a sprite sheet needs at least one frame, not \(frameCount)")
        precondition(frameWidth <= maxSize && frameHeight <= maxSize, "a \(frameWidth)×\(frameHeight) px frame is larger than maxSize \(maxSize)")
        let maxColumns = min(maxSize / frameWidth, columns ?? Int.max), maxRows = maxSize / frameHeight
        let perPage = maxColumns * maxRows // ≤ 65535², no overflow
        var pages: [Page] = []
        var first = 0
        while first < frameCount {
            let count = min(perPage, frameCount - first)
            // The squarest grid (or `columns`), widened until its rows fit the page.
            let preferred = columns.map { min($0, count) } ?? ceilingSquareRoot(count)
            let across = min(maxColumns, max(preferred, (count + maxRows - 1) / maxRows))
            let down = (count + across - 1) / across
            pages.append(Page(frames: first..<first + count, columns: across, rows: down,
                              width: across * frameWidth, height: down * frameHeight))
            first += count
        }
        return pages
    }

    /// The image and atlas files of each of `pageCount` pages: `path` and `json` themselves for
    /// one page; otherwise each with `-K` (K from 0) before its extension, as TexturePacker's `{n}`
    /// numbers a multipack: `sheet.png` and `sheet.json` become `sheet-0.png`, `sheet-0.json`,
    /// `sheet-1.png` ….
    public static func pageFiles(path: String, json: String, pageCount: Int) -> [(image: String, json: String)] {
        guard pageCount > 1 else { return [(path, json)] }
        return (0..<pageCount).map { (numbered(path, $0), numbered(json, $0)) }
    }

    /// `file` with `-index` before the extension of its last component (or at its end).
    static func numbered(_ file: String, _ index: Int) -> String {
        let nameStart = file.lastIndex(of: "/").map(file.index(after:)) ?? file.startIndex
        // A leading dot starts a hidden name, not an extension.
        if let dot = file[nameStart...].lastIndex(of: "."), dot > nameStart {
            return String(file[..<dot]) + "-\(index)" + String(file[dot...])
        }
        return file + "-\(index)"
    }

    /// Checks, before any frame is rendered, that one frame fits `maxSize` and that each page of
    /// the sheet fits `Limits.sheetSide` on each side and `Limits.sheetPixels` in all (a page is
    /// held whole in memory while it is built, and libpng refuses a side over 2³¹ − 1), with
    /// arithmetic that cannot overflow.
    ///
    /// - Parameters:
    ///   - path: the sheet's file, for the message.
    ///   - frameCount: how many frames the sheet holds (≥ 1).
    ///   - frameWidth: the width of one frame in pixels (≥ 1).
    ///   - frameHeight: the height of one frame in pixels (≥ 1).
    ///   - columns: as `layout` takes it.
    ///   - maxSize: the largest side of a page (`maxSizeRange`); the default is the largest allowed.
    ///   - defaultMaxSize: whether `maxSize` is the default rather than written, for the message.
    /// - Throws: a usage error naming `maxSize`, its value and the frame size when a frame is
    ///   larger; a usage error naming the sheet, its page size and the limits when a page is too large.
    public static func checkSize(path: String, frameCount: Int, frameWidth: Int, frameHeight: Int, columns: Int?,
                                 maxSize: Int = Limits.sheetSide, defaultMaxSize: Bool = false) throws {
        try maxSizeRule.check(maxSize)
        guard frameWidth <= maxSize, frameHeight <= maxSize else {
            throw ThrobberError(
                "invalid maxSize \(maxSize)\(defaultMaxSize ? " (the default)" : ""): a page of sheet "
                    + "\(ThrobberError.echoed(path, longest: ThrobberError.longestPathEcho)) holds whole frames, and one frame is "
                    + "\(frameWidth)×\(frameHeight) px; give \"maxSize\" of at least \(max(frameWidth, frameHeight)) (at most \(maxSizeRange.upperBound)) or a smaller scale",
                kind: .usage, field: "maxSize")
        }
        // The first page is the largest: as full as the limits allow.
        let page = pages(frameCount: min(max(frameCount, 1), (maxSize / frameWidth) * (maxSize / frameHeight)),
                         frameWidth: frameWidth, frameHeight: frameHeight, columns: columns, maxSize: maxSize)[0]
        let count = page.frames.count, cells = page.columns
        // In Double: exact far beyond these limits, and it cannot trap.
        let width = Double(page.width), height = Double(page.height)
        guard width <= Double(Limits.sheetSide), height <= Double(Limits.sheetSide),
              width * height <= Double(Limits.sheetPixels) else {
            throw ThrobberError(
                "sheet \(ThrobberError.echoed(path, longest: ThrobberError.longestPathEcho)) is too large: \(count) frame\(count == 1 ? "" : "s") of "
                    + "\(frameWidth)×\(frameHeight) px in \(cells) column\(cells == 1 ? "" : "s") make "
                    + "\(formatNumber(width))×\(formatNumber(height)) px\(count < frameCount ? " on its first page" : ""); a sheet page is at most \(Limits.sheetSide) px a side "
                    + "and \(Limits.sheetPixels) px in all (a smaller \"maxSize\", another \"columns\", or a smaller scale)",
                kind: .usage)
        }
    }

    /// Assembles a sheet one frame at a time, so a renderer need not hold every frame at once.
    public struct Builder: Sendable {
        /// The number of cells across.
        public let columns: Int
        /// The number of cells down.
        public let rows: Int
        /// The width of one cell (and of every frame) in pixels.
        public let frameWidth: Int
        /// The height of one cell (and of every frame) in pixels.
        public let frameHeight: Int
        private var pixels: [UInt8]

        /// Creates a transparent sheet of `columns × rows` cells.
        ///
        /// - Parameters:
        ///   - columns: cells across, as `SpriteSheet.layout` returns.
        ///   - rows: cells down, as `SpriteSheet.layout` returns.
        ///   - frameWidth: the width of one frame in pixels.
        ///   - frameHeight: the height of one frame in pixels.
        /// - Precondition: every argument is positive.
        public init(columns: Int, rows: Int, frameWidth: Int, frameHeight: Int) {
            precondition(columns > 0 && rows > 0, "sprite sheet grid \(columns)×\(rows) is not positive")
            precondition(frameWidth > 0 && frameHeight > 0, "sprite frame size \(frameWidth)×\(frameHeight) is not positive")
            self.columns = columns
            self.rows = rows
            self.frameWidth = frameWidth
            self.frameHeight = frameHeight
            pixels = [UInt8](repeating: 0, count: columns * frameWidth * rows * frameHeight * 4)
        }

        /// Copies `image` into cell `index`, replacing what was there.
        ///
        /// - Parameters:
        ///   - image: the frame, `frameWidth × frameHeight`.
        ///   - index: the frame's position: column `index % columns`, row `index / columns`.
        /// - Precondition: the image has the frame size and `index` is in `0..<columns × rows`.
        public mutating func place(_ image: Image, at index: Int) {
            precondition(image.width == frameWidth && image.height == frameHeight,
                         "frame \(index) is \(image.width)×\(image.height), not \(frameWidth)×\(frameHeight)")
            precondition(index >= 0 && index < columns * rows, "frame index \(index) is not in 0..<\(columns * rows)")
            let rowBytes = frameWidth * 4
            let sheetRowBytes = columns * rowBytes
            let origin = (index / columns) * frameHeight * sheetRowBytes + (index % columns) * rowBytes
            pixels.withUnsafeMutableBytes { sheet in
                image.pixels.withUnsafeBytes { frame in
                    for y in 0..<frameHeight {
                        (sheet.baseAddress! + origin + y * sheetRowBytes)
                            .copyMemory(from: frame.baseAddress! + y * rowBytes, byteCount: rowBytes)
                    }
                }
            }
        }

        /// A sheet of `columns × rows` cells holding `frames` in order, the first frame's size a
        /// cell (the sheets the bench and the sweep encode from frames already drawn).
        ///
        /// - Precondition: `frames` is not empty, every frame has the first's size, and they fit.
        public static func sheet(of frames: some Collection<Image>, columns: Int, rows: Int) -> Image {
            var builder = Builder(columns: columns, rows: rows, frameWidth: frames.first!.width, frameHeight: frames.first!.height)
            for (index, frame) in frames.enumerated() { builder.place(frame, at: index) }
            return builder.image
        }

        /// The sheet as it stands: `columns × frameWidth` by `rows × frameHeight` pixels.
        public var image: Image {
            Image(width: columns * frameWidth, height: rows * frameHeight, pixels: pixels)
        }
    }

    /// The texture atlas in TexturePacker's "JSON Hash" form, which Phaser 3 and PixiJS load.
    ///
    /// The `frames` object lists the frames in order, each untrimmed and unrotated with its
    /// `duration` in milliseconds; `animations` names them in order under `animationName`; `meta`
    /// records the image, its size, the scale (as a string, as TexturePacker writes it),
    /// `frameRate` and `loop`.
    ///
    /// - Parameters:
    ///   - imageName: the sheet's file name, relative to the JSON file.
    ///   - frameNames: one distinct name per frame, in order.
    ///   - frameWidth: the width of one frame in pixels.
    ///   - frameHeight: the height of one frame in pixels.
    ///   - columns: the grid's columns, as `layout` returns.
    ///   - sheetWidth: the sheet's width in pixels.
    ///   - sheetHeight: the sheet's height in pixels.
    ///   - fps: frames per second; each frame lasts 1000 / fps ms.
    ///   - loop: whether the animation repeats.
    ///   - animationName: the key of the animation in `animations`.
    ///   - scale: the pixels per point the frames were rendered at.
    ///   - provenance: tEXt-style pairs (`Throbber:scene`, `Throbber:parameters`, …) that render
    ///     the frames again, recorded under `meta.throbber` by their names without the prefix.
    ///   - times: each frame's time in seconds, recorded as the frame's `t`.
    ///   - relatedMultiPacks: the other pages' atlas files, relative to this one, recorded as
    ///     `meta.related_multi_packs` (PixiJS's `Assets.load` of one page loads the others from
    ///     it); nothing is recorded for a sheet of one page.
    /// - Precondition: names are distinct, `columns` is positive, `fps`, `scale` and the times are
    ///   finite and `fps` and `scale` positive.
    public static func textureAtlas(
        imageName: String, frameNames: [String], frameWidth: Int, frameHeight: Int, columns: Int,
        sheetWidth: Int, sheetHeight: Int, fps: Double, loop: Bool, animationName: String, scale: Double,
        provenance: [(String, String)] = [], times: [Double]? = nil, relatedMultiPacks: [String] = []
    ) -> TextureAtlas {
        precondition(Set(frameNames).count == frameNames.count, "sprite frame names are not distinct")
        precondition(columns > 0, "sprite sheet columns \(columns) is not positive")
        precondition(fps.isFinite && fps > 0, "sprite frame rate \(fps) is not positive")
        precondition(scale.isFinite && scale > 0, "sprite scale \(scale) is not positive")
        precondition(times?.allSatisfy(\.isFinite) ?? true, "a sprite frame time is not finite")
        let size = TextureAtlas.Size(w: frameWidth, h: frameHeight)
        let frames = frameNames.enumerated().map { index, name in
            let cell = TextureAtlas.Rect(x: (index % columns) * frameWidth, y: (index / columns) * frameHeight, w: frameWidth, h: frameHeight)
            return TextureAtlas.NamedFrame(name: name, frame: TextureAtlas.Frame(
                frame: cell, spriteSourceSize: TextureAtlas.Rect(x: 0, y: 0, w: frameWidth, h: frameHeight), sourceSize: size,
                duration: 1000 / fps, t: times?[index]))
        }
        let throbber = Dictionary(provenance.map { key, value in
            (key.hasPrefix("Throbber:") ? String(key.dropFirst("Throbber:".count)) : key, value)
        }, uniquingKeysWith: { first, _ in first })
        let meta = TextureAtlas.Meta(image: imageName, size: TextureAtlas.Size(w: sheetWidth, h: sheetHeight), scale: scaleText(scale),
                                     frameRate: fps, loop: loop, relatedMultiPacks: relatedMultiPacks.isEmpty ? nil : relatedMultiPacks,
                                     throbber: throbber.isEmpty ? nil : throbber)
        return TextureAtlas(frames: frames, animations: [animationName: frameNames], meta: meta)
    }

    /// ``textureAtlas(imageName:frameNames:frameWidth:frameHeight:columns:sheetWidth:sheetHeight:fps:loop:animationName:scale:provenance:times:relatedMultiPacks:)``
    /// as JSON text (``TextureAtlas/json()``), UTF-8, ending in a newline.
    public static func textureAtlasJSON(
        imageName: String, frameNames: [String], frameWidth: Int, frameHeight: Int, columns: Int,
        sheetWidth: Int, sheetHeight: Int, fps: Double, loop: Bool, animationName: String, scale: Double,
        provenance: [(String, String)] = [], times: [Double]? = nil, relatedMultiPacks: [String] = []
    ) -> Data {
        textureAtlas(imageName: imageName, frameNames: frameNames, frameWidth: frameWidth, frameHeight: frameHeight, columns: columns,
                     sheetWidth: sheetWidth, sheetHeight: sheetHeight, fps: fps, loop: loop, animationName: animationName, scale: scale,
                     provenance: provenance, times: times, relatedMultiPacks: relatedMultiPacks).json()
    }

    /// The scale as the atlas's `meta.scale` string: integral values without a fraction ("2",
    /// not "2.0"), others in Swift's shortest round-tripping form ("1.5").
    static func scaleText(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }

    /// ⌈√n⌉ for n ≥ 1, exact for every Int (no floating-point rounding at perfect squares).
    private static func ceilingSquareRoot(_ n: Int) -> Int {
        var root = Int(Double(n).squareRoot())
        while root * root < n { root += 1 }
        while root > 1 && (root - 1) * (root - 1) >= n { root -= 1 }
        return root
    }
}
