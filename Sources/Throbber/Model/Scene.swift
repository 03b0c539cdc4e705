import Foundation

/// A validated scene: which indicator with which parameters, at which pixel scale, on which
/// background. `Scene()` is the original wave ball at @1x.
public struct Scene: Sendable {
    /// The indicator and its parameters.
    public var model: any SceneModel { didSet { isValidated = false } }
    /// Pixels per point: 1, 2, 3 for @1x/@2x/@3x; any value > 0.
    public var scale: Double { didSet { isValidated = false } }
    /// The canvas background; `nil` uses the scene's default.
    public var background: RGBA? { didSet { isValidated = false } }
    /// Whether `validated()` has checked this very value: any change clears it, so a scene that
    /// passes through several checkpoints (the command line, a job file's scale, `Clip.init`) is
    /// validated — two draw lists built for its box work — once.
    public private(set) var isValidated = false
    /// The scene's text laid out (`withText`), when it paints any: what its draw lists' glyphs and
    /// atlas come from. Kept only while it answers the scene's `textRequest`.
    public private(set) var text: LaidOutText?
    /// Lays out the text of frames that paint other text than the scene's own (`SceneWithText.textRequest(for:scale:)`),
    /// set with `text`.
    public private(set) var textEngine: (any TextLayoutEngine)?

    /// Creates a scene.
    public init(_ model: any SceneModel = WaveBall(), scale: Double = 1, background: RGBA? = nil) {
        self.model = model
        self.scale = scale
        self.background = background
    }

    /// The model's text requirements, when it is a scene that paints text.
    public var textModel: (any SceneWithText)? { model as? any SceneWithText }

    /// The text the scene paints (`SceneWithText.textRequest(scale:)`), nil when it paints none.
    public var textRequest: TextRequest? { textModel?.textRequest(scale: scale) }

    /// Whether the scene's text (if it paints any) is laid out: what `drawList(at:)` needs.
    public var hasTextLaidOut: Bool {
        guard let textModel else { return true }
        guard textModel.hasMeasuredText else { return false }
        guard let request = textRequest else { return true }
        return text?.request == request && (textModel.textCheckTimes.isEmpty || textEngine != nil)
    }

    /// This scene with `text`, the text module's answer to `textRequest`, and the engine that lays
    /// out the text of frames that paint other text.
    ///
    /// - Precondition: `text.request == textRequest`.
    public func withText(_ text: LaidOutText, engine: (any TextLayoutEngine)? = nil) -> Scene {
        precondition(text.request == textRequest, "the text laid out is not the scene's")
        var copy = self
        copy.text = text
        copy.textEngine = engine
        return copy
    }

    /// The text the frame at `t` paints when it is not the scene's own (`SceneWithText.textRequest(for:scale:)`).
    public func frameTextRequest(at t: Double) -> TextRequest? {
        guard let textModel else { return nil }
        return Scene.frameTextRequest(textModel, at: t, scale: scale)
    }

    private static func frameTextRequest<Model: SceneWithText>(_ model: Model, at t: Double, scale: Double) -> TextRequest? {
        model.textRequest(for: model.frameState(at: t), scale: scale)
    }

    /// The largest canvas side, in pixels, any backend is asked to render; a GL backend may
    /// allow less (it checks `GL_MAX_RENDERBUFFER_SIZE`).
    public static let maximumPixelSide = 16384

    /// The canvas in pixels: ceil(points × scale − 1e-9) (SPEC §0).
    public var pixelSize: (width: Int, height: Int) {
        let size = model.canvasSize
        return (Scene.pixels(size.width, scale), Scene.pixels(size.height, scale))
    }

    static func pixels(_ points: Double, _ scale: Double) -> Int {
        let value = (points * scale - 1e-9).rounded(.up)
        guard value.isFinite else { return Int.max }
        return Int(max(0, min(value, 1e9)))
    }

    /// This scene, checked (`validate`) unless this value was checked already.
    ///
    /// - Throws: as `validate`.
    public func validated() throws -> Scene {
        try validate()
        var checked = self
        checked.isValidated = true
        return checked
    }

    /// Checks every parameter, the scale and the pixel size.
    ///
    /// - Throws: a usage error naming the field, the value and what is allowed.
    public func validate() throws {
        guard !isValidated else { return }
        guard Limits.scaleRange.contains(scale) else {
            throw ThrobberError.invalid("scale", formatNumber(scale), allowed: Limits.scaleRange.text)
        }
        if let background, !background.isValid {
            throw ThrobberError.invalid("background", background.description,
                                        allowed: "a colour with components in [0, 1], or none")
        }
        try model.validate()
        let (width, height) = pixelSize
        for (name, points, pixels) in [("width", model.canvasSize.width, width), ("height", model.canvasSize.height, height)] {
            guard pixels >= 1, pixels <= Scene.maximumPixelSide else {
                throw ThrobberError.invalid(
                    "canvas \(name)", "\(formatNumber(points)) pt × scale \(formatNumber(scale)) = \(pixels) px",
                    allowed: "between 1 and \(Scene.maximumPixelSide) px")
            }
        }
        try checkBoxWork()
    }

    /// Checks that the shapes of a frame — boxes, arcs, discs, waves, strokes, gradients — cost
    /// at most `Limits.pixelsPerFrame` pixels, each counted over its bounds on the canvas and
    /// `Limits.pixelsPerShape` for its setup (`FrameWork`): a renderer shades each shape's
    /// bounds, so their sum is the work of a frame.
    /// Frames at t = 0 and at the latest time are measured (lit ticks grow as the water rises);
    /// a scene file's other frames are measured as the preflight evaluates them and as they are
    /// drawn (`checkedDrawList(at:)`).
    ///
    /// - Throws: for a built-in, a usage error naming the parameters that set the work; for a
    ///   scene file, a data error naming the file, the frame's time and its parameters. Either
    ///   names the shapes, their pixels and the limit.
    func checkBoxWork() throws {
        var worst: (work: FrameWork, t: Double)?
        // A scene file's frames of a clip are measured by its preflight (`preflightFrame(at:)`).
        for t in model.preflight == .eachFrame ? [0] : [0, Limits.time] {
            let work = FrameWork(drawListWithoutText(at: t))
            if worst == nil || work.cost > worst!.work.cost { worst = (work, t) }
        }
        guard let worst, !worst.work.isWithin() else { return }
        throw frameWorkError(worst.work, at: worst.t)
    }

    /// Checks the frame at `t` of a scene file without drawing it: its numbers (clocks, tracks,
    /// expressions, lengths, counts, colours) and the pixels its shapes cover (text left out, as
    /// `validate` measures). A built-in scene's frames need no such check (0 is returned).
    ///
    /// - Returns: the evaluation work the frame took (node evaluations and primitives placed),
    ///   what a preflight counts against `Limits.preflightWork`.
    /// - Throws: a data error naming the node, the value, the time and the parameters, or the
    ///   shapes and pixels over `Limits.pixelsPerFrame`.
    public func preflightFrame(at t: Double) throws -> Int {
        guard model.preflight == .eachFrame else { return 0 }
        let (width, height) = pixelSize
        let (items, work) = try model.preflightItems(at: t, scale: scale, width: width, height: height)
        let frame = FrameWork(items: items)
        guard frame.isWithin() else { throw frameWorkError(frame, at: t) }
        return work
    }

    /// The refusal of a frame at `t` whose shapes cost `work`, more than `Limits.pixelsPerFrame`.
    func frameWorkError(_ work: FrameWork, at t: Double) -> ThrobberError {
        let advice = FrameWork.advice
        if let error = model.frameWorkError(work, at: t, scale: scale) { return error }
        let names = model.boxParameterNames.map { "\($0) \(model.value(of: $0) ?? "?")" }
        // A scene whose work no parameter but the scale sets names the scale: the line always
        // names a field.
        let fields = names.isEmpty ? "scale \(formatNumber(scale))" : names.joined(separator: ", ") + " at scale \(formatNumber(scale))"
        return ThrobberError("invalid \(fields): \(work.text()) \(advice)", kind: .usage, field: names.isEmpty ? "scale" : nil)
    }

    /// The draw list of the frame at `t` seconds.
    ///
    /// - Precondition: `hasTextLaidOut` (the text module's `Scene.layingOutText()`).
    public func drawList(at t: Double) -> DrawList {
        precondition(hasTextLaidOut, "scene \(model.id) paints text that is not laid out: use layingOutText() first")
        return frame(at: t).draw()
    }

    /// The draw list of the frame at `t` seconds, or the reason it cannot be drawn: what a
    /// pipeline asks, so that a frame a scene file cannot draw stops the run instead of being
    /// drawn empty.
    ///
    /// - Precondition: `hasTextLaidOut`.
    /// - Throws: the model's `failure(in:)` for the frame (bad data naming the node, the value and
    ///   the time).
    public func checkedDrawList(at t: Double) throws -> DrawList {
        precondition(hasTextLaidOut, "scene \(model.id) paints text that is not laid out: use layingOutText() first")
        let frame = frame(at: t)
        if let failure = frame.failure { throw failure }
        let list = frame.draw()
        // A scene file's frames differ in cost (a count may change with time): each is measured
        // before it is drawn. A built-in's cost was bounded by `validate`.
        if model.preflight == .eachFrame, case let work = FrameWork(list), !work.isWithin() { throw frameWorkError(work, at: t) }
        return list
    }

    /// One frame's state evaluated: why it cannot be drawn (the model's `failure(in:)`), and its
    /// draw list, made when asked.
    private struct Frame {
        var failure: ThrobberError?
        var draw: () -> DrawList
    }

    /// The frame at `t` of the model, opened as a scene with text when it is one.
    private func frame(at t: Double) -> Frame {
        if let textModel { return frame(textModel, at: t) }
        return frame(model, at: t)
    }

    private func frame<Model: SceneModel>(_ model: Model, at t: Double) -> Frame {
        let state = model.frameState(at: t)
        return Frame(failure: model.failure(in: state)) {
            let (width, height) = pixelSize
            return drawList(items: model.drawItems(for: state, scale: scale, width: width, height: height), text: nil)
        }
    }

    private func frame<Model: SceneWithText>(_ model: Model, at t: Double) -> Frame {
        let state = model.frameState(at: t)
        return Frame(failure: model.failure(in: state)) {
            let (width, height) = pixelSize
            var text = textRequest == nil ? nil : self.text
            if let request = model.textRequest(for: state, scale: scale), request != text?.request {
                guard let textEngine else { preconditionFailure("scene \(model.id) paints per-frame text without a text engine") }
                // The sizes a frame can ask for were laid out up front (`textCheckTimes`): what is
                // left to fail is the machine (memory), not the input.
                do { text = try textEngine.layOut(request) } catch { preconditionFailure("laying out the text of \(model.id) at t = \(t): \(error)") }
            }
            return drawList(items: model.drawItems(for: state, scale: scale, width: width, height: height, text: text), text: text)
        }
    }

    /// A frame's draw list of `items`, with the atlas of `text` its glyphs come from.
    private func drawList(items: [DrawItem], text: LaidOutText?) -> DrawList {
        let (width, height) = pixelSize
        return DrawList(width: width, height: height, background: PaintColor(background ?? model.defaultBackground), items: items,
                        resources: DrawResources(atlases: text.map { [LaidOutText.atlasID: $0.atlas] } ?? [:]))
    }

    /// The draw list of the frame at `t` without its text, for checks of the frame's other work.
    func drawListWithoutText(at t: Double) -> DrawList {
        let (width, height) = pixelSize
        return DrawList(width: width, height: height, background: PaintColor(background ?? model.defaultBackground),
                        items: model.drawItems(at: t, scale: scale, width: width, height: height))
    }

    /// A copy with one setting applied by name: a scene parameter, or `scale` or `background`.
    ///
    /// - Throws: a usage error for an unknown name or a value out of range.
    public func setting(_ name: String, to text: String) throws -> Scene {
        var copy = self
        switch name {
        case "scale":
            guard let value = Double(text), Limits.scaleRange.contains(value) else {
                throw ThrobberError.invalid("scale", text, allowed: Limits.scaleRange.text)
            }
            copy.scale = value
        case "background":
            copy.background = try Scene.parseBackground(text)
        default:
            copy.model = try model.setting(name, to: text)
        }
        return copy
    }

    /// Parses a background: `none` (transparent) or a colour.
    ///
    /// - Throws: a usage error naming `background`.
    public static func parseBackground(_ text: String) throws -> RGBA {
        if text.trimmingCharacters(in: .whitespaces).lowercased() == "none" { return .clear }
        guard let color = RGBA.parse(text), color.isValid else {
            throw ThrobberError.invalid("background", text,
                                        allowed: "none, 'r,g,b,a' with components in [0, 1], or '#rrggbb[aa]'")
        }
        return color
    }
}
