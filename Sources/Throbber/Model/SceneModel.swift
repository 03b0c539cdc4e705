/// One indicator: its parameters (with the original look as defaults), its timing and how a
/// frame becomes a draw list. Every scene conforms: the built-ins in `SceneRegistry` (through
/// `BuiltInScene`, which supplies the descriptions from their statics) and scenes read from files.
///
/// A model is a plain value. The data flow is one way: `frameState(at:)` is a pure function of
/// time (never a wall clock, never accumulated from an earlier frame), and
/// `drawItems(for:scale:width:height:)` turns that state into primitives; a scene that paints
/// text says so by adopting `SceneWithText` as well. The descriptions —
/// id, summary, parameters, relations — are instance members, so a scene described by data (a
/// scene file) is one more model, and the sampler, parity, provenance and every command see one
/// kind of scene.
public protocol SceneModel: Sendable {
    /// What one frame's animation state is (phases, amplitudes, counts …).
    associatedtype FrameState: Sendable

    /// The scene id used on the command line, e.g. `wave-ball`.
    var id: String { get }
    /// One line describing the scene.
    var summary: String { get }
    /// Every settable parameter, by its SPEC name.
    var parameters: [SceneParameter<Self>] { get }
    /// The rules that tie parameters together, in words, one each: what `validateRelations`
    /// checks (for `throbber scenes --json`).
    var relations: [String] { get }

    /// The canvas in points.
    var canvasSize: (width: Double, height: Double) { get }
    /// The canvas background when the user sets none (SPEC: "none" is transparent).
    var defaultBackground: RGBA { get }
    /// The length of one seamless loop in seconds, when the whole animation has one.
    var loopDuration: Double? { get }
    /// The independently periodic parts of the animation, at the current speeds' base periods
    /// (what a seamless loop retimes).
    var periodicParts: [PeriodicPart] { get }
    /// Speed factors of the periodic parts (all 1 unless retimed into a loop).
    var speeds: PartSpeeds { get set }
    /// The earliest time from which the animation is periodic (a filling level must have settled);
    /// nil when it never is (a progress ramp).
    var periodicFrom: Double? { get }

    /// A span that shows the whole animation once: the loop, or the longest period of its parts
    /// (what `preview` spreads its frames over and the parity tests sample).
    var previewDuration: Double { get }

    /// The frame rate a clip takes when none is given (a Lottie file's `fr`), or nil for 60.
    var naturalFPS: Double? { get }

    /// When the animation is over for good (a HUD's dismissal has faded out), or nil when it
    /// never is: how long a job's last chained link runs when it gives no length.
    var endsAt: Double? { get }

    /// A randomly drawn model made to keep the relations between parameters that no sampling
    /// range can say (one parameter only with another): what `ParameterSampler` draws before
    /// any fixed setting is applied. A scene without such relations returns itself.
    func reconciledForSampling() -> Self

    /// Checks rules that tie parameters together (ranges of single parameters are checked from
    /// `parameters`).
    ///
    /// - Throws: a usage error naming the field, the value and what is allowed.
    func validateRelations() throws

    /// The animation state at `t` seconds.
    func frameState(at t: Double) -> FrameState

    /// The primitives of one frame, in paint order, in pixels.
    func drawItems(for state: FrameState, scale: Double, width: Int, height: Int) -> [DrawItem]

    /// Why the frame in `state` cannot be drawn, or nil: a scene file whose numbers fail at that
    /// time (a radius below 0). Built-in scenes draw every frame.
    func failure(in state: FrameState) -> ThrobberError?

    /// The parameters that set how many boxes a frame has and how large they are, for the
    /// message when a frame's shapes cover more than `Limits.pixelsPerFrame`.
    var boxParameterNames: [String] { get }

    /// Where the scene was read from, nil for a built-in: what provenance records and `render`
    /// is given to draw it again.
    var origin: SceneOrigin? { get }

    /// How the scene's frames are checked before and as they are drawn (`ScenePreflight`).
    var preflight: ScenePreflight { get }

    /// The primitives of the frame at `t` at `scale` on a `width` × `height` px canvas, without
    /// text, and the work evaluating them took (what a preflight counts against
    /// `Limits.preflightWork`); for a scene whose frames are `.eachFrame`.
    ///
    /// - Throws: why the frame cannot be drawn (bad data naming the node, the value and the time).
    func preflightItems(at t: Double, scale: Double, width: Int, height: Int) throws -> (items: [DrawItem], work: Int)

    /// The refusal of a frame at `t` whose shapes cost `work`, more than `Limits.pixelsPerFrame`,
    /// in the scene's own words (a scene file names its path and its parameters); nil for the
    /// words every built-in shares (the parameters in `boxParameterNames`).
    func frameWorkError(_ work: FrameWork, at t: Double, scale: Double) -> ThrobberError?
}

/// Where a scene read from a file came from: its path as the user gave it and its bytes, whose
/// SHA-256 provenance records (the batch library computes it; the core has no digest).
public struct SceneOrigin: Sendable, Equatable {
    /// The file's name as messages show it and as it was given.
    public let path: String
    /// The file's bytes as text (a binary file: the text the scene was read from, such as a
    /// dotLottie archive's animation).
    public let text: String
    /// The file's bytes when they are not `text` (a dotLottie archive): what its digest is of.
    public let bytes: [UInt8]?

    public init(path: String, text: String, bytes: [UInt8]? = nil) { (self.path, self.text, self.bytes) = (path, text, bytes) }
}

/// How a scene's frames are held to their cost (`Limits.pixelsPerFrame`) and their numbers.
public enum ScenePreflight: Sendable, Equatable {
    /// Every frame costs what the parameters make it, so two frames (t = 0 and the latest time)
    /// measured when the scene is validated bound them all: the built-ins.
    case parameters
    /// A frame's numbers and shapes depend on its time (a count that grows, an expression that
    /// fails at t = 3): each frame is evaluated before the first is drawn (a clip's preflight)
    /// and measured again as it is drawn. Scenes read from files.
    case eachFrame
}

extension SceneModel {
    /// Every parameter as `throbber scenes` lists it, with this model's values as defaults.
    public var parameterInfos: [ParameterInfo] { parameters.map { $0.info(defaults: self) } }

    /// A copy with one parameter set from text, by its SPEC name.
    ///
    /// - Throws: a usage error for an unknown name (suggesting the nearest) or a value out of range.
    public func setting(_ name: String, to text: String) throws -> any SceneModel {
        guard let parameter = parameters.first(where: { $0.name == name }) else {
            throw ThrobberError.unknown("parameter", name, known: parameters.map(\.name) + ["background", "scale"])
        }
        var copy = self
        try parameter.set(text, in: &copy)
        return copy
    }

    /// The parameters holding text (a caption, a font file): values that may hold spaces,
    /// newlines and any character, which provenance records apart from the others.
    public var textParameterNames: [String] {
        parameters.compactMap { parameter in
            if case .text = parameter.kind { return parameter.name }
            return nil
        }
    }

    /// The current value of one parameter, as text.
    public func value(of name: String) -> String? {
        parameters.first(where: { $0.name == name })?.value(in: self)
    }

    /// Every parameter that holds a value, by name, in the form `--set` accepts and in the order
    /// the scene lists them; optional parameters left unset (derived) are not among them, so
    /// applying these to `init()` rebuilds this model's parameters exactly.
    public var assignments: [(name: String, value: String)] {
        parameters.filter { $0.isSet(in: self) }.map { ($0.name, $0.value(in: self)) }
    }

    /// Checks every parameter's range, then the relations between them.
    public func validate() throws {
        for parameter in parameters { try parameter.check(self) }
        try validateRelations()
    }

    /// The primitives of the frame at `t` seconds, without text.
    public func drawItems(at t: Double, scale: Double, width: Int, height: Int) -> [DrawItem] {
        drawItems(for: frameState(at: t), scale: scale, width: width, height: height)
    }

    public var origin: SceneOrigin? { nil }
    public var preflight: ScenePreflight { .parameters }
    public func preflightItems(at t: Double, scale: Double, width: Int, height: Int) throws -> (items: [DrawItem], work: Int) {
        (drawItems(at: t, scale: scale, width: width, height: height), 0)
    }
    public func frameWorkError(_ work: FrameWork, at t: Double, scale: Double) -> ThrobberError? { nil }

    public var loopDuration: Double? { nil }
    public var boxParameterNames: [String] { ["size"] }
    public var periodicFrom: Double? { 0 }

    /// The length `"loop": true` gives a clip: the scene's loop, or its longest period.
    public var naturalLoop: Double { loopDuration ?? periodicParts.map(\.period).max() ?? 1 }
    public var previewDuration: Double { loopDuration ?? 2 }
    public var endsAt: Double? { nil }
    public var naturalFPS: Double? { nil }
    public func failure(in state: FrameState) -> ThrobberError? { nil }
    public func reconciledForSampling() -> Self { self }
    public func validateRelations() throws {}
}
