import Foundation
import Throbber

/// A Lottie file as a scene (docs/lottie.md): one more `SceneModel`, so every command, the
/// sampler, parity, loops, provenance and sharding treat it as they treat a built-in or a scene
/// file. Its canvas is the file's `w` × `h` in points; its clock is the file's own: time t
/// seconds is Lottie frame ip + t·fr (fractional for any output rate), repeating every
/// op − ip frames, so a clip of one loop loops seamlessly.
///
/// Parameters: each slot (`sid`) the file exposes, typed, with the file's value as its default;
/// `marker`, a named segment of the timeline to play instead of the whole; and, for a file
/// with features Throbber does not draw, `unsupported` (`refuse`, the default, or `skip`).
public struct LottieScene: SceneModel {
    public typealias FrameState = Double

    /// The file as read at the current slot values.
    public private(set) var animation: LottieAnimation
    let root: JSONNode
    let path: String
    let text: String
    /// Each slot's value, in the order `animation.slots` lists them.
    var slotValues: [LottieVector] { didSet { reload() } }
    /// The segment played: `none` (the whole timeline) or a marker's name.
    public var marker = "none"
    /// `refuse` or `skip`, for a file with unsupported features.
    public var unsupported = "refuse"
    public var speeds = PartSpeeds()
    /// Outlines kept from frame to frame (a path that only moves is not flattened again).
    public let pathOutlines = PathOutlineCache()

    /// Reads a Lottie file's text, named `path` in messages.
    ///
    /// - Throws: `.badData`, one line, for a file that is not a Lottie file Throbber can read.
    public init(text: String, path: String) throws {
        guard text.utf8.count <= LottieLimits.largestJSON else {
            throw ThrobberError("\(ThrobberError.shownPath(path)): a Lottie file is at most \(LottieLimits.largestJSON >> 20) MiB; this one is \(text.utf8.count) bytes",
                                kind: .badData)
        }
        do {
            root = try JSONNode.parse(text)
        } catch let error as JSONParseError {
            throw ThrobberError("\(ThrobberError.shownPath(path)):\(error.line):\(error.column): \(error.message)", kind: .badData)
        }
        self.path = path
        self.text = text
        animation = try LottieReader.read(root, path: path, skipUnsupported: true)
        slotValues = animation.slots.map(\.value)
    }

    mutating func reload() {
        var given: [String: LottieVector] = [:]
        for (slot, value) in zip(animation.slots, slotValues) { given[slot.id] = value }
        if let read = try? LottieReader.read(root, path: path, slotValues: given, skipUnsupported: true) {
            animation = read
        }
    }

    /// The refusal of the first unsupported feature, as the reader words it.
    func refusal() -> ThrobberError? {
        guard !animation.skipped.isEmpty else { return nil }
        do {
            _ = try LottieReader.read(root, path: path, skipUnsupported: false)
            return nil
        } catch let error as ThrobberError {
            return error
        } catch {
            return ThrobberError("\(ThrobberError.shownPath(path)): \(error)", kind: .badData)
        }
    }

    public var id: String {
        let name = (path as NSString).lastPathComponent
        for suffix in [".json", ".lottie"] where name.hasSuffix(suffix) { return String(name.dropLast(suffix.count)) }
        return name
    }

    public var summary: String {
        let name = animation.name.isEmpty ? id : animation.name
        return "Lottie '\(ThrobberError.echoed(name))': \(formatNumber(animation.width))×\(formatNumber(animation.height)) pt, "
            + "frames \(formatNumber(animation.inPoint))–\(formatNumber(animation.outPoint)) at \(formatNumber(animation.frameRate)) fps"
    }

    public var relations: [String] { [] }
    public var canvasSize: (width: Double, height: Double) { (animation.width, animation.height) }
    public var defaultBackground: RGBA { .clear }

    // MARK: - The clock

    /// The segment played, in Lottie frames: a marker's, or ip…op.
    public var segment: (start: Double, length: Double) {
        if marker != "none", let m = animation.markers.first(where: { $0.name == marker }) {
            return (m.time, m.duration > 0 ? m.duration : max(animation.outPoint - m.time, 1e-9))
        }
        return (animation.inPoint, animation.outPoint - animation.inPoint)
    }

    /// The timeline's period in seconds.
    public var loopDuration: Double? { segment.length / animation.frameRate }
    public var periodicParts: [PeriodicPart] { [PeriodicPart("timeline", period: segment.length / animation.frameRate)] }
    public var periodicFrom: Double? { 0 }
    public var previewDuration: Double { segment.length / animation.frameRate }

    /// The Lottie frame at `t` seconds: ip + t·fr within the segment, repeating.
    public func frameState(at t: Double) -> Double {
        let (start, length) = segment
        let frames = speeds.time("timeline", t) * animation.frameRate
        var within = frames.truncatingRemainder(dividingBy: length)
        if within < 0 { within += length }
        return start + within
    }

    public func drawItems(for frame: Double, scale: Double, width: Int, height: Int) -> [DrawItem] {
        LottieEvaluator(animation: animation, scale: scale, width: width, height: height, cache: pathOutlines).items(at: frame)
    }

    // MARK: - Checks

    public var origin: SceneOrigin? { SceneOrigin(path: path, text: text) }
    public var preflight: ScenePreflight { .eachFrame }

    public func preflightItems(at t: Double, scale: Double, width: Int, height: Int) throws -> (items: [DrawItem], work: Int) {
        let items = drawItems(at: t, scale: scale, width: width, height: height)
        return (items, items.count + Self.chords(items))
    }

    /// The chords of every path, layers' contents and masks included: what a frame's outlines cost.
    static func chords(_ items: [DrawItem]) -> Int {
        items.reduce(0) { sum, item in
            if let path = item.primitive as? Path { return sum + path.outline.chordCount }
            if let layer = item.primitive as? Layer {
                return sum + chords(layer.content) + layer.maskPaths.reduce(0) { $0 + $1.outline.chordCount }
                    + (layer.matte.map { chords([DrawItem("matte", $0.source)]) } ?? 0)
            }
            return sum + 1
        }
    }

    public func frameWorkError(_ work: FrameWork, at t: Double, scale: Double) -> ThrobberError? {
        ThrobberError("\(ThrobberError.shownPath(path)): \(work.text()) at t = \(formatNumber(t)) s and scale \(formatNumber(scale)) \(FrameWork.advice)",
                      kind: .badData, field: "scale")
    }

    public func validateRelations() throws {
        if unsupported == "refuse", let refusal = refusal() { throw refusal }
    }
}
