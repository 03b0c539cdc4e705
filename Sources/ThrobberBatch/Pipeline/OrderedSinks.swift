import Foundation
import Throbber
import ThrobberDigest
import ThrobberPNG

/// An output that takes a clip's frames in order, on one serial queue: sprite sheets, raw and
/// Y4M streams, ffmpeg videos. Nothing appears under the output's name until `finish`.
protocol OrderedSink: AnyObject {
    /// Takes frame `index` (frames arrive in order).
    func add(_ image: Image, index: Int) throws
    /// Writes what is left and moves the files into place.
    func finish(overwrite: Bool) throws -> [Manifest.Artifact]
    /// Removes every temporary file.
    func abort()
    /// What the output came to, for the run's report, once finished (a sheet's pages and memory).
    var note: String? { get }
}

extension OrderedSink {
    var note: String? { nil }
}

/// Makes the sink for one ordered output of a clip.
///
/// - Parameters:
///   - text: the clip's provenance, which a sheet and its atlas carry.
///   - threads: how many threads a sheet page's PNG is compressed on.
func makeSink(_ output: Output, clip: Clip, width: Int, height: Int, text: FrameText,
              cancellation: CancellationSource = NotCancelled(), threads: Int = 1) throws -> OrderedSink {
    switch output {
    case .png: preconditionFailure("PNG frames are not an ordered output")
    case .sheet(let settings):
        return resampled(SheetSink(settings: settings, clip: clip, timing: output.resampling(in: clip), width: width, height: height, text: text,
                                   cancellation: cancellation, threads: threads), output, clip)
    case .rgba(let path, _):
        return resampled(RawStreamSink(file: try StreamFile(path: path), clip: clip, type: "rgba") { image in image.pixels }, output, clip)
    case .y4m(let path, let alpha, let matte, _):
        let file = try StreamFile(path: path)
        try file.write(Y4M.header(width: width, height: height, fps: output.playbackFPS(clipFPS: clip.fps), alpha: alpha))
        let background = VideoSettings.bytes(matte)
        return resampled(RawStreamSink(file: file, clip: clip, type: "y4m") { image in Array(Y4M.frame(image, alpha: alpha, matte: background)) },
                         output, clip)
    case .video(let path, let settings):
        return resampled(try FFmpegSink(path: path, settings: settings, clip: clip, timing: output.resampling(in: clip), width: width, height: height,
                                        cancellation: cancellation), output, clip)
    }
}

/// `sink` fed through a `ResamplingSink` when the output has a frame rate of its own.
private func resampled(_ sink: OrderedSink, _ output: Output, _ clip: Clip) -> OrderedSink {
    let timing = output.resampling(in: clip)
    return timing.isIdentity ? sink : ResamplingSink(sink, timing: timing)
}

/// Raw RGBA or Y4M frames appended to a file or standard output.
final class RawStreamSink: OrderedSink {
    let file: StreamFile
    let clip: Clip
    let type: String
    let encode: (Image) -> [UInt8]

    init(file: StreamFile, clip: Clip, type: String, encode: @escaping (Image) -> [UInt8]) {
        self.file = file
        self.clip = clip
        self.type = type
        self.encode = encode
    }

    func add(_ image: Image, index: Int) throws { try file.write(encode(image)) }

    func finish(overwrite: Bool) throws -> [Manifest.Artifact] {
        let digest = try file.commit(overwrite: overwrite)
        return file.path == "-" ? [] : [Manifest.Artifact(clip: clip.label, type: type, file: file.path, sha256: digest)]
    }

    func abort() { file.abort() }
}

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

    /// A packed sheet's entries: frame j's name, its sprite's place and kept rectangle.
    static func packedEntries(names: [String], times: [Double], spriteOfFrame: [Int], rects: [TextureAtlas.Rect],
                              placements: [SheetPacker.Placement], frameWidth: Int, frameHeight: Int, fps: Double) -> [SpriteSheet.AtlasEntry] {
        let clock = FrameClock.milliseconds(fps: fps)
        return spriteOfFrame.enumerated().map { j, sprite in
            let rect = rects[sprite], place = placements[sprite]
            return SpriteSheet.AtlasEntry(name: names[j], page: place.page, frame: TextureAtlas.Rect(x: place.x, y: place.y, w: rect.w, h: rect.h),
                                          source: rect, sourceSize: TextureAtlas.Size(w: frameWidth, h: frameHeight),
                                          duration: Double(clock.delay(frame: j)), t: times[j])
        }
    }

    /// A page's PNG or WebP.
    private func encode(_ page: Image, chunks: [(String, String)]) throws -> Data {
        let threads = self.threads, webp = settings.webp
        let encoder = settings.encoder.resolved(scene: clip.scene.model.id, width: page.width, height: page.height)
        // A big page compresses for minutes on one core: a run asked to stop does not wait for it
        // (the page would be rendered again by the resume anyway).
        return try Cancellable.run(cancellation, while: "a sheet page of \(page.width)×\(page.height) px was being compressed") {
            webp ? try WebPImage.encodeLossless(page) : try encoder.encode(page, text: chunks, threads: threads)
        }
    }

    /// The most pages a sheet can take, and so the files claimed before rendering: its grid's
    /// pages (a packing never takes more, `SheetPacker`).
    static func pageBound(_ settings: SheetSettings, frames: Int, width: Int, height: Int) -> Int {
        SpriteSheet.pages(frameCount: frames, frameWidth: width, frameHeight: height, columns: settings.columns, maxSize: settings.maxSize,
                          spacing: settings.spacing).count
    }

    /// The atlases of a sheet of `pageSizes` pages named `files`, from its entries.
    static func atlases(settings: SheetSettings, clip: Clip, timing: Resampling, files: [(image: String, json: String)],
                        pageSizes: [(width: Int, height: Int)], entries: [SpriteSheet.AtlasEntry], text: FrameText) -> [TextureAtlas] {
        let pages = zip(files, pageSizes).map { file, size in
            (image: URL(fileURLWithPath: file.image).lastPathComponent, json: URL(fileURLWithPath: file.json).lastPathComponent,
             width: size.width, height: size.height)
        }
        var atlases = SpriteSheet.atlases(entries: entries, pages: pages, fps: timing.fps, loop: clip.loop != nil,
                                          animationName: settings.animation ?? clip.name, scale: clip.scene.scale,
                                          provenance: text.clipChunks.filter { $0.0.hasPrefix("Throbber:") }, format: settings.format)
        // A chained clip's links: each atlas names those that drew its page's frames.
        let chainKey = String(FrameText.Key.chain.dropFirst("Throbber:".count))
        if text.tailValue(FrameText.Key.chain) != nil {
            for index in atlases.indices {
                let links = text.forCells(atlases[index].frames.compactMap(\.frame.t)).tailValue(FrameText.Key.chain)
                atlases[index].meta.throbber?[chainKey] = links
            }
        }
        return atlases
    }

    /// A grid sheet's entries, which depend on the clip and the settings alone (`--skip-existing`
    /// compares a kept page's atlas with them).
    static func gridEntries(settings: SheetSettings, clip: Clip, timing: Resampling, pages: [SpriteSheet.Page],
                            width: Int, height: Int) -> [SpriteSheet.AtlasEntry] {
        pages.enumerated().flatMap { number, page in
            SpriteSheet.gridEntries(frameNames: page.frames.map { clip.frameName(timing.clipFrame($0)) }, frameWidth: width, frameHeight: height,
                                    columns: page.columns, fps: timing.fps, times: page.frames.map { clip.time(timing.clipFrame($0)) },
                                    spacing: settings.spacing, page: number, firstFrame: page.frames.lowerBound)
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
            + "; \(timing.frames) frames\(stored)\(settings.trim ? ", trimmed" : "")"
    }

    /// The Phaser multi-atlas at `path` of pages whose atlases are `atlases`, its images named
    /// relative to its own directory.
    static func multiatlas(_ atlases: [TextureAtlas], files: [(image: String, json: String)], at path: String, scale: Double) -> MultiAtlas {
        let base = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.pathComponents
        let images = files.map { file -> String in
            let parts = URL(fileURLWithPath: file.image).standardizedFileURL.pathComponents
            var common = 0
            while common < min(base.count, parts.count - 1), base[common] == parts[common] { common += 1 }
            return (Array(repeating: "..", count: base.count - common) + parts[common...]).joined(separator: "/")
        }
        return MultiAtlas(pages: atlases, images: images, scale: scale)
    }

    /// What the sheet came to (pages, sizes, texture memory), for the run's report; set by `finish`.
    private(set) var note: String?

    func abort() {}
}

/// A GIF, WebP, APNG, MP4 or WebM made by ffmpeg from the raw frames piped to its standard input.
///
/// A GIF is made in two passes, so that no process holds the clip: a palette is generated from
/// the frames as they arrive (ffmpeg's palettegen, which keeps a histogram, not frames), while
/// each frame is also kept on disk in a spool of PNG frames beside the output; at `finish` a
/// second ffmpeg maps the spooled frames to the palette (paletteuse). A single filter graph
/// (`split → palettegen → paletteuse`) buffered every frame until the palette was known:
/// 3.36 GB in ffmpeg for 600 frames of 900×900 px.
///
/// Once the run is asked to stop, ffmpeg is killed at once and the frames still to come are
/// dropped (`FFmpegChild`); nothing is placed and the temporary files are removed.
final class FFmpegSink: OrderedSink {
    let path: String
    let temporary: String
    let clip: Clip
    /// The video's frames and rate (its own `fps`, or a GIF's 50 for a faster clip).
    let timing: Resampling
    let format: String
    let settings: VideoSettings
    let width: Int, height: Int
    let cancellation: CancellationSource
    private let ffmpeg: URL
    /// The encoder, or for a GIF the first pass (the palette).
    private let child: FFmpegChild
    /// A GIF's spool of PNG frames (`GIFSpool`).
    private let spool: GIFSpool?

    /// Where ffmpeg is, or nil.
    static var executable: URL? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { URL(fileURLWithPath: String($0)).appendingPathComponent("ffmpeg") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    init(path: String, settings: VideoSettings, clip: Clip, timing: Resampling, width: Int, height: Int,
         cancellation: CancellationSource = NotCancelled()) throws {
        guard let ffmpeg = FFmpegSink.executable else {
            throw ThrobberError("ffmpeg is not on PATH; install it (apt-get install -y ffmpeg) to write \(path)", kind: .backendUnavailable)
        }
        self.ffmpeg = ffmpeg
        self.path = path
        self.clip = clip
        self.settings = settings
        self.timing = timing
        self.width = width
        self.height = height
        self.cancellation = cancellation
        format = URL(fileURLWithPath: path).pathExtension.lowercased()
        temporary = AtomicFile.temporaryName(for: path)
        var arguments = FFmpegSink.rawInput(width: width, height: height, fps: timing.fps, from: "pipe:0")
        // GIF counts time in centiseconds, APNG and WebP in milliseconds, and their muxers take
        // each delay from the difference of two timestamps (the last from -final_delay): stamping
        // frame j with t(j) in that time base (FrameClock, the same double product) makes every
        // delay t(j+1) − t(j), so they add up to the clip's length instead of each being
        // rounded alone (1/60 s delays are cut to 16 ms by Chromium). The encoder keeps the time
        // base, so nothing is rescaled on the way.
        let last = timing.frames - 1
        switch format {
        case "gif":
            // The first pass: the palette, generated from the clip itself, one entry kept for
            // transparency, written to standard output as 16×16 BGRA pixels.
            arguments += ["-vf", "palettegen=reserve_transparent=1:stats_mode=full", "-f", "rawvideo", "-pix_fmt", "bgra", "pipe:1"]
        case "webp":
            // The last frame's duration, the background hint and the loop count are set in the
            // file afterwards (`WebPAnimation.finish`): ffmpeg's libwebp_anim takes none of them.
            arguments += ["-vf", FrameClock.milliseconds(fps: timing.fps).ffmpegFilter, "-enc_time_base", "1/1000",
                          "-c:v", "libwebp_anim", "-lossless", "1", "-loop", "0", "-f", "webp"]
        case "apng":
            let clock = FrameClock.milliseconds(fps: timing.fps)
            arguments += ["-vf", clock.ffmpegFilter, "-enc_time_base", "1/1000", "-final_delay", "\(clock.delay(frame: last))/1000",
                          "-plays", String(settings.loopCount), "-f", "apng"]
        case "webm":
            // VP9 with an alpha plane (yuva420p; libvpx codes it as a second stream that WebM
            // carries beside the colour, which Chromium and Firefox composite). Constant quality;
            // alt-ref frames off, as libvpx needs for alpha. BT.601 limited, tagged so.
            arguments += ["-vf", "scale=out_color_matrix=bt601:out_range=tv,format=yuva420p", "-c:v", "libvpx-vp9", "-pix_fmt", "yuva420p",
                          "-auto-alt-ref", "0", "-b:v", "0", "-crf", String(settings.crf(format: "webm")), "-row-mt", "1", "-deadline", "good", "-cpu-used", "4",
                          "-colorspace", "bt470bg", "-color_primaries", "bt709", "-color_trc", "iec61966-2-1", "-color_range", "tv",
                          "-f", "webm"]
        default:
            // H.264 has no alpha: frames arrive composited over the matte. 4:2:0 needs even
            // sides: padded with the matte, cropped or stretched as `oddSize` says (and the run
            // says so). RGB becomes BT.709 limited range in swscale, and the stream is tagged
            // with exactly that, so players need not guess (an untagged small video is often
            // decoded as BT.601, shifting every colour).
            var filters: [String] = []
            let (evenWidth, evenHeight) = settings.mp4Size(width: width, height: height)
            if (evenWidth, evenHeight) != (width, height) {
                switch settings.oddSize {
                case .pad: filters.append("pad=\(evenWidth):\(evenHeight):0:0:color=0x\(settings.matteHex.dropFirst())")
                case .crop: filters.append("crop=\(evenWidth):\(evenHeight):0:0")
                case .scale: filters.append("scale=\(evenWidth):\(evenHeight)")
                }
            }
            filters += ["scale=out_color_matrix=bt709:out_range=tv", "format=yuv420p"]
            arguments += ["-vf", filters.joined(separator: ","), "-c:v", "libx264", "-crf", String(settings.crf(format: "mp4")), "-pix_fmt", "yuv420p",
                          "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv",
                          "-movflags", "+faststart", "-f", "mp4"]
        }
        if format == "gif" {
            let spool = try GIFSpool(for: path)
            self.spool = spool
            do {
                child = try FFmpegChild(ffmpeg, arguments: arguments, temporaries: [], collectsOutput: true, cancellation: cancellation)
            } catch {
                spool.abort()
                throw error
            }
        } else {
            spool = nil
            child = try FFmpegChild(ffmpeg, arguments: arguments + [temporary], temporaries: [temporary], cancellation: cancellation)
        }
    }

    /// ffmpeg's arguments for raw RGBA frames of `width` × `height` px at `fps` read from `source`.
    static func rawInput(width: Int, height: Int, fps: Double, from source: String) -> [String] {
        ["-hide_banner", "-loglevel", "error", "-nostdin", "-y",
         "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)", "-framerate", String(format: "%.6g", fps), "-i", source]
    }

    func add(_ image: Image, index: Int) throws {
        // A run asked to stop drops the frames bound for its videos (the encoder is killed).
        if cancellation.cancellationReason != nil {
            child.stop()
            return
        }
        var pixels = image.pixels
        if format == "mp4" {
            FFmpegSink.composite(&pixels, over: settings.matteBytes, keepingTransparent: false)
        } else if format == "gif", settings.matte != nil {
            FFmpegSink.composite(&pixels, over: settings.matteBytes, keepingTransparent: true)
        }
        if let failure = pixels.withUnsafeBytes({ child.write($0) }) {
            throw ThrobberError("ffmpeg stopped reading frames for \(path): \(child.lastLine)", kind: .io, code: failure.rawValue)
        }
        if let spool, !child.stopped {
            try spool.add(Image(width: image.width, height: image.height, pixels: pixels))
        }
    }

    /// Composites straight-alpha RGBA pixels over an opaque colour (source-over on the 8-bit
    /// sRGB-encoded values, as every compositing step here), leaving them opaque.
    ///
    /// - Parameter keepingTransparent: leave pixels of alpha 0 as they are (GIF keeps those
    ///   transparent; only partial alpha, which it cannot hold, is flattened).
    static func composite(_ pixels: inout [UInt8], over matte: (r: Int, g: Int, b: Int), keepingTransparent: Bool) {
        let background = [matte.r, matte.g, matte.b]
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let a = Int(pixels[i + 3])
            if a == 255 || (a == 0 && keepingTransparent) { continue }
            for c in 0..<3 { pixels[i + c] = UInt8((Int(pixels[i + c]) * a + background[c] * (255 - a) + 127) / 255) }
            pixels[i + 3] = 255
        }
    }

    /// The error of a run that was asked to stop while this video was being made.
    private func interrupted() -> ThrobberError {
        ThrobberError.interrupted(cancellation.cancellationReason ?? "cancellation",
                                  "while \(ThrobberError.shownPath(path)) was being encoded; it was dropped")
    }

    func finish(overwrite: Bool) throws -> [Manifest.Artifact] {
        let status = child.finish()
        defer { child.release() }
        if child.stopped || cancellation.cancellationReason != nil {
            unlink(temporary)
            spool?.abort()
            throw interrupted()
        }
        guard status == 0 else {
            unlink(temporary)
            spool?.abort()
            throw ThrobberError("ffmpeg failed to write \(path) (status \(status)): \(child.lastLine)", kind: .io)
        }
        if let spool { try encodeGIF(spool) }
        if format == "webp" { try fixWebP() }
        // Hashed as it is read, 1 MiB at a time: a video may be far larger than its frames.
        let digest: String
        do {
            digest = try InputFile.digest(temporary, what: "video ffmpeg wrote").sha256
        } catch {
            unlink(temporary)
            throw ThrobberError("ffmpeg wrote no \(ThrobberError.shownPath(path))", kind: .io)
        }
        try AtomicFile.place(temporary, at: path, overwrite: overwrite)
        return [Manifest.Artifact(clip: clip.label, type: format, file: path, sha256: digest)]
    }

    /// A GIF's second pass: the spooled frames mapped to the palette the first pass generated
    /// (handed to ffmpeg on its standard input), timed in centiseconds.
    private func encodeGIF(_ spool: GIFSpool) throws {
        defer { spool.abort() }
        let palette = child.collectedOutput
        guard palette.count == 16 * 16 * 4 else {
            throw ThrobberError("ffmpeg generated no palette for \(path) (\(palette.count) bytes): \(child.lastLine)", kind: .io)
        }
        try spool.close()
        let clock = FrameClock.centiseconds(fps: timing.fps)
        // GIF's NETSCAPE loop counts repeats after the first play; -loop -1 writes none (one play).
        let loop = settings.loopCount == 0 ? 0 : settings.loopCount == 1 ? -1 : settings.loopCount - 1
        let arguments = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y",
                         "-f", "png_pipe", "-framerate", String(format: "%.6g", timing.fps), "-i", spool.path,
                         "-f", "rawvideo", "-pix_fmt", "bgra", "-s", "16x16", "-i", "pipe:0",
                         "-filter_complex", "[0:v]\(clock.ffmpegFilter)[a];[a][1:v]paletteuse=alpha_threshold=\(settings.alphaThreshold)",
                         "-enc_time_base", "1/100", "-final_delay", String(clock.delay(frame: timing.frames - 1)), "-loop", String(loop),
                         "-f", "gif", temporary]
        let second = try FFmpegChild(ffmpeg, arguments: arguments, temporaries: [temporary], cancellation: cancellation)
        defer { second.release() }
        _ = palette.withUnsafeBytes { second.write($0) }
        let status = second.finish()
        if second.stopped || cancellation.cancellationReason != nil {
            unlink(temporary)
            throw interrupted()
        }
        guard status == 0 else {
            unlink(temporary)
            throw ThrobberError("ffmpeg failed to write \(path) (status \(status)): \(second.lastLine)", kind: .io)
        }
    }

    /// A WebP's header and last delay set as the output says: ffmpeg's libwebp_anim writes an
    /// opaque white background hint, and the last frame's duration as the one before it.
    private func fixWebP() throws {
        do {
            try WebPAnimation.finish(temporary, lengthMilliseconds: FrameClock.milliseconds(fps: timing.fps).start(frame: timing.frames),
                                     background: settings.background, loopCount: settings.loopCount, width: width, height: height,
                                     shownPath: path)
        } catch let error as ThrobberError {
            unlink(temporary)
            throw error
        }
    }

    func abort() {
        child.terminate()
        unlink(temporary)
        spool?.abort()
        child.release()
    }
}

/// The last bytes a child wrote to stderr, for error messages.
final class ErrorTail: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func append(_ chunk: Data) {
        lock.lock()
        data.append(chunk)
        if data.count > 4096 { data = data.suffix(4096) }
        lock.unlock()
    }

    /// What the child said last, on one line: its last three non-empty lines joined with " / "
    /// (ffmpeg gives the reason on the lines before a closing "Error initializing output
    /// stream 0:0 --"), at most 600 characters, the end kept.
    var lastLine: String {
        lock.lock()
        defer { lock.unlock() }
        let lines = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && $0 != "--" }
        guard !lines.isEmpty else { return "no message" }
        let text = lines.suffix(3).joined(separator: " / ")
        return text.count > 600 ? "…" + text.suffix(600) : text
    }
}
