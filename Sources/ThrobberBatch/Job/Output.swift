import Foundation
import Throbber
import ThrobberPNG

/// Where a clip's frames go.
public enum Output: Sendable {
    /// One PNG per frame: the pattern (placeholders filled, path resolved) numbers the files,
    /// written by `encoder` (`auto` chooses per scene and frame size, ``PNGEncoder/resolved(scene:width:height:)``).
    case png(pattern: FramePattern, encoder: PNGEncoder)
    /// All frames on grid PNGs, each with a TexturePacker "JSON Hash" atlas: one page at `path`
    /// and `json` while the frames fit `maxSize` px a side, otherwise numbered pages
    /// (`SpriteSheet.pages`, `SpriteSheet.pageFiles`); the PNGs written by `encoder` (a job
    /// file's default is the `small` setting).
    case sheet(path: String, json: String, columns: Int?, maxSize: Int = SpriteSheet.defaultMaxSize, encoder: PNGEncoder)
    /// Raw straight-alpha RGBA8 frames back to back, to a file or "-" for stdout.
    case rgba(path: String)
    /// A YUV4MPEG2 stream (C420jpeg, or C444alpha with alpha; BT.601, range tagged limited), to a
    /// file or "-" for stdout.
    case y4m(path: String, alpha: Bool)
    /// A GIF, WebP, APNG or MP4 made by piping the raw stream into ffmpeg; `settings` say what
    /// becomes of partial alpha (GIF, MP4) and of odd sides (MP4).
    case video(path: String, settings: VideoSettings = VideoSettings())

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
        try check(label: clip.label, frameCount: clip.frameCount, width: width, height: height, fps: clip.fps)
    }

    /// ``check(for:)`` for a clip of `frameCount` frames of `width` × `height` px at `fps`,
    /// labelled `label`, before the clip is made (the job-file reader checks each output as it
    /// reads it).
    func check(label: String, frameCount: Int, width: Int, height: Int, fps: Double) throws {
        switch self {
        case .sheet(let path, _, let columns, let maxSize, _):
            if let columns { try Output.columnsRule.check(columns) }
            try SpriteSheet.maxSizeRule.check(maxSize)
            guard width <= maxSize, height <= maxSize else {
                // The frame is what does not fit: say which clip's, at the maxSize.
                do {
                    try SpriteSheet.checkSize(path: path, frameCount: frameCount, frameWidth: width, frameHeight: height,
                                              columns: columns, maxSize: maxSize, defaultMaxSize: maxSize == SpriteSheet.defaultMaxSize)
                } catch let error as ThrobberError {
                    throw ThrobberError("\(label): \(error.message)", kind: error.kind, field: "maxSize")
                }
                return
            }
            // A page is held whole in memory and must fit a PNG: refuse it now, not after every
            // frame is rendered.
            try SpriteSheet.checkSize(path: path, frameCount: frameCount, frameWidth: width, frameHeight: height,
                                      columns: columns, maxSize: maxSize)
        case .video(let path, let settings):
            let format = URL(fileURLWithPath: path).pathExtension.lowercased()
            guard Job.videoExtensions.contains(format) else {
                throw ThrobberError("a video path must end in .gif, .webp, .apng or .mp4, not \"\(ThrobberError.echoed(path, longest: ThrobberError.longestPathEcho))\"",
                                    kind: .usage, field: "path")
            }
            // What depends on the frame size and rate (odd sides, GIF's centiseconds).
            try settings.validate(path: path, width: width, height: height, fps: fps)
        case .png, .rgba, .y4m:
            break
        }
    }

    /// Whether the output needs a clip's frames in order in one process (so a shard cannot
    /// split the clip).
    public var isOrdered: Bool {
        if case .png = self { return false }
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
    }

    /// The files other than PNG frames this output leaves for `clip` (none for stdout streams):
    /// a sheet's pages and their atlases, page by page, image before atlas.
    public func artifactFiles(in clip: Clip) -> [ArtifactFile] {
        switch self {
        case .png: return []
        case .sheet(let path, let json, let columns, let maxSize, _):
            let (width, height) = clip.scene.pixelSize
            let pages = SpriteSheet.pages(frameCount: clip.frameCount, frameWidth: width, frameHeight: height,
                                          columns: columns, maxSize: maxSize)
            let files = SpriteSheet.pageFiles(path: path, json: json, pageCount: pages.count)
            return files.enumerated().flatMap { index, page in
                let number = files.count > 1 ? " page \(index)" : ""
                return [ArtifactFile(path: page.image, type: "sheet", role: "sheet\(number)"),
                        ArtifactFile(path: page.json, type: "atlas", role: "sheet\(number) atlas (json)")]
            }
        case .rgba(let path), .y4m(let path, _), .video(let path, _):
            return path == "-" ? [] : [ArtifactFile(path: path, type: artifactType, role: artifactType)]
        }
    }

    /// The manifest's type of a stream's or video's file.
    private var artifactType: String {
        switch self {
        case .png: return "png"
        case .sheet: return "sheet"
        case .rgba: return "rgba"
        case .y4m: return "y4m"
        case .video(let path, _): return URL(fileURLWithPath: path).pathExtension.lowercased()
        }
    }

    /// The file this output writes, or the pattern for PNG sequences.
    public var path: String {
        switch self {
        case .png(let pattern, _): return pattern.description
        case .sheet(let path, _, _, _, _), .rgba(let path), .y4m(let path, _), .video(let path, _): return path
        }
    }
}
