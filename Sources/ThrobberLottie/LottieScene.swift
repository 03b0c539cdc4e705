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
    /// The animation's JSON, parsed once.
    private(set) var root: JSONNode
    let path: String
    /// The animation's text (a dotLottie archive's chosen animation).
    private(set) var text: String
    /// The archive the animation came from, with the file's bytes (what its digest is of).
    let archive: (contents: DotLottieArchive, bytes: [UInt8])?
    /// A dotLottie archive's animation played, by id.
    public var animationID = "" { didSet { if animationID != oldValue { switchAnimation() } } }
    /// A dotLottie archive's theme applied: `none` or a theme's id.
    public var theme = "none" { didSet { if theme != oldValue { applyTheme() } } }
    /// Each slot's value, in the order `animation.slots` lists them.
    var slotValues: [LottieVector] { didSet { reload() } }
    /// The segment played: `none` (the whole timeline) or a marker's name.
    public var marker = "none"
    /// `refuse` or `skip`, for a file with unsupported features.
    public var unsupported = "refuse"
    public var speeds = PartSpeeds()
    /// Image assets' pixels by id, decoded once when the file is read.
    private(set) var images: [String: BitmapPixels] = [:]
    /// Outlines kept from frame to frame (a path that only moves is not flattened again).
    public let pathOutlines = PathOutlineCache()

    /// Reads a Lottie file's text, named `path` in messages.
    ///
    /// - Throws: `.badData`, one line, for a file that is not a Lottie file Throbber can read.
    public init(text: String, path: String) throws {
        try self.init(text: text, path: path, archive: nil)
    }

    /// Reads a dotLottie archive's bytes: its first (or initial) animation, its other animations
    /// and its themes as parameters.
    ///
    /// - Throws: `.badData`, one line, for an archive or an animation that cannot be read.
    public init(archive bytes: [UInt8], path: String) throws {
        let contents = try DotLottieArchive.read(bytes, path: path)
        let chosen = contents.firstAnimation
        try self.init(text: try Self.text(chosen, path: path), path: path, archive: (contents, bytes))
        animationID = chosen.id
    }

    init(text: String, path: String, archive: (contents: DotLottieArchive, bytes: [UInt8])?) throws {
        root = try LottieReader.parse(text, path: path)
        self.path = path
        self.text = text
        self.archive = archive
        animation = try LottieReader.read(root, path: path, skipUnsupported: true)
        slotValues = animation.slots.map(\.value)
        images = try LottieImages.load(animation, lottiePath: path, archive: archive?.contents)
    }

    static func text(_ animation: DotLottieArchive.Animation, path: String) throws -> String {
        guard let text = String(validating: animation.json, as: UTF8.self) else {
            throw ThrobberError("\(ThrobberError.shownPath(path)): dotLottie animation '\(ThrobberError.echoed(animation.id))' is not UTF-8 text", kind: .badData)
        }
        return text
    }

    /// Plays another of the archive's animations (the parameter's choices are its ids, each read
    /// when the archive was), at the file's slot values and the current theme.
    mutating func switchAnimation() {
        guard let archive, let chosen = archive.contents.animations.first(where: { $0.id == animationID }),
              let text = try? Self.text(chosen, path: path), let root = try? LottieReader.parse(text, path: path),
              let read = try? LottieReader.read(root, path: path, skipUnsupported: true) else { return }
        guard let images = try? LottieImages.load(read, lottiePath: path, archive: archive.contents) else { return }
        (self.text, self.root, animation, self.images) = (text, root, read, images)
        slotValues = animation.slots.map(\.value)
        applyTheme()
    }

    /// Sets the slots a theme's static rules name (for this animation) to the rules' values.
    mutating func applyTheme() {
        guard let archive, let chosen = archive.contents.themes.first(where: { $0.id == theme }) else { return }
        var values = slotValues
        for rule in chosen.rules where rule.applies(to: animationID) {
            guard let k = animation.slots.firstIndex(where: { $0.id == rule.slot }), let value = rule.value else { continue }
            var numbers: [Double] = []
            if let x = value.number { numbers = [x] } else if let list = value.array { numbers = list.compactMap(\.number) }
            if !numbers.isEmpty { values[k] = LottieVector(numbers) }
        }
        slotValues = values
    }

    mutating func reload() {
        var given: [String: LottieVector] = [:]
        for (slot, value) in zip(animation.slots, slotValues) { given[slot.id] = value }
        if let read = try? LottieReader.read(root, path: path, slotValues: given, skipUnsupported: true) {
            animation = read
        }
    }

    /// The refusal of the first unsupported feature, as the reader words it: the read that skips
    /// notes features in the order a read that refuses meets them, so the file is not read again.
    func refusal() -> ThrobberError? {
        animation.skipped.first.map { LottieReader.refusal(path: path, note: $0) }
    }

    public var id: String {
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return name.isEmpty ? "lottie" : name
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
    /// The file's own frame rate: a clip without `--fps` draws the file's frames.
    public var naturalFPS: Double? { animation.frameRate }
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
        LottieEvaluator(animation: animation, scale: scale, width: width, height: height, cache: pathOutlines, images: images)
            .items(at: frame)
    }

    // MARK: - Checks

    public var origin: SceneOrigin? { SceneOrigin(path: path, text: text, bytes: archive?.bytes) }
    public var preflight: ScenePreflight { .eachFrame }

    public func preflightItems(at t: Double, scale: Double, width: Int, height: Int) throws -> (items: [DrawItem], work: Int) {
        let items = drawItems(at: t, scale: scale, width: width, height: height)
        return (items, items.count + items.chordCount)
    }

    public func frameWorkError(_ work: FrameWork, at t: Double, scale: Double) -> ThrobberError? {
        ThrobberError("\(ThrobberError.shownPath(path)): \(work.text()) at t = \(formatNumber(t)) s and scale \(formatNumber(scale)) \(FrameWork.advice)",
                      kind: .badData, field: "scale")
    }

    public func validateRelations() throws {
        if unsupported == "refuse", let refusal = refusal() { throw refusal }
        if let archive, let chosen = archive.contents.themes.first(where: { $0.id == theme }),
           let animated = chosen.rules.first(where: { $0.applies(to: animationID) && !$0.keyframes.isEmpty }) {
            throw ThrobberError("\(ThrobberError.shownPath(path)): theme '\(ThrobberError.echoed(theme))' rule '\(ThrobberError.echoed(animated.slot))': animated theme rules are not supported",
                                kind: .badData)
        }
    }
}
