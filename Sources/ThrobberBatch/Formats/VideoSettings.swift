import Foundation
import Throbber

/// How a `video` output deals with what its container cannot hold (partial alpha: GIF keeps one
/// bit of it, H.264 none; odd sides: H.264 in 4:2:0 needs even ones) and how it plays: its own
/// frame rate, how often it loops, a WebP's background hint. See docs/video.md.
public struct VideoSettings: Sendable, Equatable {
    /// What an MP4 does with an odd width or height.
    public enum OddSize: String, Sendable, CaseIterable {
        /// One column or row of the matte added at the right or bottom (the default).
        case pad
        /// The last column or row dropped.
        case crop
        /// The frame stretched by one pixel to the padded size.
        case scale
    }

    /// The opaque colour partially transparent pixels are composited over before encoding.
    ///
    /// GIF: with a matte, pixels with alpha strictly between 0 and 1 become the blend of their
    /// colour over the matte and fully transparent pixels stay transparent; without one, alpha is
    /// thresholded at `alphaThreshold`. MP4: every pixel is composited over the matte, black when
    /// there is none. WebP, APNG and WebM keep alpha and take no matte.
    public var matte: RGBA?
    /// What an MP4 does with an odd side.
    public var oddSize: OddSize
    /// The output's own frame rate, its frames resampled from the clip's timeline (`Resampling`);
    /// nil: the clip's (a GIF's at most `GIFTiming.maximumFPS`).
    public var fps: Double?
    /// How many times a GIF, WebP or APNG plays: 0 (the default) forever.
    public var loopCount: Int
    /// A GIF without a matte: pixels of at least this alpha are opaque, the rest transparent
    /// (1 … 255, default 128). Lower keeps thin anti-aliased strokes whole.
    public var alphaThreshold: Int
    /// A WebP's background-colour hint (its ANIM chunk), nil: transparent black, which every
    /// browser ignores anyway. ffmpeg writes opaque white unless told; this is rewritten.
    public var background: RGBA?
    /// An MP4's or a WebM's constant quality (x264's CRF 0–51, libvpx-vp9's 0–63; lower is
    /// better and larger); nil: 23 for MP4 (x264's default), 20 for WebM.
    public var crf: Int?

    /// Settings for a video output.
    ///
    /// - Parameters:
    ///   - matte: an opaque colour, or nil (GIF: alpha threshold; MP4: black).
    ///   - oddSize: what an MP4 does with an odd side (default `pad`).
    ///   - fps: the output's own frame rate, or nil for the clip's.
    ///   - loopCount: plays of a GIF, WebP or APNG, 0 forever.
    ///   - alphaThreshold: a GIF's alpha threshold without a matte.
    ///   - background: a WebP's background hint.
    public init(matte: RGBA? = nil, oddSize: OddSize = .pad, fps: Double? = nil, loopCount: Int = 0, alphaThreshold: Int = 128,
                background: RGBA? = nil, crf: Int? = nil) {
        self.matte = matte
        self.oddSize = oddSize
        self.fps = fps
        self.loopCount = loopCount
        self.alphaThreshold = alphaThreshold
        self.background = background
        self.crf = crf
    }

    /// What `crf` may be: 0–63 (libvpx-vp9's range; an MP4's is 0–51, checked by `validate`).
    public static let crfRule = IntegerRule("crf", 0...63)
    /// The CRF a format is encoded at.
    func crf(format: String) -> Int { crf ?? (format == "webm" ? 20 : 23) }

    /// What `loopCount` may be: 0 (forever) … 65,535 plays (a GIF's and a WebP's 16 bits).
    public static let loopCountRule = IntegerRule("loopCount", 0...65_535)
    /// What `alphaThreshold` may be.
    public static let alphaThresholdRule = IntegerRule("alphaThreshold", 1...255)

    /// The frame size an MP4 of `width`×`height` frames gets under `oddSize`.
    ///
    /// - Returns: even sides: `pad` and `scale` round an odd side up, `crop` rounds it down.
    public func mp4Size(width: Int, height: Int) -> (width: Int, height: Int) {
        func even(_ side: Int) -> Int { side % 2 == 0 ? side : (oddSize == .crop ? side - 1 : side + 1) }
        return (even(width), even(height))
    }

    /// The matte as the 8-bit sRGB bytes frames are composited over (black when there is none).
    var matteBytes: (r: Int, g: Int, b: Int) { VideoSettings.bytes(matte) }

    /// An opaque colour as 8-bit sRGB bytes, black for nil.
    static func bytes(_ color: RGBA?) -> (r: Int, g: Int, b: Int) {
        guard let color else { return (0, 0, 0) }
        func byte(_ c: Double) -> Int { Int((c * 255).rounded()) }
        return (byte(color.r), byte(color.g), byte(color.b))
    }

    /// The matte as `#rrggbb`, for messages and ffmpeg's `color=` options.
    var matteHex: String {
        let (r, g, b) = matteBytes
        return String(format: "#%02x%02x%02x", r, g, b)
    }

    /// Parses a matte: `#rrggbb`, `r,g,b` with components in [0, 1] (as colours elsewhere in a job
    /// file), or those with an alpha of 1.
    ///
    /// - Returns: the colour, or nil when the text is no opaque colour.
    static func parseMatte(_ text: String) -> RGBA? {
        guard let color = RGBA.parse(text), color.isValid, color.a == 1 else { return nil }
        return color
    }

    /// What `matte` accepts, for error messages.
    static let matteForms = "an opaque colour: \"#rrggbb\", \"r,g,b\" with components in [0, 1], or [r, g, b]"

    /// The frame rate a video at `path` of a clip at `clipFPS` plays at: `fps`, else the clip's,
    /// a GIF's at most `GIFTiming.maximumFPS`.
    public func playbackFPS(path: String, clipFPS: Double) -> Double {
        if let fps { return fps }
        let format = URL(fileURLWithPath: path).pathExtension.lowercased()
        return format == "gif" ? min(clipFPS, GIFTiming.maximumFPS) : clipFPS
    }
}

extension VideoSettings {
    /// The widest or tallest WebP libwebp writes.
    public static let largestWebPSide = 16_383

    /// Checks that a video at `path` of `width`×`height` frames of a clip at `fps` can be written
    /// with these settings, so that a job is refused before its first frame rather than after.
    ///
    /// - Throws: `.usage` naming the setting: a matte on WebP, APNG or WebM, an `oddSize` other than
    ///   `pad` on anything but MP4, `crop` of a side of 1 px, a GIF's `fps` above 50 or its rate
    ///   below 100 / 65,535, `loopCount` on MP4 or WebM, `alphaThreshold` with a matte or on
    ///   anything but GIF, `background` on anything but WebP.
    public func validate(path: String, width: Int, height: Int, fps clipFPS: Double) throws {
        let format = URL(fileURLWithPath: path).pathExtension.lowercased()
        let fps = playbackFPS(path: path, clipFPS: clipFPS)
        if matte != nil && !["gif", "mp4"].contains(format) {
            throw ThrobberError("\"matte\" applies to .gif and .mp4 videos; .\(format) keeps alpha (\(path))", kind: .usage, field: "matte")
        }
        if oddSize != .pad && format != "mp4" {
            throw ThrobberError("\"oddSize\" applies to .mp4 videos only (H.264 needs even sides; \(path))", kind: .usage, field: "oddSize")
        }
        if loopCount != 0 && !["gif", "webp", "apng"].contains(format) {
            throw ThrobberError("\"loopCount\" applies to .gif, .webp and .apng; a .\(format) video's looping is its player's (\(path))",
                                kind: .usage, field: "loopCount")
        }
        if alphaThreshold != 128 && (format != "gif" || matte != nil) {
            throw ThrobberError("\"alphaThreshold\" applies to a .gif without \"matte\" (\(path))", kind: .usage, field: "alphaThreshold")
        }
        if background != nil && format != "webp" {
            throw ThrobberError("\"background\" applies to .webp only, whose header holds a background hint (\(path))",
                                kind: .usage, field: "background")
        }
        if let crf {
            guard ["mp4", "webm"].contains(format) else {
                throw ThrobberError("\"crf\" applies to .mp4 and .webm; .\(format) is lossless or paletted (\(path))", kind: .usage, field: "crf")
            }
            if format == "mp4" && crf > 51 {
                throw ThrobberError("invalid crf \(crf) for \(path): H.264 (x264) takes 0–51", kind: .usage, field: "crf")
            }
        }
        if format == "mp4" && oddSize == .crop && (width == 1 || height == 1) {
            throw ThrobberError("\(path): \"oddSize\": \"crop\" cannot crop a \(width)×\(height) px frame to even sides; use pad or scale",
                                kind: .usage, field: "oddSize")
        }
        try VideoSettings.checkFrameSize(format: format, path: path, width: width, height: height, encoded: format == "mp4" ? mp4Size(width: width, height: height) : (width, height))
        // Delays are ⌊100/fps⌋ or ⌈100/fps⌉ cs: the longer must fit the GIF's 16 bits.
        if format == "gif" && (100 / fps).rounded(.up) > Double(GIFTiming.longestDelay) {
            throw ThrobberError("\(ThrobberError.shownPath(path)): a GIF holds at least \(formatNumber(GIFTiming.minimumFPS)) frames/s "
                                + "(a frame's delay is at most \(GIFTiming.longestDelay) cs, 655.35 s), not fps \(formatNumber(fps)); "
                                + "raise \"fps\" or write .webp, .apng or .mp4", kind: .usage, field: "fps")
        }
        if format == "gif" && fps > GIFTiming.maximumFPS {
            throw ThrobberError("\(path): a GIF plays at most \(formatNumber(GIFTiming.maximumFPS)) fps in browsers (a delay under 2 cs "
                                + "shows as 10 cs), not fps \(formatNumber(fps)); leave \"fps\" out (a faster clip is resampled to 50) "
                                + "or write .webp or .apng", kind: .usage, field: "fps")
        }
    }
}

extension VideoSettings {
    /// The most pixels ffmpeg takes in a frame, counted as (width + 128) × (height + 128): below
    /// 2³¹ / 8 (libavutil's `av_image_check_size`, which the raw input and every filter apply).
    /// Measured at the edge: 16,384 × 16,128 px passes, 16,384 × 16,129 is refused ("Picture size
    /// … is invalid") — after every frame had been rendered.
    public static let ffmpegPaddedPixels = Int(Int32.max) / 8
    /// The widest or tallest H.264 frame libx264 takes (16,386 is refused: "invalid width x
    /// height"), after `oddSize`.
    public static let largestH264Side = 16_384
    /// The widest or tallest VP9 frame libvpx writes (16,386 fails: "Failed to allocate last frame
    /// buffer"; its stated bound, 65,535, is not reached).
    public static let largestVP9Side = 16_384
    /// The widest or tallest GIF: its logical screen holds 16-bit sides.
    public static let largestGIFSide = 65_535

    /// Checks that frames of `width` × `height` px (`encoded`: the size the encoder gets, an
    /// MP4's after `oddSize`) can be written as `format` by ffmpeg and its encoder, before the
    /// first frame is rendered.
    ///
    /// - Throws: `.usage` with the field `scale` naming the size and what the encoder takes.
    static func checkFrameSize(format: String, path: String, width: Int, height: Int, encoded: (width: Int, height: Int)) throws {
        let shown = ThrobberError.shownPath(path)
        let sides: [String: (Int, String)] = ["mp4": (largestH264Side, "H.264 (libx264)"), "webm": (largestVP9Side, "VP9 (libvpx)"),
                                              "gif": (largestGIFSide, "GIF"), "webp": (largestWebPSide, "WebP (libwebp)")]
        if let (largest, codec) = sides[format], max(encoded.width, encoded.height) > largest {
            throw ThrobberError("\(shown): frames of \(encoded.width)×\(encoded.height) px (canvas × scale) are too large: \(codec) takes at most \(largest) px a side; "
                                + "lower the scale or the canvas", kind: .usage, field: "scale")
        }
        // The frame as ffmpeg reads it, then as the encoder gets it (an MP4's, padded).
        for (w, h) in [(width, height), encoded] where (w + 128) * (h + 128) >= ffmpegPaddedPixels {
            throw ThrobberError("\(shown): frames of \(w)×\(h) px (canvas × scale) are too large for ffmpeg, which takes (width + 128) × (height + 128) "
                                + "below \(ffmpegPaddedPixels) px (at most \(w)×\((ffmpegPaddedPixels - 1) / (w + 128) - 128) "
                                + "at this width), not \((w + 128) * (h + 128)); lower the scale or the canvas", kind: .usage, field: "scale")
        }
    }
}

extension Clip {
    /// What each of this clip's ordered outputs will play at, one line each, for the run's
    /// report: its frames and rate (and which clip frames, when it has a rate of its own), its
    /// delays as the format counts them, its length and loops; an MP4's final size when a side
    /// was odd; a Lottie's span, rate and tolerance. Nothing is changed without being said.
    public var playbackNotes: [String] {
        let (width, height) = scene.pixelSize
        var notes: [String] = []
        for output in outputs where output.isOrdered && output.path != "-" {
            let timing = output.resampling(in: self)
            let fps = timing.fps
            var line = "\(label) → \(output.path): \(timing.frames) frames at \(formatNumber(fps)) fps"
            if !timing.isIdentity {
                line += " (from the clip's \(frameCount) at \(formatNumber(self.fps)) fps, \(fps < self.fps ? "taken" : "repeated") on its timeline)"
            }
            func delays(_ clock: FrameClock, _ unit: String) -> String {
                let range = clock.delayRange(frames: timing.frames)
                let shown = range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)–\(range.upperBound)"
                return ", delays \(shown) \(unit) (\(clock.start(frame: timing.frames)) \(unit) in all)"
            }
            func plays(_ count: Int) -> String { count == 0 ? ", looping forever" : count == 1 ? ", playing once" : ", playing \(count) times" }
            switch output {
            case .video(let path, let settings):
                switch URL(fileURLWithPath: path).pathExtension.lowercased() {
                case "gif":
                    line += delays(.centiseconds(fps: fps), "cs") + plays(settings.loopCount)
                    if settings.fps == nil && self.fps > GIFTiming.maximumFPS {
                        line += "; a GIF plays at most \(formatNumber(GIFTiming.maximumFPS)) fps in browsers (delays under 2 cs show as 10 cs)"
                    }
                case "webp", "apng":
                    line += delays(.milliseconds(fps: fps), "ms") + plays(settings.loopCount)
                case "mp4":
                    line += String(format: ", %.3f s", timing.seconds)
                    let (evenWidth, evenHeight) = settings.mp4Size(width: width, height: height)
                    if (evenWidth, evenHeight) != (width, height) {
                        let edges = [width != evenWidth ? "a column at the right" : nil, height != evenHeight ? "a row at the bottom" : nil]
                            .compactMap { $0 }.joined(separator: " and ")
                        let how = switch settings.oddSize {
                        case .pad: "padded with \(edges) of \(settings.matteHex)"
                        case .crop: "cropped by \(edges)"
                        case .scale: "stretched by \(edges)"
                        }
                        line += "; \(evenWidth)×\(evenHeight): \(width)×\(height) frames \(how) (oddSize \(settings.oddSize.rawValue); H.264 4:2:0 needs even sides)"
                    }
                default:
                    line += String(format: ", %.3f s", timing.seconds)
                }
            case .sheet:
                line += delays(.milliseconds(fps: fps), "ms").replacingOccurrences(of: "delays", with: "durations")
            default:
                line += String(format: ", %.3f s", timing.seconds)
            }
            notes.append(line)
        }
        for case .lottie(let path, let tolerance) in outputs {
            notes.append("\(label) → \(path): Lottie of \(frameCount) frames at \(formatNumber(fps)) fps from t = \(formatNumber(start)) s, "
                         + "exported at scale 1 (a Lottie's canvas is in pt), shapes within \(formatNumber(tolerance)) pt")
        }
        return notes
    }
}
