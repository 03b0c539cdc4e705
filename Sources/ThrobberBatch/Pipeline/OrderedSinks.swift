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
    case .sheet(let path, let json, let columns, let maxSize, let encoder):
        return SheetSink(path: path, json: json, columns: columns, maxSize: maxSize, clip: clip, width: width, height: height,
                         encoder: encoder, text: text, cancellation: cancellation, threads: threads)
    case .rgba(let path):
        return RawStreamSink(file: try StreamFile(path: path), clip: clip, type: "rgba") { image in image.pixels }
    case .y4m(let path, let alpha):
        let file = try StreamFile(path: path)
        try file.write(Y4M.header(width: width, height: height, fps: clip.fps, alpha: alpha))
        return RawStreamSink(file: file, clip: clip, type: "y4m") { image in Array(Y4M.frame(image, alpha: alpha)) }
    case .video(let path, let settings):
        return try FFmpegSink(path: path, settings: settings, clip: clip, width: width, height: height)
    }
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

/// Every frame of a clip on grid PNG pages, each with a TexturePacker "JSON Hash" atlas beside
/// it. A page is encoded as soon as its last frame arrives, so only one page's pixels are held;
/// nothing is written until `finish`.
final class SheetSink: OrderedSink {
    let clip: Clip
    let pages: [SpriteSheet.Page]
    let files: [(image: String, json: String)]
    let frameWidth: Int, frameHeight: Int
    let encoder: PNGEncoder
    let text: FrameText
    let cancellation: CancellationSource
    /// How many threads a page is compressed on (its segments, PNGEncoder.encode).
    let threads: Int
    /// The page being filled, and its index in `pages`.
    private var builder: SpriteSheet.Builder?
    private var current = 0
    /// The encoded pages, in order: PNG and atlas.
    private var encoded: [(png: Data, atlas: Data)] = []

    init(path: String, json: String, columns: Int?, maxSize: Int, clip: Clip, width: Int, height: Int, encoder: PNGEncoder,
         text: FrameText, cancellation: CancellationSource, threads: Int) {
        self.encoder = encoder
        self.threads = threads
        self.cancellation = cancellation
        self.text = text
        self.clip = clip
        frameWidth = width
        frameHeight = height
        pages = SpriteSheet.pages(frameCount: clip.frameCount, frameWidth: width, frameHeight: height, columns: columns, maxSize: maxSize)
        files = SpriteSheet.pageFiles(path: path, json: json, pageCount: pages.count)
    }

    func add(_ image: Image, index: Int) throws {
        while !pages[current].frames.contains(index) { current += 1 }
        let page = pages[current]
        if builder == nil {
            builder = SpriteSheet.Builder(columns: page.columns, rows: page.rows, frameWidth: frameWidth, frameHeight: frameHeight)
        }
        builder!.place(image, at: index - page.frames.lowerBound)
        if index == page.frames.upperBound - 1 {
            encoded.append(try encode(page, builder!.image, number: current))
            builder = nil
        }
    }

    /// A full page's PNG and atlas. The page renders again from its own tEXt (its cells' times),
    /// and so does each of its frames from the atlas (the clip's provenance, each frame's time).
    private func encode(_ page: SpriteSheet.Page, _ sheet: Image, number: Int) throws -> (png: Data, atlas: Data) {
        let times = page.frames.map(clip.time)
        let encoder = self.encoder.resolved(scene: clip.scene.model.id, width: sheet.width, height: sheet.height)
        let chunks = text.chunks(columns: page.columns, times: times)
        let threads = self.threads
        // A big page compresses for minutes on one core: a run asked to stop does not wait for it
        // (the page would be rendered again by the resume anyway).
        let png = try Cancellable.run(cancellation, while: "a sheet page of \(sheet.width)×\(sheet.height) px was being compressed") {
            try encoder.encode(sheet, text: chunks, threads: threads)
        }
        return (png, SheetSink.atlas(clip: clip, files: files, number: number, page: page, frameWidth: frameWidth,
                                     frameHeight: frameHeight, text: text).json())
    }

    /// The atlas of page `number`, which depends on the clip, the page and the provenance alone
    /// (`--skip-existing` compares a kept page's atlas with it).
    static func atlas(clip: Clip, files: [(image: String, json: String)], number: Int, page: SpriteSheet.Page,
                      frameWidth: Int, frameHeight: Int, text: FrameText) -> TextureAtlas {
        // Each page's animation lists its own frames: PixiJS looks an animation's names up in
        // that page's textures only.
        let others = files.indices.filter { $0 != number }.map { URL(fileURLWithPath: files[$0].json).lastPathComponent }
        return SpriteSheet.textureAtlas(
            imageName: URL(fileURLWithPath: files[number].image).lastPathComponent, frameNames: clip.frameNames(page.frames),
            frameWidth: frameWidth, frameHeight: frameHeight, columns: page.columns, sheetWidth: page.columns * frameWidth,
            sheetHeight: page.rows * frameHeight, fps: clip.fps, loop: clip.loop != nil, animationName: clip.label, scale: clip.scene.scale,
            provenance: text.clipChunks.filter { $0.0.hasPrefix("Throbber:") }, times: page.frames.map(clip.time),
            relatedMultiPacks: others)
    }

    func finish(overwrite: Bool) throws -> [Manifest.Artifact] {
        precondition(encoded.count == pages.count, "sheet finished with \(encoded.count) of \(pages.count) pages encoded")
        var artifacts: [Manifest.Artifact] = []
        for ((png, atlas), file) in zip(encoded, files) {
            try AtomicFile.write(png, to: URL(fileURLWithPath: file.image), overwrite: overwrite)
            try AtomicFile.write(atlas, to: URL(fileURLWithPath: file.json), overwrite: overwrite)
            artifacts += [Manifest.Artifact(clip: clip.label, type: "sheet", file: file.image, sha256: SHA256.hex(png)),
                          Manifest.Artifact(clip: clip.label, type: "atlas", file: file.json, sha256: SHA256.hex(atlas))]
        }
        return artifacts
    }

    func abort() {}
}

/// A GIF, WebP, APNG or MP4 made by ffmpeg from the raw frames piped to its standard input.
final class FFmpegSink: OrderedSink {
    let path: String
    let temporary: String
    let clip: Clip
    let process = Process()
    let input = Pipe()
    let errors = Pipe()
    let format: String
    let settings: VideoSettings
    private let errorText = ErrorTail()
    /// ffmpeg and its temporary file, registered so that a signal that abandons the process
    /// stops ffmpeg and removes the file.
    private var token: InFlightFiles.Token?

    /// Where ffmpeg is, or nil.
    static var executable: URL? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { URL(fileURLWithPath: String($0)).appendingPathComponent("ffmpeg") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    init(path: String, settings: VideoSettings, clip: Clip, width: Int, height: Int) throws {
        guard let ffmpeg = FFmpegSink.executable else {
            throw ThrobberError("ffmpeg is not on PATH; install it (apt-get install -y ffmpeg) to write \(path)", kind: .backendUnavailable)
        }
        self.path = path
        self.clip = clip
        self.settings = settings
        format = URL(fileURLWithPath: path).pathExtension.lowercased()
        temporary = AtomicFile.temporaryName(for: path)
        var arguments = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y",
                         "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)",
                         "-framerate", String(format: "%.6g", clip.fps), "-i", "pipe:0"]
        switch format {
        case "gif":
            // GIF counts time in centiseconds and its muxer takes each delay from the difference
            // of two timestamps, the last from -final_delay: stamping frame k with t(k) in a
            // 1/100 s time base (the same double product GIFTiming computes) makes every delay
            // t(k+1) − t(k), so they add up to t(frames) instead of each being rounded alone.
            // The encoder keeps that time base, so nothing is rescaled on the way.
            let step = String(format: "%.17g", GIFTiming.step(fps: clip.fps))
            let finalDelay = GIFTiming.delay(frame: clip.frameCount - 1, fps: clip.fps)
            // A palette generated from the clip itself, one entry kept for transparency.
            arguments += ["-filter_complex", "[0:v]settb=1/100,setpts=round(N*\(step)),split[a][b];"
                          + "[a]palettegen=reserve_transparent=1:stats_mode=full[p];[b][p]paletteuse=alpha_threshold=128",
                          "-enc_time_base", "1/100", "-final_delay", String(finalDelay), "-loop", "0", "-f", "gif"]
        case "webp":
            arguments += ["-c:v", "libwebp_anim", "-lossless", "1", "-loop", "0", "-f", "webp"]
        case "apng":
            arguments += ["-plays", "0", "-f", "apng"]
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
            arguments += ["-vf", filters.joined(separator: ","), "-c:v", "libx264", "-pix_fmt", "yuv420p",
                          "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv",
                          "-movflags", "+faststart", "-f", "mp4"]
        }
        arguments.append(temporary)
        process.executableURL = ffmpeg
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        let tail = errorText
        errors.fileHandleForReading.readabilityHandler = { handle in tail.append(handle.availableData) }
        let temporary = self.temporary
        let process = self.process
        do {
            // Started and registered in one step: if the process is abandoned, ffmpeg is killed
            // before its temporary file is removed, so it cannot write the file again afterwards.
            token = try InFlightFiles.shared.creating({ () -> pid_t? in
                try process.run()
                return process.processIdentifier
            }, undo: { pid in
                kill(pid, SIGKILL)
                waitpid(pid, nil, 0)
                unlink(temporary)
            })?.token
        } catch {
            throw ThrobberError("cannot start ffmpeg: \(error)", kind: .backendUnavailable)
        }
    }

    deinit {
        token.map(InFlightFiles.shared.finished)
    }

    func add(_ image: Image, index: Int) throws {
        var pixels = image.pixels
        if format == "mp4" {
            FFmpegSink.composite(&pixels, over: settings.matteBytes, keepingTransparent: false)
        } else if format == "gif", settings.matte != nil {
            FFmpegSink.composite(&pixels, over: settings.matteBytes, keepingTransparent: true)
        }
        let fd = input.fileHandleForWriting.fileDescriptor
        if let failure = pixels.withUnsafeBytes({ writeAll($0, to: fd) }) {
            throw ThrobberError("ffmpeg stopped reading frames for \(path): \(errorText.lastLine)", kind: .io, code: failure.rawValue)
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

    func finish(overwrite: Bool) throws -> [Manifest.Artifact] {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        errors.fileHandleForReading.readabilityHandler = nil
        defer { token.map(InFlightFiles.shared.finished); token = nil }
        guard process.terminationStatus == 0 else {
            unlink(temporary)
            throw ThrobberError("ffmpeg failed to write \(path) (status \(process.terminationStatus)): \(errorText.lastLine)", kind: .io)
        }
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

    func abort() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        errors.fileHandleForReading.readabilityHandler = nil
        unlink(temporary)
        token.map(InFlightFiles.shared.finished)
        token = nil
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
