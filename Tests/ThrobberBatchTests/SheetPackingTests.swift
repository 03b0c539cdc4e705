import Foundation
import Testing
@testable import Throbber
@testable import ThrobberBatch

/// Draws from a seeded SplitMix64, so every failure is the same on every run.
private struct Draw {
    var generator: SplitMix64
    init(_ seed: UInt64) { generator = SplitMix64(seed: seed) }
    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(generator.next() % UInt64(range.count)) }
    mutating func unit() -> Double { generator.nextUnit() }
    mutating func bool() -> Bool { generator.next() & 1 == 1 }
}

/// Frame timing as browsers play it, and frames taken at an output's own rate.
struct FrameTimingTests {
    /// Over the whole range of rates: delays are ⌊step⌋ or ⌈step⌉ ticks and add up to t(frames)
    /// exactly, the output's length rounded once.
    @Test func delaysAddUpToTheLengthRoundedOnce() {
        var draw = Draw(11)
        for _ in 0..<2000 {
            let fps = draw.bool() ? Double(draw.int(1...240)) : 0.5 + draw.unit() * 239.5
            let frames = draw.int(1...600)
            for clock in [FrameClock.centiseconds(fps: fps), .milliseconds(fps: fps)] {
                let delays = (0..<frames).map(clock.delay(frame:))
                let step = Double(clock.ticksPerSecond) / fps
                #expect(delays.reduce(0, +) == Int((Double(frames) * step).rounded(.toNearestOrAwayFromZero)), "fps \(fps), \(frames) frames")
                #expect(delays.allSatisfy { Double($0) >= step.rounded(.down) && Double($0) <= step.rounded(.up) }, "fps \(fps): \(delays.prefix(5))")
                let range = clock.delayRange(frames: frames)
                #expect(range.lowerBound == delays.min()! && range.upperBound == delays.max()!, "fps \(fps)")
            }
            // At 50 fps or less every GIF delay is at least 2 cs, which browsers play as written.
            if fps <= GIFTiming.maximumFPS {
                #expect((0..<frames).allSatisfy { FrameClock.centiseconds(fps: fps).delay(frame: $0) >= 2 }, "fps \(fps)")
            }
        }
        // 60 fps in milliseconds: 17, 16, 17 … a second in all, where 1/60 s each is cut to 16 ms.
        let sixty = FrameClock.milliseconds(fps: 60)
        #expect((0..<6).map(sixty.delay(frame:)) == [17, 16, 17, 17, 16, 17] && sixty.start(frame: 60) == 1000)
    }

    /// Output frame j shows the clip frame on screen at j / fps: at or before that time, the next
    /// one after it; the output lasts the clip's length to within half an output frame.
    @Test func resampledFramesAreTheClipsFramesOnScreen() {
        var draw = Draw(12)
        for _ in 0..<2000 {
            let clipFPS = draw.bool() ? Double(draw.int(1...120)) : 1 + draw.unit() * 119
            let fps = draw.bool() ? Double(draw.int(1...120)) : 1 + draw.unit() * 119
            let clipFrames = draw.int(1...500)
            let timing = Resampling(clipFrames: clipFrames, clipFPS: clipFPS, fps: fps)
            #expect(abs(Double(timing.frames) / fps - Double(clipFrames) / clipFPS) <= 0.5 / fps + 1e-9 || timing.frames == 1)
            var previous = -1
            for j in 0..<timing.frames {
                let k = timing.clipFrame(j)
                #expect(k >= 0 && k < clipFrames && k >= previous, "clip \(clipFrames)@\(clipFPS) → \(fps): frame \(j) shows \(k)")
                if fps <= clipFPS { #expect(k > previous, "downsampling takes each clip frame once at most") }
                let t = Double(j) / fps
                #expect(Double(k) / clipFPS <= t + 1e-9, "frame \(j) shows a clip frame from after its time")
                if k + 1 < clipFrames { #expect(Double(k + 1) / clipFPS > t - 1e-9, "frame \(j) shows a clip frame already replaced") }
                previous = k
            }
        }
        #expect(Resampling(clipFrames: 60, clipFPS: 60, fps: 50).frames == 50)
        #expect((0..<6).map(Resampling(clipFrames: 60, clipFPS: 60, fps: 50).clipFrame) == [0, 1, 2, 3, 4, 6])
        #expect((0..<4).map(Resampling(clipFrames: 60, clipFPS: 60, fps: 30).clipFrame) == [0, 2, 4, 6])
    }
}

/// Trimming, aliasing, packing and extruding a sheet's frames.
struct SheetPackingTests {
    /// A frame of `width × height` with random pixels inside `rect` and transparent black outside.
    private func frame(_ draw: inout Draw, width: Int, height: Int, rect: (x: Int, y: Int, w: Int, h: Int)?) -> Image {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        if let rect {
            for y in rect.y..<(rect.y + rect.h) {
                for x in rect.x..<(rect.x + rect.w) {
                    for c in 0..<4 { pixels[(y * width + x) * 4 + c] = UInt8(draw.int(0...255)) }
                }
            }
            // The bounding box's corners are not empty, so the box is exactly `rect`.
            for (x, y) in [(rect.x, rect.y), (rect.x + rect.w - 1, rect.y + rect.h - 1)] { pixels[(y * width + x) * 4 + 3] = 255 }
        }
        return Image(width: width, height: height, pixels: pixels)
    }

    @Test func trimKeepsTheSmallestBoxOfNonEmptyPixelsAndRestoresTheFrame() {
        var draw = Draw(21)
        for _ in 0..<300 {
            let width = draw.int(1...40), height = draw.int(1...40)
            let w = draw.int(1...width), h = draw.int(1...height)
            let rect = (x: draw.int(0...(width - w)), y: draw.int(0...(height - h)), w: w, h: h)
            let image = frame(&draw, width: width, height: height, rect: rect)
            let sprite = Sprite(image, trim: true)
            #expect(sprite.rect == TextureAtlas.Rect(x: rect.x, y: rect.y, w: rect.w, h: rect.h))
            // Put back into a transparent frame, the sprite is the frame byte for byte.
            var canvas = PageCanvas(width: width, height: height)
            canvas.draw(sprite.pixels, w: sprite.rect.w, h: sprite.rect.h, x: sprite.rect.x, y: sprite.rect.y, extrude: 0)
            #expect(canvas.pixels == image.pixels)
            #expect(Sprite(image, trim: false).rect == TextureAtlas.Rect(x: 0, y: 0, w: width, h: height))
        }
        // Nothing drawn: one pixel kept, as TexturePacker keeps an empty sprite.
        let empty = frame(&draw, width: 9, height: 5, rect: nil)
        #expect(Sprite(empty, trim: true).rect == TextureAtlas.Rect(x: 0, y: 0, w: 1, h: 1))
        // A pixel of alpha 0 with colour is kept: the frame is restored exactly.
        var pixels = empty.pixels
        pixels[(3 * 9 + 4) * 4] = 7
        #expect(Sprite(Image(width: 9, height: 5, pixels: pixels), trim: true).rect == TextureAtlas.Rect(x: 4, y: 3, w: 1, h: 1))
    }

    @Test func aliasStoresIdenticalFramesOnce() {
        var draw = Draw(22)
        let images = (0..<6).map { _ in frame(&draw, width: 12, height: 10, rect: (2, 1, 8, 7)) }
        var index = SpriteIndex()
        let order = [0, 1, 0, 2, 1, 1, 3, 0, 4, 5, 5]
        let trim = draw.bool()
        let ids = order.map { index.add(images[$0], trim: trim, alias: true) }
        #expect(index.sprites.count == 6)
        for (a, b) in zip(order.indices, order.indices.dropFirst()) where order[a] == order[b] { #expect(ids[a] == ids[b]) }
        #expect(Set(zip(order, ids).map { "\($0.0)-\($0.1)" }).count == 6, "one sprite per distinct frame")
        var plain = SpriteIndex()
        for i in order { _ = plain.add(images[i], trim: false, alias: false) }
        #expect(plain.sprites.count == order.count)
    }

    /// Random rectangles, padding and extrusion: every placement inside its page with its
    /// extrusion, none overlapping another's slot or its padding, no page past maxSize, and never
    /// more pages than the untrimmed grid.
    @Test func packingPlacesEverySpriteApartWithinItsPageAndNeverTakesMorePagesThanTheGrid() {
        var draw = Draw(23)
        for _ in 0..<150 {
            let cellWidth = draw.int(1...90), cellHeight = draw.int(1...90)
            let spacing = SpriteSheet.Spacing(padding: draw.int(0...4), extrude: draw.int(0...3))
            let maxSize = draw.int((max(cellWidth, cellHeight) + 2 * spacing.extrude)...400)
            let count = draw.int(1...120)
            let sizes = (0..<count).map { _ in (w: draw.int(1...cellWidth), h: draw.int(1...cellHeight)) }
            let (pages, placements) = SheetPacker.pack(sizes, maxSize: maxSize, spacing: spacing)
            let grid = SpriteSheet.pages(frameCount: count, frameWidth: cellWidth, frameHeight: cellHeight, columns: nil, maxSize: maxSize,
                                         spacing: spacing)
            #expect(pages.count <= grid.count, "\(pages.count) pages, the grid \(grid.count)")
            #expect(pages.allSatisfy { $0.w <= maxSize && $0.h <= maxSize && $0.w > 0 && $0.h > 0 })
            let e = spacing.extrude, p = spacing.padding
            for (i, (size, place)) in zip(sizes, placements).enumerated() {
                #expect(place.x - e >= 0 && place.y - e >= 0 && place.x + size.w + e <= pages[place.page].w
                        && place.y + size.h + e <= pages[place.page].h, "sprite \(i) leaves its page")
                for j in 0..<i where placements[j].page == place.page {
                    let other = placements[j], o = sizes[j]
                    // Slots (sprite plus extrusion) are at least `padding` apart.
                    let apart = place.x - e >= other.x + o.w + e + p || other.x - e >= place.x + size.w + e + p
                        || place.y - e >= other.y + o.h + e + p || other.y - e >= place.y + size.h + e + p
                    #expect(apart, "sprites \(j) and \(i) overlap on page \(place.page)")
                }
            }
        }
    }

    /// Equal frames that fit one page go on a square-ish one, not a strip of the same area.
    @Test func packedPagesAreSquareIsh() {
        for (count, side) in [(48, 96), (12, 720), (240, 240), (7, 50)] {
            let (pages, _) = SheetPacker.pack(Array(repeating: (w: side, h: side), count: count), maxSize: 4096, spacing: .none)
            #expect(pages.count == 1)
            let (w, h) = (pages[0].w, pages[0].h)
            #expect(Double(max(w, h)) <= 2 * Double(min(w, h)), "\(count) frames of \(side) px on a \(w)×\(h) page")
            #expect(w * h <= 2 * count * side * side, "\(w)×\(h) for \(count) frames of \(side) px")
        }
    }

    @Test func extrusionRepeatsTheEdgesOutwards() {
        var draw = Draw(24)
        let w = 5, h = 4, e = 2
        let source = (0..<(w * h * 4)).map { _ in UInt8(draw.int(1...255)) }
        var canvas = PageCanvas(width: w + 2 * e + 3, height: h + 2 * e + 3)
        canvas.draw(source, w: w, h: h, x: e + 1, y: e + 2, extrude: e)
        func pixel(_ x: Int, _ y: Int) -> ArraySlice<UInt8> { canvas.pixels[((y * canvas.width) + x) * 4..<((y * canvas.width) + x) * 4 + 4] }
        func sourcePixel(_ x: Int, _ y: Int) -> ArraySlice<UInt8> { source[(y * w + x) * 4..<(y * w + x) * 4 + 4] }
        for y in -e..<(h + e) {
            for x in -e..<(w + e) {
                #expect(pixel(e + 1 + x, e + 2 + y) == sourcePixel(min(max(x, 0), w - 1), min(max(y, 0), h - 1)), "(\(x), \(y))")
            }
        }
        // Outside the extrusion the page stays transparent.
        #expect(pixel(0, 0) == [0, 0, 0, 0] && pixel(canvas.width - 1, canvas.height - 1) == [0, 0, 0, 0])
    }

    @Test func pagePlaceholderNamesEveryPageAndOldNamesStayForOnePage() {
        #expect(SpriteSheet.pageFiles(path: "a/s-{page}.png", json: "a/s-{page}.json", pageCount: 1).map { [$0.image, $0.json] }
                == [["a/s-0.png", "a/s-0.json"]])
        #expect(SpriteSheet.pageFiles(path: "a/s-{page}.png", json: "b/atlas.json", pageCount: 2).map { [$0.image, $0.json] }
                == [["a/s-0.png", "b/atlas-0.json"], ["a/s-1.png", "b/atlas-1.json"]])
        #expect(SpriteSheet.pageFiles(path: "a/s.png", json: "a/s.json", pageCount: 1).map { [$0.image, $0.json] } == [["a/s.png", "a/s.json"]])
        #expect(SpriteSheet.pageFiles(path: "a/s.png", json: "a/s.json", pageCount: 2).map(\.image) == ["a/s-0.png", "a/s-1.png"])
    }

    /// JSON Array atlases read back as they were written; a multi-atlas names its images relative
    /// to its own directory.
    /// A page's atlas lists what the page holds; the first alone names the other pages and the
    /// whole animation: so the atlases together grow with the pages, not with their square.
    @Test(arguments: [(2, 1), (10, 1), (100, 1), (300, 1), (300, 7)])
    func atlasesGrowLinearlyWithPages(pageCount: Int, perPage: Int) throws {
        let pages = (0..<pageCount).map { (image: "s-\($0).png", json: "s-\($0).json", width: 8 * perPage, height: 8) }
        let entries = (0..<pageCount * perPage).map { j in
            SpriteSheet.AtlasEntry(name: "f\(j)", page: j / perPage, frame: TextureAtlas.Rect(x: 8 * (j % perPage), y: 0, w: 8, h: 8),
                                   source: TextureAtlas.Rect(x: 0, y: 0, w: 8, h: 8), sourceSize: TextureAtlas.Size(w: 8, h: 8),
                                   duration: 17, t: Double(j) / 60)
        }
        let atlases = SpriteSheet.atlases(entries: entries, pages: pages, fps: 60, loop: false, animationName: "x", scale: 1)
        #expect(atlases.count == pageCount)
        for (number, atlas) in atlases.enumerated() {
            let mine = (number * perPage..<(number + 1) * perPage).map { "f\($0)" }
            #expect(atlas.frames.map(\.name) == mine)
            #expect(atlas.animations == ["x": mine])
            #expect(atlas.meta.animations == (number == 0 ? ["x": entries.map(\.name)] : nil))
            #expect(atlas.meta.relatedMultiPacks == (number == 0 ? pages.dropFirst().map(\.json) : nil))
        }
        // Every page but the first is no larger than a sheet of its frames alone (give or take
        // the digits of names and times); the first adds a name per frame and per page.
        let alone = SpriteSheet.atlases(entries: Array(entries[..<perPage]), pages: [pages[0]], fps: 60, loop: false, animationName: "x",
                                        scale: 1)[0].json().count
        let sizes = atlases.map { $0.json().count }
        #expect(sizes.dropFirst().allSatisfy { $0 <= alone + 32 * perPage }, "later atlases up to \(sizes.dropFirst().max()!) bytes, alone \(alone)")
        #expect(sizes[0] <= alone + 40 * pageCount * (perPage + 1), "the first atlas is \(sizes[0]) bytes")
        #expect(sizes.reduce(0, +) <= pageCount * (alone + 40 * (perPage + 1) + 32 * perPage))
    }

    @Test func arrayAtlasesRoundTripAndTheMultiAtlasNamesImagesRelativeToItself() throws {
        let entries = SpriteSheet.gridEntries(frameNames: ["a", "b", "c"], frameWidth: 4, frameHeight: 3, columns: 2, fps: 30,
                                              times: [0, 1.0 / 30, 2.0 / 30], spacing: SpriteSheet.Spacing(padding: 1, extrude: 2))
        #expect(entries.map(\.frame) == [TextureAtlas.Rect(x: 2, y: 2, w: 4, h: 3), TextureAtlas.Rect(x: 11, y: 2, w: 4, h: 3),
                                          TextureAtlas.Rect(x: 2, y: 10, w: 4, h: 3)])
        #expect(entries.map(\.duration) == [33, 34, 33])
        for format in SheetSettings.AtlasFormat.allCases {
            let atlas = SpriteSheet.atlases(entries: entries, pages: [("s.png", "s.json", 17, 15)], fps: 30, loop: true, animationName: "x",
                                            scale: 2, format: format)[0]
            let data = atlas.json()
            #expect(try TextureAtlas(decoding: data) == atlas, "\(format)")
            let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(format == .array ? root["frames"] is [Any] : root["frames"] is [String: Any])
        }
        let pages = SpriteSheet.atlases(entries: entries.enumerated().map { i, e in var e = e; e.page = i % 2; return e },
                                        pages: [("s-0.png", "s-0.json", 17, 15), ("s-1.png", "s-1.json", 17, 15)], fps: 30, loop: true,
                                        animationName: "x", scale: 2)
        #expect(pages.map { $0.animations["x"]! } == [["a", "c"], ["b"]])
        #expect(pages.map(\.meta.animations) == [["x": ["a", "b", "c"]], nil])
        #expect(pages.map(\.meta.relatedMultiPacks) == [["s-1.json"], nil])
        let multi = SheetSink.multiatlas(pages, files: [("/o/s/s-0.png", "/o/s/s-0.json"), ("/o/t/s-1.png", "/o/t/s-1.json")],
                                         at: "/o/s/m.json", scale: 2)
        #expect(multi.textures.map(\.image) == ["s-0.png", "../t/s-1.png"])
        #expect(multi.textures.map { $0.frames.map(\.filename) } == [["a", "c"], ["b"]])
    }
}
