import Foundation
import Throbber

/// How a `video` output deals with what its container cannot hold: partial alpha (GIF keeps one
/// bit of it, H.264 none) and odd sides (H.264 in 4:2:0 needs even ones). See docs/video.md.
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
    /// thresholded at 128 (below: transparent, otherwise the pixel's colour, opaque). MP4: every
    /// pixel is composited over the matte, black when there is none. WebP and APNG keep alpha and
    /// take no matte.
    public var matte: RGBA?
    /// What an MP4 does with an odd side.
    public var oddSize: OddSize

    /// Settings for a video output.
    ///
    /// - Parameters:
    ///   - matte: an opaque colour, or nil (GIF: alpha threshold; MP4: black).
    ///   - oddSize: what an MP4 does with an odd side (default `pad`).
    public init(matte: RGBA? = nil, oddSize: OddSize = .pad) {
        self.matte = matte
        self.oddSize = oddSize
    }

    /// The frame size an MP4 of `width`×`height` frames gets under `oddSize`.
    ///
    /// - Returns: even sides: `pad` and `scale` round an odd side up, `crop` rounds it down.
    public func mp4Size(width: Int, height: Int) -> (width: Int, height: Int) {
        func even(_ side: Int) -> Int { side % 2 == 0 ? side : (oddSize == .crop ? side - 1 : side + 1) }
        return (even(width), even(height))
    }

    /// The matte as the 8-bit sRGB bytes frames are composited over (black when there is none).
    var matteBytes: (r: Int, g: Int, b: Int) {
        guard let matte else { return (0, 0, 0) }
        func byte(_ c: Double) -> Int { Int((c * 255).rounded()) }
        return (byte(matte.r), byte(matte.g), byte(matte.b))
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
}

extension VideoSettings {
    /// Checks that a video at `path` of `width`×`height` frames at `fps` can be written with
    /// these settings, so that a job is refused before its first frame rather than after.
    ///
    /// - Throws: `.usage` naming the setting: a matte on WebP or APNG, an `oddSize` other than
    ///   `pad` on anything but MP4, `crop` of a side of 1 px, a GIF above 100 frames/s or below
    ///   100 / 65,535.
    /// The widest or tallest WebP libwebp writes.
    public static let largestWebPSide = 16_383

    public func validate(path: String, width: Int, height: Int, fps: Double) throws {
        let format = URL(fileURLWithPath: path).pathExtension.lowercased()
        if matte != nil && !["gif", "mp4"].contains(format) {
            throw ThrobberError("\"matte\" applies to .gif and .mp4 videos; .\(format) keeps alpha (\(path))", kind: .usage, field: "matte")
        }
        if oddSize != .pad && format != "mp4" {
            throw ThrobberError("\"oddSize\" applies to .mp4 videos only (H.264 needs even sides; \(path))", kind: .usage, field: "oddSize")
        }
        if format == "mp4" && oddSize == .crop && (width == 1 || height == 1) {
            throw ThrobberError("\(path): \"oddSize\": \"crop\" cannot crop a \(width)×\(height) px frame to even sides; use pad or scale",
                                kind: .usage, field: "oddSize")
        }
        // libwebp takes at most 16,383 px a side (measured: 16,384 fails in ffmpeg after every
        // frame was rendered); GIF, APNG and MP4 take the whole canvas range.
        if format == "webp" && max(width, height) > VideoSettings.largestWebPSide {
            throw ThrobberError("\(ThrobberError.shownPath(path)): a WebP is at most \(VideoSettings.largestWebPSide) px a side (libwebp), "
                                + "these frames are \(width)×\(height); write .apng, .gif or .mp4, or lower the scale", kind: .usage)
        }
        // Delays are ⌊100/fps⌋ or ⌈100/fps⌉ cs: the longer must fit the GIF's 16 bits.
        if format == "gif" && (100 / fps).rounded(.up) > Double(GIFTiming.longestDelay) {
            throw ThrobberError("\(ThrobberError.shownPath(path)): a GIF holds at least \(formatNumber(GIFTiming.minimumFPS)) frames/s "
                                + "(a frame's delay is at most \(GIFTiming.longestDelay) cs, 655.35 s), not fps \(formatNumber(fps)); "
                                + "raise \"fps\" or write .webp, .apng or .mp4", kind: .usage)
        }
        if format == "gif" && fps > GIFTiming.maximumFPS {
            throw ThrobberError("\(path): a GIF holds at most \(formatNumber(GIFTiming.maximumFPS)) frames/s (its delays are whole "
                                + "centiseconds), not fps \(formatNumber(fps)); lower \"fps\" or write .webp or .apng", kind: .usage)
        }
    }
}

extension Clip {
    /// What this clip's videos change about its frames, one line each, for the run's report:
    /// an MP4's final size when a side was odd, and a GIF's delays under 2 cs, which browsers
    /// stretch. Nothing of either is done without being said.
    public var videoNotes: [String] {
        let (width, height) = scene.pixelSize
        var notes: [String] = []
        for case .video(let path, let settings) in outputs {
            switch URL(fileURLWithPath: path).pathExtension.lowercased() {
            case "mp4":
                let (evenWidth, evenHeight) = settings.mp4Size(width: width, height: height)
                guard (evenWidth, evenHeight) != (width, height) else { continue }
                let edges = [width != evenWidth ? "a column at the right" : nil, height != evenHeight ? "a row at the bottom" : nil]
                    .compactMap { $0 }.joined(separator: " and ")
                let how = switch settings.oddSize {
                case .pad: "padded with \(edges) of \(settings.matteHex)"
                case .crop: "cropped by \(edges)"
                case .scale: "stretched by \(edges)"
                }
                notes.append("\(label) → \(path) is \(evenWidth)×\(evenHeight): \(width)×\(height) frames \(how) "
                             + "(oddSize \(settings.oddSize.rawValue); H.264 4:2:0 needs even sides)")
            case "gif":
                let short = GIFTiming.shortDelays(frames: frameCount, fps: fps)
                guard short > 0 else { continue }
                let total = GIFTiming.centiseconds(frame: frameCount, fps: fps)
                notes.append("\(label) → \(path): \(short) of \(frameCount) frame delays are 1 cs at \(formatNumber(fps)) fps "
                             + "(\(total) cs in all); browsers show delays under 2 cs as 10 cs, so use fps ≤ 50 for GIFs meant for the web")
            default:
                continue
            }
        }
        return notes
    }
}
