import Throbber
import ThrobberText

/// One render of the job at one scale: the unit outputs are written for.
public struct Clip: Sendable {
    /// The render's name (default: the scene id), used by `{name}`.
    public var name: String
    /// The validated scene at this clip's scale (speeds set when looping).
    public var scene: Scene
    public var fps: Double
    /// Time of frame 0.
    public var start: Double
    public var frameCount: Int
    /// How the clip was made into a seamless loop, when it was.
    public var loop: LoopPlan?
    public var outputs: [Output]
    /// Where the render is in the job file (0 for a clip built in code).
    public var line: Int

    /// The time of frame `k`: start + k / fps.
    public func time(_ k: Int) -> Double { start + Double(k) / fps }

    /// A label such as `wave-ball@2x`.
    public var label: String { Clip.label(name: name, scale: scene.scale) }

    /// The label of the clip of render `name` at `scale`.
    static func label(name: String, scale: Double) -> String { "\(name)@\(formatNumber(scale))x" }
}

extension Clip {
    /// A clip's frame count: 1 … `Limits.frames`.
    public static let framesRule = IntegerRule("frames", 1...Limits.frames)
    /// A clip's frame rate.
    public static let fpsRule = NumberRule("fps", Limits.fpsRange)
    /// The time of a clip's frame 0.
    public static let startRule = NumberRule("start", Limits.timeRange)

    /// Checks a render's name, which `{name}` puts into paths as a whole path component: letters,
    /// digits, `.`, `_` and `-`, not `.` or `..`, at most `Job.longestName` bytes, so that
    /// `o/{name}/x_%05d.png` never climbs out of `o/`.
    ///
    /// - Throws: a usage error naming `name`, with ``ThrobberError/field``.
    public static func checkName(_ name: String) throws {
        guard !name.isEmpty, name != ".", name != "..", name.utf8.count <= Job.longestName,
              name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }) else {
            throw ThrobberError("invalid name \"\(ThrobberError.echoed(name))\": letters, digits, '.', '_' and '-' only, "
                                + "not \".\" or \"..\", at most \(Job.longestName) bytes", kind: .usage, field: "name")
        }
    }

    /// A clip built in code: `scene` (parameters and scale set) rendered for `frames` frames at
    /// t = start + k / fps, written to `outputs`. Checked as a job file's render is, by the same
    /// rules with the same messages: the name a path component, the scene validated, the frame
    /// count, rate and start in range (``framesRule``, ``fpsRule``, ``startRule``) and the timeline
    /// within `Limits`, each output possible for the clip (``Output/check(for:)``).
    ///
    /// - Parameter name: what `{name}` stands for and labels say (default: the scene's id).
    /// - Throws: `.usage` naming what is out of range (``ThrobberError/field`` names the setting).
    public init(name: String? = nil, scene: Scene, frames: Int, fps: Double = 60, start: Double = 0, outputs: [Output]) throws {
        try self.init(name: name ?? scene.model.id, scene: scene, frames: frames, fps: fps, start: start, loop: nil,
                      outputs: outputs, line: 0)
    }

    /// The one place a clip is checked and made, for code and the job-file reader alike.
    ///
    /// - Parameters:
    ///   - loop: how the clip was made a seamless loop (its scene already retimed, `frames` the
    ///     loop's), for its provenance.
    ///   - line: where the render is in its job file.
    init(name: String, scene: Scene, frames: Int, fps: Double, start: Double, loop: LoopPlan?, outputs: [Output],
         line: Int) throws {
        try Clip.checkName(name)
        let scene = try scene.validated().layingOutText()
        try Clip.framesRule.check(frames)
        try Clip.fpsRule.check(fps)
        try Clip.startRule.check(start)
        try Limits.checkTimeline(start: start, fps: fps, frames: frames)
        guard !outputs.isEmpty else { throw ThrobberError("a clip needs at least one output", kind: .usage, field: "outputs") }
        self.init(name: name, scene: scene, fps: fps, start: start, frameCount: frames, loop: loop, outputs: outputs, line: line)
        for output in outputs { try output.check(for: self) }
    }
}
