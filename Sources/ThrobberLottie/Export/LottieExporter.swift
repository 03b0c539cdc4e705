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
}

/// Writes scenes as Lottie.
public enum LottieExporter {
    /// `scene` (laid out at scale 1: Lottie's canvas is the scene's canvas in pt) as Lottie, with
    /// its colour and opacity parameters as slots and `themes` as their other values.
    public static func export(_ scene: LaidOutScene, themes: [LottieExportTheme] = [], options: LottieExportOptions = LottieExportOptions()) throws -> LottieExport {
        throw ThrobberError("export: not yet written (issue 51 in progress)", kind: .usage)
    }
}
