import Throbber
import ThrobberText
import ThrobberBatch
import ThrobberRender

/// The options that pick and shape a scene, shared by every command that renders one.
enum SceneOptions {
    static let specs: [OptionSpec] = [
        OptionSpec("--scale"), OptionSpec("--background"), OptionSpec("--set"), OptionSpec("--progress"),
    ]

    static let help = """
          --scale S              pixels per point: 1, 2, 3 for @1x/@2x/@3x (default 1)
          --background C|none    canvas colour 'r,g,b,a' or '#rrggbb[aa]', or none (transparent)
          --set NAME=VALUE       any scene parameter by its SPEC name (repeatable); see `throbber scenes`
          --progress P           shorthand for --set progress=P
        """

    /// Builds and validates the scene `id` with the options' settings applied in order, its
    /// text laid out.
    ///
    /// - Throws: a usage error naming the scene, parameter or option at fault.
    static func scene(_ id: String, _ arguments: ParsedArguments) throws -> LaidOutScene {
        var scene = Scene(try SceneReference.model(id))
        if let scale = arguments.value("--scale") { scene = try scene.setting("scale", to: scale) }
        if let background = arguments.value("--background") { scene = try scene.setting("background", to: background) }
        for assignment in arguments.all("--set") {
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw ThrobberError.invalid("--set", assignment, allowed: "NAME=VALUE, e.g. --set progress=0.7")
            }
            let name = String(assignment[..<equals]).trimmingCharacters(in: .whitespaces)
            scene = try scene.setting(name, to: String(assignment[assignment.index(after: equals)...]))
        }
        if let progress = arguments.value("--progress") {
            guard scene.model.value(of: "progress") != nil else {
                throw ThrobberError("--progress: scene \(id) has no progress parameter", kind: .usage)
            }
            scene = try scene.setting("progress", to: progress)
        }
        return try scene.validated().layingOutText()
    }
}
