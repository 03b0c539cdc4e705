import Foundation
import Throbber

/// What a sheet stores of one frame: the rectangle of the frame it keeps (the whole frame, or its
/// bounding box of non-empty pixels when trimmed) and those pixels.
struct Sprite: Sendable {
    /// Where the kept pixels lie in the frame (`spriteSourceSize`).
    var rect: TextureAtlas.Rect
    /// The kept pixels, `rect.w × rect.h` RGBA.
    var pixels: [UInt8]

    /// `image` kept whole, or trimmed to the smallest rectangle holding every pixel that is not
    /// transparent black (all four bytes 0, which is what the renderers write where nothing is
    /// drawn; a pixel of alpha 0 with colour bytes is kept, so the frame is restored byte for
    /// byte). A frame with nothing in it keeps its top-left pixel, as TexturePacker keeps 1×1.
    init(_ image: Image, trim: Bool) {
        let width = image.width, height = image.height
        guard trim else {
            rect = TextureAtlas.Rect(x: 0, y: 0, w: width, h: height)
            pixels = image.pixels
            return
        }
        var minX = width, minY = height, maxX = -1, maxY = -1
        image.pixels.withUnsafeBytes { raw in
            let words = raw.bindMemory(to: UInt32.self)
            for y in 0..<height {
                let row = y * width
                var x = 0
                while x < width, words[row + x] == 0 { x += 1 }
                guard x < width else { continue }
                var last = width - 1
                while words[row + last] == 0 { last -= 1 }
                minX = min(minX, x)
                maxX = max(maxX, last)
                if minY == height { minY = y }
                maxY = y
            }
        }
        if maxX < 0 { (minX, minY, maxX, maxY) = (0, 0, 0, 0) }
        rect = TextureAtlas.Rect(x: minX, y: minY, w: maxX - minX + 1, h: maxY - minY + 1)
        pixels = Sprite.crop(image, rect)
    }

    /// The pixels of `rect` in `image`.
    static func crop(_ image: Image, _ rect: TextureAtlas.Rect) -> [UInt8] {
        if rect.x == 0, rect.y == 0, rect.w == image.width, rect.h == image.height { return image.pixels }
        var out = [UInt8](repeating: 0, count: rect.w * rect.h * 4)
        image.pixels.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                for y in 0..<rect.h {
                    (dst.baseAddress! + y * rect.w * 4)
                        .copyMemory(from: src.baseAddress! + ((rect.y + y) * image.width + rect.x) * 4, byteCount: rect.w * 4)
                }
            }
        }
        return out
    }
}

/// Identical frames found as they arrive: a frame whose kept rectangle and pixels equal an
/// earlier sprite's is that sprite.
struct SpriteIndex {
    private(set) var sprites: [Sprite] = []
    private var byHash: [Int: [Int]] = [:]

    /// The sprite `image` is stored as: an earlier one when `alias` and they are identical,
    /// otherwise a new one.
    mutating func add(_ image: Image, trim: Bool, alias: Bool) -> Int {
        let sprite = Sprite(image, trim: trim)
        guard alias else {
            sprites.append(sprite)
            return sprites.count - 1
        }
        var hasher = Hasher()
        hasher.combine(sprite.rect.x)
        hasher.combine(sprite.rect.y)
        hasher.combine(sprite.rect.w)
        hasher.combine(sprite.rect.h)
        sprite.pixels.withUnsafeBytes { hasher.combine(bytes: $0) }
        let key = hasher.finalize()
        for candidate in byHash[key, default: []] where sprites[candidate].rect == sprite.rect && sprites[candidate].pixels == sprite.pixels {
            return candidate
        }
        sprites.append(sprite)
        byHash[key, default: []].append(sprites.count - 1)
        return sprites.count - 1
    }
}

/// Packs rectangles onto as few pages as it can, each as small and as square as it can: shelves
/// of the rectangles tallest first, left to right, each page no wider than a width tried from the
/// squarest that could hold everything up to `maxSize`; the fewest pages win, then the shortest
/// longest side (a long strip is as costly to a GPU's texture limit as a square on that side),
/// then the smallest total area.
///
/// Every rectangle is at most a grid cell, and a page `maxSize` wide holds at least a grid
/// page's cells, so the packing never takes more pages than the untrimmed grid
/// (`SpriteSheet.pages`) would: the pages claimed before rendering cover it.
enum SheetPacker {
    /// Where a rectangle went: its page and the top-left corner of its pixels (inside the extrusion).
    struct Placement: Sendable, Equatable {
        var page: Int
        var x: Int, y: Int
    }

    /// The packing of `sizes` (w, h each at most `maxSize` − 2 · extrude).
    ///
    /// - Returns: the pages' sizes and each rectangle's placement, in the order given.
    static func pack(_ sizes: [(w: Int, h: Int)], maxSize: Int, spacing: SpriteSheet.Spacing) -> (pages: [(w: Int, h: Int)], placements: [Placement]) {
        precondition(!sizes.isEmpty, "nothing to pack")
        let e = spacing.extrude, p = spacing.padding
        let order = sizes.indices.sorted { a, b in
            let (sa, sb) = (sizes[a], sizes[b])
            return sa.h != sb.h ? sa.h > sb.h : sa.w != sb.w ? sa.w > sb.w : a < b
        }
        let widest = sizes.map { $0.w + 2 * e }.max()!
        let area = sizes.reduce(0.0) { $0 + Double(($1.w + 2 * e + p) * ($1.h + 2 * e + p)) }
        // Widths to try: the squarest page for the whole area, and steps up to maxSize.
        let square = Int(area.squareRoot().rounded(.up))
        var widths = Set([maxSize, min(maxSize, max(widest, square))])
        for step in 1...24 {
            widths.insert(min(maxSize, max(widest, square * (16 + step) / 16)))
            widths.insert(min(maxSize, max(widest, widest + (maxSize - widest) * step / 24)))
        }
        var best: (pages: [(w: Int, h: Int)], placements: [Placement], side: Int, area: Int)?
        for width in widths.sorted() {
            let trial = shelves(sizes, order: order, width: width, maxSize: maxSize, spacing: spacing)
            let total = trial.pages.reduce(0) { $0 + $1.w * $1.h }
            let side = trial.pages.map { max($0.w, $0.h) }.max()!
            if let current = best, (current.pages.count, current.side, current.area) <= (trial.pages.count, side, total) { continue }
            best = (trial.pages, trial.placements, side, total)
        }
        return (best!.pages, best!.placements)
    }

    /// Shelves no wider than `width` and pages no taller than `maxSize`.
    private static func shelves(_ sizes: [(w: Int, h: Int)], order: [Int], width: Int, maxSize: Int,
                                spacing: SpriteSheet.Spacing) -> (pages: [(w: Int, h: Int)], placements: [Placement]) {
        let e = spacing.extrude, p = spacing.padding
        var placements = [Placement](repeating: Placement(page: 0, x: 0, y: 0), count: sizes.count)
        var pages: [(w: Int, h: Int)] = [(0, 0)]
        var x = 0, y = 0, shelfHeight = 0
        for index in order {
            let slotWidth = sizes[index].w + 2 * e, slotHeight = sizes[index].h + 2 * e
            if x > 0 && x + slotWidth > width {
                // A new shelf below this one.
                y += shelfHeight + p
                x = 0
                shelfHeight = 0
            }
            if y + slotHeight > maxSize {
                pages.append((0, 0))
                (x, y, shelfHeight) = (0, 0, 0)
            }
            let page = pages.count - 1
            placements[index] = Placement(page: page, x: x + e, y: y + e)
            pages[page].w = max(pages[page].w, x + slotWidth)
            pages[page].h = max(pages[page].h, y + slotHeight)
            x += slotWidth + p
            shelfHeight = max(shelfHeight, slotHeight)
        }
        return (pages, placements)
    }
}

/// A page being drawn: transparent, with sprites copied onto it and their edges extruded.
struct PageCanvas {
    let width: Int, height: Int
    private(set) var pixels: [UInt8]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// Copies `w × h` RGBA `source` pixels with their top-left at (x, y), and repeats their
    /// outermost rows and columns `extrude` px outwards (corners take the corner pixel), so that
    /// bilinear filtering at the sprite's edge samples its own colour, never a neighbour's.
    mutating func draw(_ source: [UInt8], w: Int, h: Int, x: Int, y: Int, extrude e: Int) {
        precondition(x - e >= 0 && y - e >= 0 && x + w + e <= width && y + h + e <= height,
                     "a \(w)×\(h) sprite at (\(x), \(y)) with \(e) px of extrusion leaves the \(width)×\(height) page")
        let pageWidth = width
        source.withUnsafeBytes { src in
            pixels.withUnsafeMutableBytes { dst in
                let words = dst.bindMemory(to: UInt32.self), from = src.bindMemory(to: UInt32.self)
                for row in -e..<(h + e) {
                    let sourceRow = min(max(row, 0), h - 1) * w
                    let target = (y + row) * pageWidth + x
                    (dst.baseAddress! + target * 4).copyMemory(from: src.baseAddress! + sourceRow * 4, byteCount: w * 4)
                    if e > 0 {
                        let left = from[sourceRow], right = from[sourceRow + w - 1]
                        for k in 1...e {
                            words[target - k] = left
                            words[target + w - 1 + k] = right
                        }
                    }
                }
            }
        }
    }

    /// The page as an image.
    var image: Image { Image(width: width, height: height, pixels: pixels) }
}
