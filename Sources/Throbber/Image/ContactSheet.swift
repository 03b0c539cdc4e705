import Dispatch

/// A grid of frames on one opaque sheet, each labelled underneath (for `throbber preview`).
public enum ContactSheet {
    /// Checks, before any frame is rendered, that the sheet `compose` would make of `frames`
    /// frames of `frameWidth × frameHeight` px in `columns` columns fits the sprite-sheet limits
    /// (`Limits.sheetSide` a side, `Limits.sheetPixels` in all): the frames and the sheet are
    /// all held in memory. The arithmetic is in `Double`, so it cannot overflow.
    ///
    /// - Throws: a usage error naming the sheet's size, the frames and the limits, with the
    ///   ``ThrobberError/Remedy/smallerContactSheet`` remedy.
    public static func checkSize(frames: Int, frameWidth: Int, frameHeight: Int, columns: Int) throws {
        let columns = max(1, min(columns, frames))
        let rows = (frames + columns - 1) / columns
        let gap = 8.0, labelHeight = Double(PixelFont.glyphHeight * 3 + 6)
        let width = Double(columns) * (Double(frameWidth) + gap) + gap
        let height = Double(rows) * (Double(frameHeight) + labelHeight + gap) + gap
        guard width <= Double(Limits.sheetSide), height <= Double(Limits.sheetSide),
              width * height <= Double(Limits.sheetPixels) else {
            throw ThrobberError(
                "invalid preview: \(frames) frames of \(frameWidth)×\(frameHeight) px in \(columns) columns make about "
                    + "\(formatNumber(width))×\(formatNumber(height)) px; a sheet is at most \(Limits.sheetSide) px a side and "
                    + "\(Limits.sheetPixels) px in all",
                kind: .usage, remedy: .smallerContactSheet)
        }
    }

    /// The gap around and between cells, in pixels.
    static let gap = 8

    /// The size of the sheet ``compose(_:times:columns:)`` makes of `frames` frames of
    /// `frameWidth × frameHeight` px in `columns` columns, worked out without a frame
    /// (`throbber reproduce` compares it with a file's header before rendering anything).
    /// The arithmetic is in `Int`: callers keep the sides within the pixel budgets.
    public static func size(frames: Int, frameWidth: Int, frameHeight: Int, columns: Int) -> (width: Int, height: Int) {
        let g = geometry(frames: frames, frameWidth: frameWidth, frameHeight: frameHeight, columns: columns, labelled: true)
        return (g.width, g.height)
    }

    private static func geometry(frames: Int, frameWidth: Int, frameHeight: Int, columns: Int, labelled: Bool)
        -> (columns: Int, cellWidth: Int, cellHeight: Int, width: Int, height: Int, glyphScale: Int) {
        let columns = max(1, min(columns, frames))
        let rows = (frames + columns - 1) / columns
        let glyphScale = max(1, min(3, frameWidth / 60))
        let labelHeight = labelled ? PixelFont.glyphHeight * glyphScale + 6 : 0
        let cellWidth = frameWidth + gap
        let cellHeight = frameHeight + labelHeight + gap
        return (columns, cellWidth, cellHeight, columns * cellWidth + gap, rows * cellHeight + gap, glyphScale)
    }

    /// A contact sheet of frames labelled with their times ("0.250s"), as `throbber preview`
    /// writes it and `throbber reproduce` rebuilds it.
    public static func compose(_ frames: [Image], times: [Double], columns: Int) -> Image {
        compose(frames, labels: times.map { String(format: "%.3fs", $0) }, columns: columns)
    }

    /// Lays `frames` out in `columns` columns on a light sheet, compositing each frame's straight
    /// alpha over it, with `labels[i]` under frame i in a small built-in pixel font.
    ///
    /// - Precondition: every frame has the size of the first; `labels` is empty or one per frame.
    public static func compose(_ frames: [Image], labels: [String], columns: Int) -> Image {
        guard let first = frames.first else { return Image(width: 1, height: 1) }
        let (columns, cellWidth, cellHeight, width, height, glyphScale) = geometry(frames: frames.count, frameWidth: first.width,
                                                                                   frameHeight: first.height, columns: columns,
                                                                                   labelled: !labels.isEmpty)
        let gap = ContactSheet.gap
        // Cell `index`'s top-left corner on the sheet.
        @Sendable func origin(_ index: Int) -> (left: Int, top: Int) {
            (gap + (index % columns) * cellWidth, gap + (index / columns) * cellHeight)
        }
        for frame in frames {
            precondition(frame.width == first.width && frame.height == first.height, "frames differ in size")
        }
        // The light sheet, then each frame composited over a checkerboard that shows where it is
        // transparent: the frames on as many threads as there are, each into its own cell.
        let sheetColor: (UInt8, UInt8, UInt8) = (236, 236, 236), checkColor: (UInt8, UInt8, UInt8) = (214, 214, 214)
        var pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            let words = UnsafeMutableRawPointer(buffer.baseAddress!).bindMemory(to: UInt32.self, capacity: width * height)
            words.initialize(repeating: UInt32(littleEndian: 0xFFEC_ECEC), count: width * height)
            count = width * height * 4
        }
        pixels.withUnsafeMutableBufferPointer { sheet in
            let out = SheetPixels(base: sheet.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: frames.count) { index in
                let frame = frames[index]
                let (left, top) = origin(index)
                frame.pixels.withUnsafeBufferPointer { source in
                    for y in 0..<frame.height {
                        let row = out.base + ((top + y) * width + left) * 4
                        let from = source.baseAddress! + y * frame.width * 4
                        let checkerRow = (y / 8) % 2
                        for x in 0..<frame.width {
                            let under = (x / 8) % 2 == checkerRow ? sheetColor : checkColor
                            let s = from + x * 4, d = row + x * 4
                            let a = Int(s[3]), b = 255 - a
                            d[0] = UInt8((Int(s[0]) * a + Int(under.0) * b + 127) / 255)
                            d[1] = UInt8((Int(s[1]) * a + Int(under.1) * b + 127) / 255)
                            d[2] = UInt8((Int(s[2]) * a + Int(under.2) * b + 127) / 255)
                        }
                    }
                }
            }
        }
        for index in labels.indices where index < frames.count {
            let (left, top) = origin(index)
            PixelFont.draw(labels[index], into: &pixels, sheetWidth: width, x: left, y: top + first.height + 3, scale: glyphScale)
        }
        return Image(width: width, height: height, pixels: pixels)
    }
}

/// The sheet's pixels, written by the threads of ``ContactSheet/compose(_:labels:columns:)``, each
/// into cells of its own.
private struct SheetPixels: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
}

/// A 3×5 pixel font for frame-time labels: digits, '.', '-', 's', '@', 'x' and space.
enum PixelFont {
    static let glyphHeight = 5
    static let glyphs: [Character: [String]] = [
        "0": ["111", "101", "101", "101", "111"], "1": ["010", "110", "010", "010", "111"],
        "2": ["111", "001", "111", "100", "111"], "3": ["111", "001", "111", "001", "111"],
        "4": ["101", "101", "111", "001", "001"], "5": ["111", "100", "111", "001", "111"],
        "6": ["111", "100", "111", "101", "111"], "7": ["111", "001", "010", "010", "010"],
        "8": ["111", "101", "111", "101", "111"], "9": ["111", "101", "111", "001", "111"],
        ".": ["000", "000", "000", "000", "010"], "-": ["000", "000", "111", "000", "000"],
        "s": ["011", "100", "010", "001", "110"], "x": ["000", "101", "010", "101", "000"],
        "@": ["111", "101", "111", "100", "111"], " ": ["000", "000", "000", "000", "000"],
    ]

    /// Draws `text` in dark grey with its top-left corner at (x, y), each font pixel `scale` px.
    static func draw(_ text: String, into pixels: inout [UInt8], sheetWidth: Int, x: Int, y: Int, scale: Int) {
        let sheetHeight = pixels.count / 4 / sheetWidth
        var penX = x
        for character in text {
            guard let rows = glyphs[character] else {
                penX += 4 * scale
                continue
            }
            for (row, bits) in rows.enumerated() {
                for (column, bit) in bits.enumerated() where bit == "1" {
                    for dy in 0..<scale {
                        for dx in 0..<scale {
                            let px = penX + column * scale + dx, py = y + row * scale + dy
                            guard px < sheetWidth, py < sheetHeight else { continue }
                            let i = (py * sheetWidth + px) * 4
                            pixels[i] = 40; pixels[i + 1] = 40; pixels[i + 2] = 40; pixels[i + 3] = 255
                        }
                    }
                }
            }
            penX += 4 * scale
        }
    }
}
