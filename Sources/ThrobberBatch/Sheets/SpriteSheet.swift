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

    /// Where a grid's cells lie: each frame's `extrude` px of repeated edge around it, and
    /// `padding` transparent px between neighbouring frames (not at the page's edges, which a
    /// sampler clamps to anyway).
    public struct Spacing: Sendable, Equatable {
        public var padding: Int
        public var extrude: Int

        public init(padding: Int = 0, extrude: Int = 0) {
            self.padding = padding
            self.extrude = extrude
        }

        /// No padding and no extrusion: cells touch.
        public static let none = Spacing()

        /// The extent of `count` slots of `side` px in a row: count · (side + 2·extrude) + (count − 1) · padding.
        public func extent(_ count: Int, side: Int) -> Int {
            count == 0 ? 0 : count * (side + 2 * extrude) + (count - 1) * padding
        }

        /// How many slots of `side` px fit in `length` px.
        public func fitting(_ length: Int, side: Int) -> Int {
            (length + padding) / (side + 2 * extrude + padding)
        }

        /// The top-left corner of the frame (inside its extrusion) in slot `index` of a row.
        public func origin(_ index: Int, side: Int) -> Int { index * (side + 2 * extrude + padding) + extrude }
    }

    /// The pages of a sheet, as TexturePacker's multipack splits one: frames fill each page in
    /// order, every page but the last as full as `maxSize` allows.
    ///
    /// A page holds at most as many cells across as fit `maxSize` (or `columns`, when fewer) and as
    /// many down as fit it, with `spacing` between and around them. Each page takes `columns`
    /// cells across (cut down to the page's frames), or, without `columns`, the squarest grid of
    /// its frames that fits: so a sheet that fits one page is laid out exactly as `layout` lays
    /// it out.
    ///
    /// - Parameters:
    ///   - frameCount: how many frames the sheet holds.
    ///   - frameWidth: the width of one frame in pixels.
    ///   - frameHeight: the height of one frame in pixels.
    ///   - columns: as `layout` takes it.
    ///   - maxSize: the largest side of a page in pixels.
    ///   - spacing: padding and extrusion (none by default).
    /// - Returns: the pages, first to last; one when everything fits.
    /// - Precondition: every argument is positive, and one frame fits `maxSize` (`checkSize`).
    public static func pages(frameCount: Int, frameWidth: Int, frameHeight: Int, columns: Int?, maxSize: Int,
                             spacing: Spacing = .none) -> [Page] {
        precondition(frameCount > 0, "a sprite sheet needs at least one frame, not \(frameCount)")
        precondition(frameWidth + 2 * spacing.extrude <= maxSize && frameHeight + 2 * spacing.extrude <= maxSize,
                     "a \(frameWidth)×\(frameHeight) px frame is larger than maxSize \(maxSize)")
        let maxColumns = min(spacing.fitting(maxSize, side: frameWidth), columns ?? Int.max)
        let maxRows = spacing.fitting(maxSize, side: frameHeight)
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
                              width: spacing.extent(across, side: frameWidth), height: spacing.extent(down, side: frameHeight)))
            first += count
        }
        return pages
    }

    /// The image and atlas files of each of `pageCount` pages: `path` and `json` themselves for
    /// one page; otherwise each with `-K` (K from 0) before its extension, as TexturePacker's `{n}`
    /// numbers a multipack: `sheet.png` and `sheet.json` become `sheet-0.png`, `sheet-0.json`,
    /// `sheet-1.png` ….
    ///
    /// A path holding `{page}` (TexturePacker's `{n}`) is numbered by it on every page, one page or
    /// several, so that one template names every sheet alike: `sheet-{page}.png` is `sheet-0.png`
    /// for one page too (and a path without it is then numbered `-K` as above).
    public static func pageFiles(path: String, json: String, pageCount: Int) -> [(image: String, json: String)] {
        let placeholder = "{\(FramePattern.pagePlaceholder)}"
        guard pageCount > 1 || path.contains(placeholder) || json.contains(placeholder) else { return [(path, json)] }
        func name(_ file: String, _ index: Int) -> String {
            file.contains(placeholder) ? file.replacingOccurrences(of: placeholder, with: String(index)) : numbered(file, index)
        }
        return (0..<pageCount).map { (name(path, $0), name(json, $0)) }
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
    ///   larger; a usage error naming the sheet, its page size and the limits when a page is too
    ///   large; a usage error naming `maxSize` when the sheet takes more than `Limits.sheetPages` pages.
    public static func checkSize(path: String, frameCount: Int, frameWidth: Int, frameHeight: Int, columns: Int?,
                                 maxSize: Int = Limits.sheetSide, spacing: Spacing = .none, defaultMaxSize: Bool = false) throws {
        try maxSizeRule.check(maxSize)
        let e = spacing.extrude
        guard frameWidth + 2 * e <= maxSize, frameHeight + 2 * e <= maxSize else {
            throw ThrobberError(
                "invalid maxSize \(maxSize)\(defaultMaxSize ? " (the default)" : ""): a page of sheet "
                    + "\(ThrobberError.echoed(path, longest: ThrobberError.longestPathEcho)) holds whole frames, and one frame is "
                    + "\(frameWidth)×\(frameHeight) px\(e > 0 ? " with \(e) px of extrusion each side" : ""); give \"maxSize\" of at least "
                    + "\(max(frameWidth, frameHeight) + 2 * e) (at most \(maxSizeRange.upperBound)) or a smaller scale",
                kind: .usage, field: "maxSize")
        }
        // The first page is the largest: as full as the limits allow.
        let page = pages(frameCount: min(max(frameCount, 1), spacing.fitting(maxSize, side: frameWidth) * spacing.fitting(maxSize, side: frameHeight)),
                         frameWidth: frameWidth, frameHeight: frameHeight, columns: columns, maxSize: maxSize, spacing: spacing)[0]
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
        // Every page but the last holds as many frames as the first.
        let pageCount = (max(frameCount, 1) + count - 1) / count
        guard pageCount <= Limits.sheetPages else {
            throw ThrobberError(
                "sheet \(ThrobberError.echoed(path, longest: ThrobberError.longestPathEcho)) takes \(pageCount) pages (\(frameCount) frames, "
                    + "\(count) a page at maxSize \(maxSize)); a sheet is at most \(Limits.sheetPages) pages: give a larger \"maxSize\""
                    + "\(columns == nil ? "" : " or more \"columns\""), fewer frames or a lower \"fps\"",
                kind: .usage, field: "maxSize")
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

    /// ⌈√n⌉ for n ≥ 1, exact for every Int (no floating-point rounding at perfect squares).
    static func ceilingSquareRoot(_ n: Int) -> Int {
        var root = Int(Double(n).squareRoot())
        while root * root < n { root += 1 }
        while root > 1 && (root - 1) * (root - 1) >= n { root -= 1 }
        return root
    }
}
