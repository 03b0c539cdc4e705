import Foundation
import Throbber
import ThrobberDigest
import ThrobberPNG

/// Every frame of a clip on sheet pages (PNG or WebP), each with a TexturePacker atlas beside it
/// and optionally one Phaser multi-atlas for all. A grid sheet (neither trimmed nor aliased)
/// encodes a page as soon as its last frame arrives, so only one page's pixels are held; a
/// packed one keeps each distinct (trimmed) frame until the last, then packs and encodes its
/// pages. Nothing is written until `finish`.
final class SheetSink: OrderedSink {
    let clip: Clip
    let settings: SheetSettings
    /// Which clip frame each of the sheet's frames is (its own `fps`).
    let timing: Resampling
    let frameWidth: Int, frameHeight: Int
    let text: FrameText
    let cancellation: CancellationSource
    /// How many threads a page is compressed on (its segments, PNGEncoder.encode).
    let threads: Int
    /// A grid sheet's pages (of a packed sheet: the most it can take, `SheetSink.pageBound`).
    let gridPages: [SpriteSheet.Page]
    /// The page being filled, and its index in `gridPages` (a grid sheet).
    private var canvas: PageCanvas?
    private var current = 0
    /// The encoded pages, in order, with their size.
    private var encoded: [(data: Data, width: Int, height: Int)] = []
    /// A packed sheet's distinct frames, and which one each frame is.
    private var sprites = SpriteIndex()
    private var spriteOfFrame: [Int] = []
    /// The atlases' entries once every page is laid out.
    private var entries: [SpriteSheet.AtlasEntry] = []

    init(settings: SheetSettings, clip: Clip, timing: Resampling, width: Int, height: Int, text: FrameText, cancellation: CancellationSource,
         threads: Int) {
        self.settings = settings
        self.threads = threads
        self.cancellation = cancellation
        self.text = text
        self.clip = clip
        self.timing = timing
        frameWidth = width
        frameHeight = height
        gridPages = SpriteSheet.pages(frameCount: timing.frames, frameWidth: width, frameHeight: height, columns: settings.columns,
                                      maxSize: settings.maxSize, spacing: settings.spacing)
    }

    /// The names and clip times of the sheet's frames.
    var frameNames: [String] { (0..<timing.frames).map { clip.frameName(timing.clipFrame($0)) } }
    var frameTimes: [Double] { (0..<timing.frames).map { clip.time(timing.clipFrame($0)) } }

    func add(_ image: Image, index: Int) throws {
        if settings.packs {
            spriteOfFrame.append(sprites.add(image, trim: settings.trim, alias: settings.alias))
            if index == timing.frames - 1 { try packAndEncode() }
            return
        }
        while !gridPages[current].frames.contains(index) { current += 1 }
        let page = gridPages[current]
        if canvas == nil { canvas = PageCanvas(width: page.width, height: page.height) }
        let cell = index - page.frames.lowerBound, spacing = settings.spacing
        canvas!.draw(image.pixels, w: frameWidth, h: frameHeight, x: spacing.origin(cell % page.columns, side: frameWidth),
                     y: spacing.origin(cell / page.columns, side: frameHeight), extrude: spacing.extrude)
        if index == page.frames.upperBound - 1 {
            let times = page.frames.map { clip.time(timing.clipFrame($0)) }
            // A plain grid renders again from its tEXt (its cells' times); a spaced one names its layout.
            let pageText = text.forCells(times)
            let chunks = spacing == .none ? pageText.chunks(columns: page.columns, times: times) : pageText.chunks(atlasTimes: times)
            encoded.append((try encode(canvas!.image, chunks: chunks), page.width, page.height))
            canvas = nil
        }
    }

    /// Packs the distinct frames onto pages and encodes each, every frame's entry recorded.
    private func packAndEncode() throws {
        let list = sprites.sprites
        let (pages, placements) = SheetPacker.pack(list.map { ($0.rect.w, $0.rect.h) }, maxSize: settings.maxSize, spacing: settings.spacing)
        precondition(pages.count <= gridPages.count, "a packed sheet took \(pages.count) pages, more than the \(gridPages.count) claimed")
        var canvases = pages.map { PageCanvas(width: $0.w, height: $0.h) }
        for (sprite, place) in zip(list, placements) {
            canvases[place.page].draw(sprite.pixels, w: sprite.rect.w, h: sprite.rect.h, x: place.x, y: place.y, extrude: settings.spacing.extrude)
        }
        sprites = SpriteIndex() // the pixels are on the pages now
        entries = Self.packedEntries(names: frameNames, times: frameTimes, spriteOfFrame: spriteOfFrame, rects: list.map(\.rect),
                                     placements: placements, frameWidth: frameWidth, frameHeight: frameHeight, fps: timing.fps)
        // Each stored frame's time once per page, in the order the atlas lists them (one pass).
        var seen = Array(repeating: Set<TextureAtlas.Rect>(), count: canvases.count)
        var times = Array(repeating: [Double](), count: canvases.count)
        for entry in entries where seen[entry.page].insert(entry.frame).inserted { times[entry.page].append(entry.t ?? 0) }
        for number in canvases.indices {
            let canvas = canvases[number]
            if let reason = cancellation.cancellationReason {
                throw ThrobberError.interrupted(reason, "while \(clip.label)'s sheet pages were compressed (\(number) of \(canvases.count))")
            }
            encoded.append((try encode(canvas.image, chunks: text.forCells(times[number]).chunks(atlasTimes: times[number])), canvas.width, canvas.height))
            canvases[number] = PageCanvas(width: 0, height: 0) // compressed: its pixels go
        }
    }

    /// A page's PNG or WebP.
    private func encode(_ page: Image, chunks: [(String, String)]) throws -> Data {
        let threads = self.threads, webp = settings.webp
        // `auto` chooses from the page itself, as for any image with no frame before it.
        let choice = webp ? PNGChoice(encoder: settings.encoder, reason: nil) : try settings.encoder.choice(for: page)
        if choice.reason != nil { choices.append(choice) }
        let encoder = choice.encoder
        // A big page compresses for minutes on one core: a run asked to stop does not wait for it
        // (the page would be rendered again by the resume anyway).
        return try Cancellable.run(cancellation, while: "a sheet page of \(page.width)×\(page.height) px was being compressed") {
            webp ? try WebPImage.encodeLossless(page) : try encoder.encode(page, text: chunks, threads: threads)
        }
    }

    func finish(overwrite: Bool) throws -> [Manifest.Artifact] {
        precondition(settings.packs ? !encoded.isEmpty : encoded.count == gridPages.count,
                     "sheet finished with \(encoded.count) of \(gridPages.count) pages encoded")
        if !settings.packs {
            entries = Self.gridEntries(settings: settings, clip: clip, timing: timing, pages: gridPages, width: frameWidth, height: frameHeight)
        }
        let files = SpriteSheet.pageFiles(path: settings.path, json: settings.json, pageCount: encoded.count)
        let atlases = Self.atlases(settings: settings, clip: clip, timing: timing, files: files,
                                   pageSizes: encoded.map { ($0.width, $0.height) }, entries: entries, text: text)
        var artifacts: [Manifest.Artifact] = []
        // The sheet is written whole or not at all: a signal between pages (thousands of small
        // pages take seconds) stops the writing, and the files this call placed are removed.
        var placed: [String] = []
        do {
            for ((page, atlas), file) in zip(zip(encoded, atlases), files) {
                try stopIfAsked(pages: files.count, written: placed.count / 2)
                let json = atlas.json()
                try AtomicFile.write(page.data, toPath: file.image, overwrite: overwrite)
                placed.append(file.image)
                try AtomicFile.write(json, toPath: file.json, overwrite: overwrite)
                placed.append(file.json)
                artifacts += [Manifest.Artifact(clip: clip.label, type: "sheet", file: file.image, sha256: SHA256.hex(page.data)),
                              Manifest.Artifact(clip: clip.label, type: "atlas", file: file.json, sha256: SHA256.hex(json))]
            }
            if let multiatlas = settings.multiatlas {
                try stopIfAsked(pages: files.count, written: files.count)
                let data = Self.multiatlas(atlases, files: files, at: multiatlas, scale: clip.scene.scale).json()
                try AtomicFile.write(data, toPath: multiatlas, overwrite: overwrite)
                artifacts.append(Manifest.Artifact(clip: clip.label, type: "multiatlas", file: multiatlas, sha256: SHA256.hex(data)))
            }
        } catch {
            for path in placed { unlink(path) }
            throw error
        }
        note = summary(files: files)
        return artifacts
    }

    /// Throws `.interrupted` once the run is asked to stop, saying how far the writing got.
    private func stopIfAsked(pages: Int, written: Int) throws {
        if let reason = cancellation.cancellationReason {
            throw ThrobberError.interrupted(reason, "while \(clip.label)'s sheet was written (\(written) of \(pages) pages); "
                                            + "the pages written were removed")
        }
    }

    /// The sheet in a line: its pages, their sizes and the texture memory they take (4 bytes a
    /// pixel, as a GPU holds RGBA8), and how many frames it stores.
    private func summary(files: [(image: String, json: String)]) -> String {
        let bytes = encoded.reduce(0) { $0 + $1.width * $1.height * 4 }
        // Runs of equal sizes in one group ("14 × 960×960, 960×480"), so a many-page sheet stays one readable line.
        var runs: [(size: String, count: Int)] = []
        for page in encoded {
            let size = "\(page.width)×\(page.height)"
            if let last = runs.last, last.size == size { runs[runs.count - 1].count += 1 } else { runs.append((size, 1)) }
        }
        let sizes = runs.map { $0.count > 1 ? "\($0.count) × \($0.size)" : $0.size }.joined(separator: ", ")
        let stored = settings.packs ? ", \(Set(entries.map { "\($0.page) \($0.frame.x) \($0.frame.y)" }).count) stored" : ""
        let first = ThrobberError.shownPath(files[0].image)
        return "\(clip.label) → \(first)\(files.count > 1 ? " …" : ""): \(encoded.count) page\(encoded.count == 1 ? "" : "s") (\(sizes) px), "
            + String(format: "%.1f MiB of texture memory", Double(bytes) / 1_048_576)
            + "; \(timing.frames) frames\(stored)\(settings.trim ? ", trimmed" : "")" + choicesText
    }

    /// What `auto` chose for the pages, each distinct setting once with the first page's reason:
    /// "; PNG auto: zlib 4 none (1536 px; 100 % rows changed, at least 40 % (no frame before))".
    private var choicesText: String {
        var seen: Set<PNGEncoder> = []
        let distinct = choices.filter { seen.insert($0.encoder).inserted }
        return distinct.isEmpty ? "" : "; PNG " + distinct.map(\.description).joined(separator: ", ")
    }

    /// What `auto` wrote each page with, in page order.
    private var choices: [PNGChoice] = []

    /// What the sheet came to (pages, sizes, texture memory), for the run's report; set by `finish`.
    private(set) var note: String?

    func abort() {}
}
