import Foundation
import Throbber
import ThrobberText

/// What the page asks to see: a scene, its parameters as `--set` takes them, a time, a scale and
/// a background (`POST /api/state`, and the state an export renders).
public struct StudioState: Sendable, Equatable {
    public var scene: String
    /// Name and text, as `--set NAME=VALUE` takes them, in the order they are applied.
    public var parameters: [(name: String, value: String)]
    public var t: Double
    public var scale: Double
    /// As `--background` takes it; nil: the scene's own.
    public var background: String?
    /// Whether the CPU and GL renderers are drawn side by side as well.
    public var compare: Bool
    /// Exports only: a seamless loop (a job's `"loop": true`, parts retimed slightly) instead of
    /// exactly the frames the timeline shows.
    public var loop: Bool

    public static func == (a: StudioState, b: StudioState) -> Bool {
        a.scene == b.scene && a.parameters.map(\.name) == b.parameters.map(\.name) && a.parameters.map(\.value) == b.parameters.map(\.value)
            && a.t == b.t && a.scale == b.scale && a.background == b.background && a.compare == b.compare && a.loop == b.loop
    }

    /// The state in a request's JSON object.
    ///
    /// - Throws: `StudioRefusal` (400) naming the member at fault.
    public init(json object: [String: Any]) throws {
        func refuse(_ message: String) -> StudioRefusal { StudioRefusal(400, message) }
        guard let scene = object["scene"] as? String else { throw refuse("\"scene\" must be a scene id (a string)") }
        self.scene = scene
        guard let t = Self.number(object["t"] ?? 0), t.isFinite else { throw refuse("\"t\" must be a number of seconds") }
        self.t = t
        guard let scale = Self.number(object["scale"] ?? 1) else { throw refuse("\"scale\" must be a number") }
        self.scale = scale
        switch object["background"] {
        case nil, is NSNull: background = nil
        case let text as String: background = text.isEmpty ? nil : text
        default: throw refuse("\"background\" must be a string ('none', '#rrggbb[aa]' or 'r,g,b,a') or null")
        }
        compare = try Self.flag(object["compare"], "compare")
        loop = try Self.flag(object["loop"], "loop")
        var parameters: [(name: String, value: String)] = []
        switch object["parameters"] {
        case nil, is NSNull: break
        case let members as [String: Any]:
            for (name, value) in members {
                switch value {
                case is NSNull: continue
                case let text as String: parameters.append((name, text))
                default: throw refuse("parameter \"\(String(name.prefix(64)))\" must be a string as --set takes it, or null")
                }
            }
        default: throw refuse("\"parameters\" must be an object of NAME: VALUE strings")
        }
        self.parameters = parameters.sorted { $0.name < $1.name }
    }

    /// A Boolean member (absent or null: false).
    static func flag(_ value: Any?, _ name: String) throws -> Bool {
        guard let value, !(value is NSNull) else { return false }
        guard let number = value as? NSNumber, String(cString: number.objCType) == "c" else {
            throw StudioRefusal(400, "\"\(name)\" must be true or false")
        }
        return number.boolValue
    }

    /// A JSON number, never a Boolean: JSONSerialization gives both as NSNumber, and `1 is Bool`
    /// holds; a Boolean's type code is "c".
    static func number(_ value: Any) -> Double? {
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
        return number.doubleValue
    }

    /// The state with its parameters in `model`'s order (unknown names last, to be refused by
    /// name) and empty values dropped, except a text's (an empty status is a status): what
    /// applying it sets, and so what the command and the job write.
    public func ordered(for model: any SceneModel) -> StudioState {
        let schemas = model.parameterSchemas
        let order = Dictionary(uniqueKeysWithValues: schemas.enumerated().map { ($1.name, $0) })
        var copy = self
        copy.parameters = parameters
            .filter { parameter in !parameter.value.isEmpty || schemas.first { $0.name == parameter.name }?.type == "text" }
            .sorted { (order[$0.name] ?? .max, $0.name) < (order[$1.name] ?? .max, $1.name) }
        return copy
    }

    /// The scene this state names, set as `render` sets it — scale, background, then each
    /// parameter in the model's order — validated, its text laid out, and its frame at `t`
    /// measured against the limits.
    ///
    /// - Throws: `StudioRefusal` (422) with every parameter's own message (`--set`'s), or the
    ///   scene's message where no single parameter is at fault.
    public func scene(from model: any SceneModel) throws -> LaidOutScene {
        var scene = Scene(model)
        let parameters = ordered(for: model).parameters
        var errors: [StudioRefusal.Problem] = []
        func attempt(_ name: String?, _ body: () throws -> Void) {
            do { try body() } catch {
                let message = (error as? ThrobberError)?.message ?? "\(error)"
                errors.append(.init(parameter: name ?? (error as? ThrobberError)?.field, message: message))
            }
        }
        attempt("scale") { scene = try scene.setting("scale", to: formatShortest(scale)) }
        if let background { attempt("background") { scene = try scene.setting("background", to: background) } }
        for (name, value) in parameters { attempt(name) { scene = try scene.setting(name, to: value) } }
        guard errors.isEmpty else { throw StudioRefusal(422, problems: errors) }
        attempt(nil) { try Limits.checkTimeline(start: t, fps: model.naturalFPS ?? 60, frames: 1, fpsField: "fps") }
        var laidOut: LaidOutScene?
        // The size first (a frame the studio does not draw is not laid out either: text at
        // scale 8 fills a 64 MiB atlas), and again once the text is measured (the HUD's size
        // follows its status).
        if errors.isEmpty {
            attempt(nil) {
                try StudioRenderer.checkSize(width: scene.pixelSize.width, height: scene.pixelSize.height)
                laidOut = try scene.validated().layingOutText()
                try StudioRenderer.checkSize(width: laidOut!.pixelSize.width, height: laidOut!.pixelSize.height)
            }
        }
        if let laidOut { attempt(nil) { _ = try laidOut.scene.preflightFrame(at: t) } }
        guard errors.isEmpty, let laidOut else { throw StudioRefusal(422, problems: errors) }
        return laidOut
    }
}

/// A request the studio refuses: an HTTP status and one line (or one line per parameter).
public struct StudioRefusal: Error, Sendable {
    public struct Problem: Sendable {
        public var parameter: String?
        public var message: String
    }

    public var status: Int
    public var problems: [Problem]

    public init(_ status: Int, _ message: String) { (self.status, problems) = (status, [Problem(parameter: nil, message: message)]) }
    public init(_ status: Int, problems: [Problem]) { (self.status, self.problems) = (status, problems) }

    /// The first problem's line.
    public var message: String { problems.first?.message ?? "refused" }
}

/// `value` as Swift writes it back exactly (`1.25`, `0.1`, `2`): what `--start` and `--scale`
/// read as the same number.
public func formatShortest(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
    return "\(value)"
}
