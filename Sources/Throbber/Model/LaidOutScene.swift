/// A scene ready to be drawn: validated, and its text — when it paints any — measured and laid
/// out. The only value with a draw list, so no frame can be drawn with its text forgotten: the
/// text module's `Scene.layingOutText()` makes one, and `init(_:)` one for a scene that paints
/// no text.
public struct LaidOutScene: Sendable {
    /// The scene, validated (and, when its layout depends on its text, measured).
    public let scene: Scene
    /// The scene's text laid out, when it paints any: what its draw lists' glyphs and atlas come
    /// from, and what provenance records the fonts of.
    public let text: LaidOutText?
    /// Lays out the text of frames that paint other text than the scene's own
    /// (`SceneWithText.textRequest(for:scale:)`).
    public let textEngine: (any TextLayoutEngine)?

    /// A scene that paints no text, validated.
    ///
    /// - Throws: as `Scene.validate`; a usage error for a scene that paints text, which the text
    ///   module lays out (`Scene.layingOutText()`).
    public init(_ scene: Scene) throws {
        try self.init(scene, text: nil, engine: nil)
    }

    /// `scene`, validated, with `text`, the text module's answer to its `textRequest`, and the
    /// engine that lays out the text of frames that paint other text.
    ///
    /// - Throws: a usage error when the scene's text is not measured or `text` does not answer its
    ///   request (or an engine is missing for its frames' own text); as `Scene.validate`.
    public init(_ scene: Scene, text: LaidOutText?, engine: (any TextLayoutEngine)?) throws {
        if let textModel = scene.textModel {
            let request = scene.textRequest
            guard textModel.hasMeasuredText, text?.request == request,
                  request == nil || textModel.textCheckTimes.isEmpty || engine != nil else {
                throw ThrobberError("scene \(scene.model.id) paints text that is not laid out: lay it out with the text module's "
                                    + "Scene.layingOutText()", kind: .usage)
            }
        } else if text != nil {
            throw ThrobberError("scene \(scene.model.id) paints no text: it has none to lay out", kind: .usage)
        }
        self.scene = try scene.validated()
        self.text = text
        textEngine = engine
    }

    /// The indicator and its parameters.
    public var model: any SceneModel { scene.model }
    /// Pixels per point.
    public var scale: Double { scene.scale }
    /// The canvas background; `nil` uses the scene's default.
    public var background: RGBA? { scene.background }
    /// The canvas in pixels (`Scene.pixelSize`).
    public var pixelSize: (width: Int, height: Int) { scene.pixelSize }
    /// The text the scene paints, nil when it paints none: what `text` answers.
    public var textRequest: TextRequest? { scene.textRequest }

    /// Checks the frame at `t` of a scene file without drawing it (`Scene.preflightFrame(at:)`).
    ///
    /// - Returns: the evaluation work the frame took.
    /// - Throws: as `Scene.preflightFrame(at:)`.
    public func preflightFrame(at t: Double) throws -> Int { try scene.preflightFrame(at: t) }

    /// The draw list of the frame at `t` seconds.
    public func drawList(at t: Double) -> DrawList { frame(at: t).draw() }

    /// The draw list of the frame at `t` seconds, or the reason it cannot be drawn: what a
    /// pipeline asks, so that a frame a scene file cannot draw stops the run instead of being
    /// drawn empty.
    ///
    /// - Throws: the model's `failure(in:)` for the frame (bad data naming the node, the value and
    ///   the time), or the frame's shapes over `Limits.pixelsPerFrame`.
    public func checkedDrawList(at t: Double) throws -> DrawList {
        let frame = frame(at: t)
        if let failure = frame.failure { throw failure }
        let list = frame.draw()
        // A scene file's frames differ in cost (a count may change with time): each is measured
        // before it is drawn. A built-in's cost was bounded by `validate`.
        if model.preflight == .eachFrame, case let work = FrameWork(list), !work.isWithin() { throw scene.frameWorkError(work, at: t) }
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
        if let textModel = scene.textModel { return frame(textModel, at: t) }
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
            var text = self.text
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
}
