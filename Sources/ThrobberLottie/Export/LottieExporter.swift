import Foundation
import Throbber

/// How a scene is written as Lottie (issue 51): the stretch of time, the frame rate and the
/// tolerance keyframes and numbers are fitted to.
public struct LottieExportOptions: Sendable, Equatable {
    /// Scene seconds at Lottie frame 0.
    public var start: Double
    /// Seconds written; nil: the scene's loop (`naturalLoop`), or its clip to `endsAt`.
    public var duration: Double?
    /// Lottie frames per second (`fr`); nil: the scene's natural rate, else 60.
    public var frameRate: Double?
    /// The largest distance (pt) a written shape may be from the scene's, at every frame.
    public var tolerance: Double

    /// 0.01 pt: 0.03 px at @3x.
    public static let defaultTolerance = 0.01

    public init(start: Double = 0, duration: Double? = nil, frameRate: Double? = nil, tolerance: Double = LottieExportOptions.defaultTolerance) {
        self.start = start
        self.duration = duration
        self.frameRate = frameRate
        self.tolerance = tolerance
    }
}

/// A named set of parameters a `.lottie` carries as a theme: the same scene with them set.
public struct LottieExportTheme: Sendable {
    public var name: String
    public var scene: LaidOutScene

    public init(name: String, scene: LaidOutScene) {
        self.name = name
        self.scene = scene
    }
}

/// One slot's value in a theme (dotLottie v2 theme rule types).
public enum LottieSlotValue: Sendable, Equatable {
    /// RGBA, components in [0, 1].
    case color([Double])
    /// A number (opacity in 0…100).
    case scalar(Double)
}

/// What an export wrote.
public struct LottieExport: Sendable {
    /// The Lottie JSON, UTF-8.
    public var json: Data
    /// Each slot (`sid`) the animation has, with its value.
    public var slots: [(id: String, value: LottieSlotValue)]
    /// Each theme with the slot values it sets.
    public var themes: [(name: String, slots: [(id: String, value: LottieSlotValue)])]
    /// The colour parameters that are not slots: no paint of the export is the colour itself
    /// (the scene draws colours derived from it, as the activity spinner's brightness steps of
    /// `leafColor`, or does not draw it), so a theme cannot change them.
    public var unslotted: [String]
}

/// Writes scenes as Lottie (issue 51; docs/lottie.md "Writing Lottie").
///
/// The scene is sampled at every half Lottie frame of one loop; each draw item becomes shape
/// groups (`ExportLowering`), the same item from frame to frame a track, and each animated
/// property of a track the fewest keyframes that stay within the tolerance (`KeyframeFitting`).
/// Colours that are a colour parameter's become slots named after it (`ColorBinding`).
public enum LottieExporter {
    /// `scene` (laid out at scale 1: Lottie's canvas is the scene's canvas in pt) as Lottie, with
    /// its colour parameters as slots and `themes` as their other values.
    public static func export(_ scene: LaidOutScene, themes: [LottieExportTheme] = [], options: LottieExportOptions = LottieExportOptions()) throws -> LottieExport {
        let model = scene.model
        let rate = options.frameRate ?? model.naturalFPS ?? 60
        let duration = options.duration ?? model.endsAt.map { max($0 - options.start, 1 / rate) } ?? model.naturalLoop
        guard rate.isFinite, rate > 0, rate <= 1000 else {
            throw ThrobberError.invalid("fps", formatNumber(rate), allowed: "a number > 0 and ≤ 1000")
        }
        let end = (duration * rate * 1000).rounded() / 1000
        guard end > 0, end <= Double(LottieExportLimits.frames) else {
            throw ThrobberError("export: \(formatNumber(duration)) s at \(formatNumber(rate)) frames/s is \(formatNumber(end)) frames; "
                                + "the export writes 1/1000 to \(LottieExportLimits.frames) frames (give --duration or --fps)", kind: .usage)
        }
        var times = stride(from: 0.0, through: end, by: 0.5).map { $0 }
        if times.last! < end { times.append(end) }
        let sampler = ExportSampler(scene: scene, start: options.start, rate: rate, tolerance: options.tolerance)
        // Bounded before the samples are held: the items of a frame at every half frame.
        let items = try sampler.elements(at: 0).count
        guard items * times.count <= LottieExportLimits.samples else {
            throw ThrobberError("export: \(items) shapes at \(times.count) half frames is more than an export holds "
                                + "(\(LottieExportLimits.samples) shape samples); give a shorter --duration or a lower --fps", kind: .usage)
        }
        var tracks = try ExportTracks(times: times, sampler: sampler)
        try tracks.placeWaves()
        // Probed where every track is drawn: its first sample, and three times across the loop.
        var probeTimes = Set([0, end / 3, 2 * end / 3].map { (($0 * 2).rounded(.down)) / 2 })
        for track in tracks.tracks { if let i = track.samples.firstIndex(where: { $0 != nil }) { probeTimes.insert(times[i]) } }
        let bindings = try ColorBinding.bind(scene, sampler: sampler, times: probeTimes.sorted())
        let slots = tracks.applySlots(bindings)
        let (width, height) = scene.pixelSize
        let (layers, assets) = tracks.layers(end: end, width: width, height: height)
        var root: [(String, LottieValue)] = [
            ("v", .string("5.7.0")), ("nm", .string(model.id)), ("fr", .number(rate, digits: 3)), ("ip", .integer(0)),
            ("op", .number(end, digits: 3)), ("w", .integer(width)), ("h", .integer(height)), ("ddd", .integer(0)),
            ("assets", .array(assets)), ("layers", .array(layers)),
        ]
        if !slots.isEmpty {
            root.append(("slots", .object(slots.map { ($0.id, .object([("p", .fixed(slotValue($0.value)))])) })))
        }
        var themeSlots: [(name: String, slots: [(id: String, value: LottieSlotValue)])] = []
        let unslotted = model.parameterInfos.filter { $0.type == "colour" }.map(\.name).filter { name in !slots.contains { $0.id == name } }
        var slotted: [String: Set<String>] = [:]
        for track in tracks.tracks { slotted[track.key, default: []].formUnion(track.slotted.keys) }
        for theme in themes {
            try ColorBinding.verify(theme: theme.name, theme.scene, like: sampler, slotted: slotted, times: probeTimes.sorted(),
                                    unslotted: unslotted)
            themeSlots.append((theme.name, try ColorBinding.values(of: slots, witnesses: tracks.witnesses, in: theme.scene, like: sampler)))
        }
        let text = LottieValue.object(root).text
        return LottieExport(json: Data(text.utf8), slots: slots, themes: themeSlots, unslotted: unslotted)
    }

    static func slotValue(_ value: LottieSlotValue) -> LottieValue {
        switch value {
        case .color(let rgba): .numbers(rgba, digits: 3)
        case .scalar(let x): .number(x, digits: 1)
        }
    }
}

/// The bounds of an export.
public enum LottieExportLimits {
    /// Frames in one export (at 60 frames/s, 10 minutes).
    public static let frames = 36_000
    /// Shapes (an item's groups) times half frames sampled, held while the keys are fitted:
    /// about 1 KB each.
    public static let samples = 2_000_000
}
