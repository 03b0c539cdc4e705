/// A scene that paints text (SPEC §6): what it asks the text module to lay out, and how its
/// frames paint the answer. Only the scenes that can paint text adopt it (the wave ball's label,
/// the HUD's status, a scene file's text nodes); the core asks a model for it as a capability
/// (`model as? any SceneWithText`), never by its concrete type, and a scene that adopts it
/// paints none while its requests are nil.
///
/// The text is laid out once per scene by the text module (`Scene.layingOutText()`), whose
/// answer, a `LaidOutScene`, is the only value with a draw list.
public protocol SceneWithText: SceneModel {
    /// The text the scene paints at `scale`, nil when it paints none: laid out once per scene by
    /// the text module (`LaidOutScene.text`).
    func textRequest(scale: Double) -> TextRequest?

    /// The primitives of one frame with its text laid out.
    ///
    /// - Parameter text: the answer to `textRequest(scale:)` (or to `textRequest(for:scale:)` for
    ///   this frame); nil when that is nil.
    func drawItems(for state: FrameState, scale: Double, width: Int, height: Int, text: LaidOutText?) -> [DrawItem]

    /// Text whose shaped lines set the scene's own layout (the HUD grows around its status,
    /// SPEC §7), nil when none: the text module measures it (`MeasuredText`) before the canvas
    /// size, the relations and `textRequest(scale:)` are final.
    var textToMeasure: TextMeasureRequest? { get }
    /// Whether the model holds the answer to `textToMeasure` (true when there is nothing to measure).
    var hasMeasuredText: Bool { get }
    /// This model with `measured`, the text module's answer to `textToMeasure`.
    func measuring(_ measured: MeasuredText) -> Self

    /// The text the frame in `state` paints when it is not the scene's own `textRequest(scale:)`
    /// (the HUD's status rasterised at the size it scales to while it shows or dismisses), nil
    /// when it is the scene's own; laid out per frame (`TextLayoutEngine`).
    func textRequest(for state: FrameState, scale: Double) -> TextRequest?
    /// Times whose frames paint the scene's largest text, laid out before the first frame so a
    /// size the atlas cannot hold is reported up front.
    var textCheckTimes: [Double] { get }
}

extension SceneWithText {
    public var textToMeasure: TextMeasureRequest? { nil }
    public var hasMeasuredText: Bool { true }
    public func measuring(_ measured: MeasuredText) -> Self { self }
    public func textRequest(for state: FrameState, scale: Double) -> TextRequest? { nil }
    public var textCheckTimes: [Double] { [] }
}
