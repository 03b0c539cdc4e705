import Foundation

/// The finite bounds every number a user can give is checked against where it is parsed, and the
/// budgets every quantity derived from them (frame counts, canvas and sheet sizes, painted area)
/// is checked against before the first frame is rendered. docs/limits.md ("Limits") lists the
/// same values; change both together.
///
/// Why bounds at all: a value such as `1e308` is a valid number, but converting what it implies
/// (a frame count, a pixel count, a loop cycle count) to an integer traps, and a value merely
/// large makes a loop run for hours. Each bound is far beyond what an indicator needs and keeps
/// every derived integer well inside `Int`.
public enum Limits {
    /// The longest length parameter in points (sizes, margins, radii, amplitudes, wavelengths).
    public static let length = 100_000.0
    /// The fastest rate parameter (pt/s, rad/s).
    public static let rate = 100_000.0
    /// The largest phase parameter in radians (either sign).
    public static let phase = 1_000_000.0
    /// The latest time a frame may be sampled at, in seconds (about 11.6 days): `start`, `--at`
    /// and the end of a clip (start + frames / fps); also the longest `duration`, `loopSeconds`
    /// and period parameter.
    public static let time = 1_000_000.0
    /// The fastest frame rate.
    public static let fps = 1000.0
    /// The slowest frame rate (a frame every 1000 s; Y4M and ffmpeg take the rate in thousandths).
    public static let slowestFPS = 0.001
    /// The shortest period parameter (`secondsPerLoop`, `progressDuration`), in seconds.
    public static let shortestPeriod = 0.001
    /// The largest pixel scale.
    public static let scale = 64.0
    /// The most frames one clip may have, given as `frames` or derived from duration × fps or
    /// a loop.
    public static let frames = 10_000_000
    /// The longest side of a sprite sheet in pixels (what common image tools accept).
    public static let sheetSide = 65_535
    /// The most pixels a sprite sheet may hold: 2^28, 1 GiB of RGBA held in memory while it is built.
    public static let sheetPixels = 1 << 28
    /// The most pages one sprite sheet may take (its grid's, which a packing never exceeds),
    /// checked before rendering: each page is two files claimed, checked and written, and its
    /// encoded bytes are held until the last page is done.
    public static let sheetPages = 10_000
    /// The most pixels the boxes of one frame may cover, each counted over its bounds on the
    /// canvas (tickCount × tick size): 2^30, about 10⁹, a few seconds of CPU rendering per frame
    /// (10,000 ticks each as large as a 300 × 300 canvas come close).
    public static let boxPixelsPerFrame = 1 << 30
    /// The most pixels the shapes of one frame may cover, whatever their kinds — discs, waves,
    /// arcs, boxes, glyphs, strokes, gradients — each counted over its bounds on the canvas
    /// (`FrameWork`): the box budget's 2^30, for every kind (10,000 arcs as large as a
    /// 1000 × 1000 canvas cost 10^10, minutes a frame).
    public static let pixelsPerFrame = boxPixelsPerFrame
    /// What each shape of a frame costs beyond the pixels of its bounds, in pixels: a renderer
    /// sets every shape up (its record, its bounds, its bands), about what shading 2,048 pixels
    /// takes — 1.75 million copied discs of 9 px took 4.5 s a frame on the CPU (2.6 µs each),
    /// 10,000 rotated 300 px boxes (1.5 × 10⁹ px) 2 s — and holds it until the frame is drawn,
    /// about 1 KB a shape (300,000 tiny arcs: 3.2 s and 272 MB for one frame). Charged at 16,384 px,
    /// so that the most shapes a frame may have (65,536) are evaluated, and a frame over the
    /// budget is refused, within about 64 MB; 10,000 ticks cost 1.6 × 10⁸.
    public static let pixelsPerShape = 16_384
    /// The most shapes a frame may draw whatever their size: their setup alone fills the frame's
    /// budget (2^30 / 16,384 = 65,536). A scene file is held to it as it is read (constant
    /// copies) and as a frame is evaluated, before the shapes are drawn or even all placed.
    public static let shapesPerFrame = pixelsPerFrame / pixelsPerShape
    /// The most evaluation work a scene file's preflight spends on a clip (node evaluations and
    /// primitives placed, `Scene.preflightFrame(at:)`): two frames at the per-frame budget
    /// (`FileScene.budget`), a few seconds; 100,000 frames of a light file (a few hundred nodes).
    /// A clip whose frames cost more has fewer of them evaluated up front (spread evenly, the
    /// first and last always); each frame is still checked as it is drawn.
    public static let preflightWork = 20_000_000
    /// The most characters (Unicode scalars) one text parameter holds: far more than a caption or
    /// a HUD status needs, and few enough that shaping and the atlas stay small.
    public static let textCharacters = 1000
    /// The largest text size in pt (a label's number is 60 pt).
    public static let textSize = 1000.0
    /// Text sizes: above 0, at most `textSize` pt (the pixel size is checked as text is laid out).
    public static let textSizeRange = NumberRange.aboveAtMost(0, textSize)
    /// The deepest nesting of arrays and objects a job file may have.
    public static let jsonDepth = 64

    /// The range of a length parameter that may be 0.
    public static let lengthRange = NumberRange.atLeastAtMost(0, length)
    /// The range of a length parameter that must be positive.
    public static let positiveLengthRange = NumberRange.aboveAtMost(0, length)
    /// The range of `fps` and `--fps`.
    public static let fpsRange = NumberRange.positiveWithin(slowestFPS, fps)
    /// The range of `scale`, `scales`, `--scale`.
    public static let scaleRange = NumberRange.aboveAtMost(0, scale)
    /// The range of a time: `start`, `--start`, `--at`.
    public static let timeRange = NumberRange.atLeastAtMost(0, time)
    /// The range of a span of time that must be positive: `duration`, `loopSeconds`.
    public static let spanRange = NumberRange.aboveAtMost(0, time)
    /// The range of a period parameter: `secondsPerLoop`, `progressDuration`.
    public static let periodRange = NumberRange.positiveWithin(shortestPeriod, time)

    /// `value` as a count, checked: finite, and at most `limit` after rounding.
    ///
    /// The one place a computed `Double` becomes an `Int` count from user input, so the
    /// conversion can never trap.
    ///
    /// - Parameters:
    ///   - value: the computed count, e.g. duration × fps.
    ///   - field: what the count is, as the user would name it, e.g. `duration × fps`.
    ///   - limit: the most allowed.
    /// - Throws: a usage error naming the field, the value and the limit.
    public static func count(_ value: Double, _ field: String, limit: Int) throws -> Int {
        let rounded = value.rounded()
        guard rounded.isFinite, rounded <= Double(limit) else {
            throw ThrobberError("invalid \(field) = \(formatNumber(value)): at most \(limit)", kind: .usage)
        }
        return Int(max(rounded, 0))
    }

    /// Checks that frames `0 ..< frames` at `fps` from `start` end by `Limits.time`.
    ///
    /// - Throws: a usage error naming `fps` (what makes a clip long) with the end time and the limit.
    public static func checkTimeline(start: Double, fps: Double, frames: Int, fpsField: String = "fps") throws {
        let end = start + Double(max(frames - 1, 0)) / fps
        guard end.isFinite, end <= time else {
            throw ThrobberError("invalid \(fpsField) \(formatNumber(fps)): \(frames) frame\(frames == 1 ? "" : "s") from t = \(formatNumber(start)) s end at t = \(formatNumber(end)) s; the last frame must be at most \(formatNumber(time)) s", kind: .usage)
        }
    }
}
