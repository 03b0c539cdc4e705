import Foundation
import Throbber

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
