import Foundation

/// A scene: which indicator with which parameters, at which pixel scale, on which background,
/// checked by `validated()`. `Scene()` is the original wave ball at @1x. It has no draw list:
/// laying out its text (the text module's `Scene.layingOutText()`) makes the `LaidOutScene`
/// that draws it.
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
    /// drawn (`LaidOutScene.checkedDrawList(at:)`).
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
        if let error = model.frameWorkError(work, at: t, scale: scale) { return error }
        let advice = FrameWork.advice
        let names = model.boxParameterNames.map { "\($0) \(model.value(of: $0) ?? "?")" }
        // A scene whose work no parameter but the scale sets names the scale: the line always
        // names a field.
        let fields = names.isEmpty ? "scale \(formatNumber(scale))" : names.joined(separator: ", ") + " at scale \(formatNumber(scale))"
        return ThrobberError("invalid \(fields): \(work.text()) \(advice)", kind: .usage, field: names.isEmpty ? "scale" : nil)
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
