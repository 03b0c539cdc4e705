import Foundation
import Throbber
import ThrobberPNG

/// Where a clip's frames go.
public enum Output: Sendable {
    /// One PNG per frame: the pattern (placeholders filled, path resolved) numbers the files,
    /// written by `encoder` (`auto` chooses once per clip from its first two frames, ``PNGEncoder/choice(for:)``).
    case png(pattern: FramePattern, encoder: PNGEncoder)
    /// All frames on sheet pages (PNG or WebP), each with a TexturePacker atlas: one page at
    /// `path` and `json` while the frames fit `maxSize` px a side, otherwise numbered pages
    /// (`SpriteSheet.pages`, `SpriteSheet.pageFiles`); trimmed, aliased, padded, extruded and
    /// with a Phaser multi-atlas as `SheetSettings` say.
    case sheet(SheetSettings)
    /// Raw straight-alpha RGBA8 frames back to back, to a file or "-" for stdout, at `fps` (nil:
    /// the clip's; `Resampling`).
    case rgba(path: String, fps: Double? = nil)
    /// A YUV4MPEG2 stream (C420jpeg, or C444alpha with alpha; BT.601, range tagged limited), to a
    /// file or "-" for stdout; without alpha, frames are composited over `matte` (nil: black);
    /// at `fps` (nil: the clip's).
    case y4m(path: String, alpha: Bool, matte: RGBA? = nil, fps: Double? = nil)
    /// A GIF, WebP, APNG, MP4 or WebM (VP9 with alpha) made by piping the raw stream into ffmpeg;
    /// `settings` say what becomes of partial alpha (GIF, MP4) and of odd sides (MP4), the
    /// output's frame rate and loops.
    case video(path: String, settings: VideoSettings = VideoSettings())
    /// The clip as one Lottie animation (`.json`) or dotLottie archive (`.lottie`), exported from
    /// its scene at scale 1 (a Lottie's canvas is in pt; its player scales it) over the clip's
    /// span and at its frame rate, every shape within `tolerance` pt of the scene's
    /// (``LottieOutput``). Drawn from the scene, not from the frames, so it is written once per
    /// clip whichever shard takes the clip's frame 0.
    case lottie(path: String, tolerance: Double = LottieOutput.defaultTolerance)

    /// A grid sheet of PNG pages (the form before `SheetSettings`).
    public static func sheet(path: String, json: String, columns: Int?, maxSize: Int = SpriteSheet.defaultMaxSize, encoder: PNGEncoder) -> Output {
        .sheet(SheetSettings(path: path, json: json, columns: columns, maxSize: maxSize, encoder: encoder))
    }

    /// The output's own frame rate, if it has one.
    public var ownFPS: Double? {
        switch self {
        case .png, .lottie: return nil
        case .sheet(let settings): return settings.fps
        case .rgba(_, let fps), .y4m(_, _, _, let fps): return fps
        case .video(_, let settings): return settings.fps
        }
    }

    /// The rate the output's frames play at, for a clip at `clipFPS`: its own, else the clip's (a
    /// GIF's at most 50, `GIFTiming.maximumFPS`).
    public func playbackFPS(clipFPS: Double) -> Double {
        if case .video(let path, let settings) = self { return settings.playbackFPS(path: path, clipFPS: clipFPS) }
        return ownFPS ?? clipFPS
    }

    /// Which clip frames the output's frames are (`Resampling`).
    public func resampling(in clip: Clip) -> Resampling {
        Resampling(clipFrames: clip.frameCount, clipFPS: clip.fps, fps: playbackFPS(clipFPS: clip.fps))
    }

    /// A PNG sequence: `pattern` (a path with one printf-style frame directive such as `%05d`,
    /// and optionally `{name}`, `{scene}`, `{scale}`), written by `encoder`.
    ///
    /// - Throws: `.usage` for a pattern without one frame directive.
    public static func pngSequence(_ pattern: String, encoder: PNGEncoder = .default) throws -> Output {
        do {
            return .png(pattern: try FramePattern(pattern, frameDirective: true), encoder: encoder)
        } catch let error as PatternError {
            throw ThrobberError.invalid("pattern", pattern, allowed: error.message)
        }
    }

    /// A sheet's columns: 1 … 10,000.
    public static let columnsRule = IntegerRule("columns", 1...10_000)

    /// Checks that the output can be written for `clip`, before any frame is rendered: a sheet's
    /// columns and `maxSize` in range, a frame no larger than a page and a page small enough to
    /// hold (`SpriteSheet.checkSize`); a video's container known and its settings possible for
    /// its format, frame size and rate (``VideoSettings/validate(path:width:height:fps:)``).
    /// `Clip.init` checks every output so.
    ///
    /// - Throws: a usage error naming what is out of range (``ThrobberError/field`` names the
    ///   output's setting, where one is at fault).
    public func check(for clip: Clip) throws {
        let (width, height) = clip.scene.pixelSize
        try check(label: clip.label, frameCount: clip.frameCount, width: width, height: height, fps: clip.fps, chained: !clip.chain.isEmpty)
    }

    /// ``check(for:)`` for a clip of `frameCount` frames of `width` × `height` px at `fps`,
    /// labelled `label`, before the clip is made (the job-file reader checks each output as it
    /// reads it); `chained` when the clip is a chain's (which a Lottie output cannot be).
    func check(label: String, frameCount: Int, width: Int, height: Int, fps: Double, chained: Bool = false) throws {
        if let own = ownFPS {
            if case .png = self {} else { try Clip.fpsRule.check(own) }
        }
        let frameCount = Resampling(clipFrames: frameCount, clipFPS: fps, fps: playbackFPS(clipFPS: fps)).frames
        switch self {
        case .sheet(let settings):
            let (path, columns, maxSize) = (settings.path, settings.columns, settings.maxSize)
            if let own = settings.fps, own > fps {
                throw ThrobberError("\(label): a sheet's \"fps\" \(formatNumber(own)) is above the clip's \(formatNumber(fps)): its frames are "
                                    + "the clip's, taken at its own rate, never repeated", kind: .usage, field: "fps")
            }
            if settings.webp && maxSize > VideoSettings.largestWebPSide {
                throw ThrobberError("\(label): a WebP sheet page is at most \(VideoSettings.largestWebPSide) px a side (libwebp), not maxSize "
                                    + "\(maxSize); give \"maxSize\" of at most \(VideoSettings.largestWebPSide) or write .png pages",
                                    kind: .usage, field: "maxSize")
            }
            try SheetSettings.paddingRule.check(settings.spacing.padding)
            try SheetSettings.extrudeRule.check(settings.spacing.extrude)
            if let columns { try Output.columnsRule.check(columns) }
            try SpriteSheet.maxSizeRule.check(maxSize)
            let spacing = settings.spacing
            guard width + 2 * spacing.extrude <= maxSize, height + 2 * spacing.extrude <= maxSize else {
                // The frame is what does not fit: say which clip's, at the maxSize.
                do {
                    try SpriteSheet.checkSize(path: path, frameCount: frameCount, frameWidth: width, frameHeight: height,
                                              columns: columns, maxSize: maxSize, spacing: spacing, defaultMaxSize: maxSize == SpriteSheet.defaultMaxSize)
                } catch let error as ThrobberError {
                    throw ThrobberError("\(label): \(error.message)", kind: error.kind, field: "maxSize")
                }
                return
            }
            // A page is held whole in memory and must fit a PNG: refuse it now, not after every
            // frame is rendered.
            try SpriteSheet.checkSize(path: path, frameCount: frameCount, frameWidth: width, frameHeight: height,
                                      columns: columns, maxSize: maxSize, spacing: spacing)
        case .video(let path, let settings):
            let format = URL(fileURLWithPath: path).pathExtension.lowercased()
            guard Job.videoExtensions.contains(format) else {
                throw ThrobberError("a video path must end in .gif, .webp, .apng, .mp4 or .webm, not \"\(ThrobberError.echoed(path, longest: ThrobberError.longestPathEcho))\"",
                                    kind: .usage, field: "path")
            }
            // What depends on the frame size and rate (odd sides, GIF's centiseconds).
            try settings.validate(path: path, width: width, height: height, fps: fps)
        case .y4m(_, let alpha, let matte, _):
            if alpha && matte != nil {
                throw ThrobberError("\(label): \"matte\" applies to a y4m stream without alpha (with \"alpha\": true it keeps alpha)",
                                    kind: .usage, field: "matte")
            }
        case .lottie(let path, let tolerance):
            try LottieOutput.check(path: path, tolerance: tolerance, label: label, frameCount: frameCount, fps: fps, chained: chained)
        case .png, .rgba:
            break
        }
    }

    /// Whether the output needs a clip's frames in order in one process (so a shard cannot
    /// split the clip). A Lottie needs no frame at all.
    public var isOrdered: Bool {
        switch self {
        case .png, .lottie: return false
        default: return true
        }
    }

    /// Whether the output is drawn from the clip's frames: every kind but a Lottie, which is
    /// exported from the scene.
    public var takesFrames: Bool {
        if case .lottie = self { return false }
        return true
    }

    /// A file other than a PNG frame that an output leaves: where, its manifest type, and what
    /// it is in messages.
    public struct ArtifactFile: Sendable, Equatable {
        /// The file's path.
        public var path: String
        /// Its type in the manifest: `sheet`, `atlas`, `rgba`, `y4m`, `gif` ….
        public var type: String
        /// What it is, for messages: `sheet`, `sheet atlas (json)`, `sheet page 2`, `y4m` ….
        public var role: String
        /// Whether the run may leave no file here: a packed sheet's pages past the ones it needs
        /// (how many is known only once its frames are drawn), and the name its one page would
        /// have had when it needs several.
        public var optional = false
    }

    /// The files other than PNG frames this output leaves for `clip` (none for stdout streams):
    /// a sheet's pages and their atlases, page by page, image before atlas.
    public func artifactFiles(in clip: Clip) -> [ArtifactFile] {
        switch self {
        case .png: return []
        case .sheet(let settings):
            let (width, height) = clip.scene.pixelSize
            let bound = SheetSink.pageBound(settings, frames: resampling(in: clip).frames, width: width, height: height)
            // A grid sheet's pages are known now; a packed one's, once drawn: every name it may
            // take is claimed (one page's and several's), all but the first page optional.
            // Several pages take the same names whatever their count (page i is numbered i), so
            // one page's names and the most pages' are every name: a Set keeps it linear.
            var names: [(String, String)] = [], seen = Set<[String]>()
            for count in Set(settings.packs ? [1, bound] : [bound]).sorted() {
                for page in SpriteSheet.pageFiles(path: settings.path, json: settings.json, pageCount: count)
                where seen.insert([page.image, page.json]).inserted {
                    names.append(page)
                }
            }
            var files = names.enumerated().flatMap { index, page in
                let number = names.count > 1 ? " page \(index)" : ""
                let optional = settings.packs && names.count > 1
                return [ArtifactFile(path: page.0, type: "sheet", role: "sheet\(number)", optional: optional),
                        ArtifactFile(path: page.1, type: "atlas", role: "sheet\(number) atlas (json)", optional: optional)]
            }
            if let multiatlas = settings.multiatlas { files.append(ArtifactFile(path: multiatlas, type: "multiatlas", role: "sheet multiatlas (json)")) }
            return files
        case .rgba(let path, _), .y4m(let path, _, _, _), .video(let path, _):
            return path == "-" ? [] : [ArtifactFile(path: path, type: artifactType, role: artifactType)]
        case .lottie(let path, _):
            return [ArtifactFile(path: path, type: artifactType, role: LottieOutput.isArchive(path) ? "dotLottie" : "Lottie")]
        }
    }

    /// How many artifacts the output leaves for `clip`: `artifactFiles` all, except a packed
    /// sheet's, whose pages are known once drawn: at least one page and its atlas.
    public func artifactCount(in clip: Clip) -> ClosedRange<Int> {
        let files = artifactFiles(in: clip)
        guard case .sheet(let settings) = self, settings.packs else { return files.count...files.count }
        let required = files.filter { !$0.optional }.count
        return max(required, 2 + (settings.multiatlas == nil ? 0 : 1))...SheetSink.pageBound(settings, frames: resampling(in: clip).frames,
            width: clip.scene.pixelSize.width, height: clip.scene.pixelSize.height) * 2 + (settings.multiatlas == nil ? 0 : 1)
    }

    /// The manifest's type of a stream's or video's file.
    private var artifactType: String {
        switch self {
        case .png: return "png"
        case .sheet: return "sheet"
        case .rgba: return "rgba"
        case .y4m: return "y4m"
        case .video(let path, _): return URL(fileURLWithPath: path).pathExtension.lowercased()
        case .lottie(let path, _): return LottieOutput.isArchive(path) ? "dotlottie" : "lottie"
        }
    }

    /// The file this output writes, or the pattern for PNG sequences.
    public var path: String {
        switch self {
        case .png(let pattern, _): return pattern.description
        case .sheet(let settings): return settings.path
        case .rgba(let path, _), .y4m(let path, _, _, _), .video(let path, _), .lottie(let path, _): return path
        }
    }
}
