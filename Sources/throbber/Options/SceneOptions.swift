import Throbber
import ThrobberText
import ThrobberBatch
import ThrobberRender
import ThrobberLottie
import Foundation

/// The options that pick and shape a scene, shared by every command that renders one.
enum SceneOptions {
    /// Checked by the scene as its `scale` parameter (`invalid scale …`), within `Limits.scaleRange`.
    static let scale = OptionSpec("--scale", value: "S", help: "pixels per point: 1, 2, 3 for @1x/@2x/@3x (default 1)")
    /// Checked by the scene as its `background` parameter.
    static let background = OptionSpec("--background", value: "C|none",
                                       help: "canvas colour 'r,g,b,a' or '#rrggbb[aa]', or none (transparent)")
    static let set = OptionSpec("--set", value: "NAME=VALUE",
                                help: "any scene parameter by its SPEC name (repeatable); see `throbber scenes`")
    /// Checked by the scene as its `progress` parameter.
    static let progress = OptionSpec("--progress", value: "P", help: "shorthand for --set progress=P")
    /// Checked by a Lottie scene as its `marker` parameter.
    static let marker = OptionSpec("--marker", value: "NAME", help: "a Lottie file's named segment: shorthand for --set marker=NAME")
    static let skipUnsupported = OptionSpec("--skip-unsupported", help: """
        draw a Lottie file without the features Throbber does not draw, naming each once (default: refuse the file, exit 65)
        """)

    /// The group, in the order the help lists it.
    static let all = [scale, background, set, progress, marker, skipUnsupported]

    /// Builds and validates the scene `id` with the options' settings applied in order, its
    /// text laid out.
    ///
    /// - Throws: a usage error naming the scene, parameter or option at fault.
    /// `sets` replaces the `--set` assignments given (`export`'s themes set their own).
    static func scene(_ id: String, _ arguments: ParsedArguments, sets: [String]? = nil) throws -> LaidOutScene {
        var scene = Scene(try SceneReference.model(id))
        if let scale = arguments.value(scale) { scene = try scene.setting("scale", to: scale) }
        if let background = arguments.value(background) { scene = try scene.setting("background", to: background) }
        for assignment in sets ?? arguments.all(set) {
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw ThrobberError.invalid(set.canonical, assignment, allowed: "NAME=VALUE, e.g. --set progress=0.7")
            }
            let name = String(assignment[..<equals]).trimmingCharacters(in: .whitespaces)
            scene = try scene.setting(name, to: String(assignment[assignment.index(after: equals)...]))
        }
        if let progress = arguments.value(progress) {
            guard scene.model.value(of: "progress") != nil else {
                throw ThrobberError("--progress: scene \(id) has no progress parameter", kind: .usage)
            }
            scene = try scene.setting("progress", to: progress)
        }
        if let marker = arguments.value(marker) {
            guard scene.model.value(of: "marker") != nil else {
                throw ThrobberError("--marker: scene \(id) has no markers (a Lottie file names them in 'markers')", kind: .usage)
            }
            scene = try scene.setting("marker", to: marker)
        }
        if arguments.has(skipUnsupported), scene.model.value(of: "unsupported") != nil {
            scene = try scene.setting("unsupported", to: "skip")
        }
        if let lottie = scene.model as? LottieScene, lottie.unsupported == "skip" {
            for note in lottie.animation.skipped { FileHandle.standardError.write(Data("throbber: skipped \(note)\n".utf8)) }
        }
        return try scene.validated().layingOutText()
    }
}
