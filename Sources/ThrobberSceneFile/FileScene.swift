import Foundation
import Throbber

/// A scene read from a scene file (docs/scene-files.md): one more `SceneModel`, so the sampler,
/// parity, loops and every command treat it as they treat a built-in.
///
/// Everything is evaluated in Swift double before the renderers — parameters, clocks, tracks,
/// expressions, group and replicator transforms — and lowered to the existing DrawList rows, so
/// GL/CPU parity is the rows' own.
public struct FileScene: SceneWithText {
    /// The file, compiled.
    public let definition: SceneDefinition
    /// Each parameter's value by declaration order; nil for an optional one left unset.
    public var settings: [ExpressionValue?] { didSet { statics = Statics(self) } }
    public var speeds = PartSpeeds()
    /// What the static expressions give at these settings, evaluated once when the file is read
    /// and again whenever a parameter is set, never per frame.
    private(set) var statics: Statics
    /// The outlines of its paths, kept from frame to frame so that a path that only moves or
    /// changes colour is not flattened again: one for the scene and every copy of it (its
    /// `statistics` are what a bench reports).
    public let pathOutlines = PathOutlineCache()

    /// The scene at the file's defaults.
    public init(_ definition: SceneDefinition) {
        self.definition = definition
        settings = definition.parameters.map(\.defaultValue)
        statics = Statics.unset
        statics = Statics(self)
    }

    /// Node evaluations allowed per frame (docs/scene-files.md §6.3).
    public static let budget = 10_000_000

    /// The environment with every parameter's slot set (an unset optional one derived), as
    /// evaluated when the parameters were last set.
    func parameterEnvironment() -> ExpressionEnvironment { statics.environment }

    /// The environment with every parameter's slot set, evaluated now (`Statics`).
    func environment() -> ExpressionEnvironment {
        var env = ExpressionEnvironment(slotCount: definition.slotCount)
        for (k, p) in definition.parameters.enumerated() {
            if let second = p.secondSlot {
                let pair = self[pair: k]
                env[p.slot] = .number(pair?.first ?? 0)
                env[second] = .number(pair?.second ?? 0)
            } else if let value = settings[k] {
                env[p.slot] = value
            }
        }
        var budget = FileScene.budget
        for (k, p) in definition.parameters.enumerated() where settings[k] == nil {
            if let derived = try? p.derive?.evaluate(env, budget: &budget) { env[p.slot] = derived }
        }
        return env
    }

    /// A static number at these parameters.
    func staticNumber(_ expression: SceneExpression?, in given: ExpressionEnvironment? = nil) throws -> Double? {
        guard let expression else { return nil }
        var budget = FileScene.budget
        do {
            return try expression.number(in: given ?? parameterEnvironment(), budget: &budget)
        } catch {
            throw ThrobberError("\(ThrobberError.shownPath(definition.path)): '\(ThrobberError.echoed(expression.source))': \(error.message)\(parameterWords)",
                                kind: .badData)
        }
    }

    /// `with a=1, b=2` for the parameters that differ from the file's defaults.
    var parameterWords: String {
        let changed = zip(definition.parameters, settings).compactMap { p, value -> String? in
            guard value != p.defaultValue, let value else { return nil }
            return "\(p.name)=\(value)"
        }
        return changed.isEmpty ? " with the defaults" : " with " + changed.joined(separator: ", ")
    }

    // MARK: - Canvas, clocks, loops

    public var canvasSize: (width: Double, height: Double) {
        statics.canvas
    }

    public var defaultBackground: RGBA { definition.background }

    /// The clocks at these parameters.
    func clocks() throws -> [SceneClock] { try statics.clocks.get() }

    /// The clocks at the parameters `env` holds.
    func clocks(in env: ExpressionEnvironment) throws -> [SceneClock] {
        try definition.clocks.map { clock in
            var budget = FileScene.budget
            let enabled = try clock.enabled.map { e in
                do { return try e.boolean(in: env, budget: &budget) } catch {
                    throw ThrobberError("\(ThrobberError.shownPath(definition.path)): clock '\(clock.name)' enabled: \((error as? ExpressionError)?.message ?? "\(error)")", kind: .badData)
                }
            } ?? true
            let duration = enabled ? try staticNumber(clock.duration, in: env) ?? 1 : 1
            let begin = enabled ? try staticNumber(clock.begin, in: env) ?? 0 : 0
            return SceneClock(name: clock.name, duration: duration, repeats: clock.repeats, autoreverses: clock.autoreverses,
                              begin: begin, enabled: enabled)
        }
    }

    public var periodicParts: [PeriodicPart] { ((try? clocks()) ?? []).compactMap(\.periodicPart) }

    public var loopDuration: Double? {
        if let seconds = statics.loopSeconds { return Limits.periodRange.contains(seconds) ? seconds : nil }
        let periods = periodicParts.map(\.period)
        return periods.isEmpty ? nil : ClockLoop.commonPeriod(of: periods)
    }

    public var periodicFrom: Double? {
        if let from = statics.loopFrom { return Limits.timeRange.contains(from) ? from : nil }
        guard definition.firstReadOfT == nil else { return nil }
        return ClockLoop.periodicStart(of: (try? clocks()) ?? [])
    }

    public var previewDuration: Double {
        if let preview = statics.loopPreview, Limits.spanRange.contains(preview) { return preview }
        return loopDuration ?? periodicParts.map(\.period).max() ?? 2
    }

    public var boxParameterNames: [String] { [] }

    // MARK: - Where it came from, how its frames are checked

    public var origin: SceneOrigin? { SceneOrigin(path: definition.path, text: definition.text) }

    /// A frame's counts and numbers may change with its time: each is evaluated before the first.
    public var preflight: ScenePreflight { .eachFrame }

    public func preflightItems(at t: Double, scale: Double, width: Int, height: Int) throws -> (items: [DrawItem], work: Int) {
        let (primitives, work) = try evaluate(at: t, work: ())
        let items = PlacedPrimitive.drawItems(primitives, scale: scale, width: width, height: height, pathOutlines: pathOutlines)
        // A path's outline costs about a node evaluation a chord, to build or to move.
        return (items, work + items.count + items.chordCount)
    }

    public func frameWorkError(_ work: FrameWork, at t: Double, scale: Double) -> ThrobberError? {
        ThrobberError("\(ThrobberError.shownPath(definition.path)): \(work.text()) at t = \(formatNumber(t)) s and scale "
                      + "\(formatNumber(scale)) \(FrameWork.advice)\(parameterWords)", kind: .badData, field: "scale")
    }

    // MARK: - Validation

    /// Checks what the defaults must satisfy: the relations, the canvas, the clocks and frame 0.
    func checkDefaults() throws {
        do {
            try validate()
        } catch let error as ThrobberError where error.kind == .usage {
            throw ThrobberError("\(ThrobberError.shownPath(definition.path)): the defaults are invalid: \(error.message)", kind: .badData)
        }
    }

    public func validateRelations() throws {
        let env = parameterEnvironment()
        var budget = FileScene.budget
        for relation in definition.relations {
            let holds: Bool
            do { holds = try relation.require.boolean(in: env, budget: &budget) } catch {
                throw ThrobberError("invalid \(relation.field): \(relation.text) ('\(ThrobberError.echoed(relation.require.source))': \(error.message))",
                                    kind: .usage, field: relation.field)
            }
            guard holds else {
                let value = zip(definition.parameters, settings).first { $0.0.name == relation.field }
                    .flatMap { $0.1.map { "\($0)" } } ?? "?"
                throw ThrobberError("invalid \(relation.field) '\(value)': \(relation.text)\(parameterWords)", kind: .usage, field: relation.field)
            }
        }
        for (k, p) in definition.parameters.enumerated() where p.withinMin != nil || p.withinMax != nil {
            guard let value = settings[k]?.number else { continue }
            let low = try staticNumber(p.withinMin) ?? -Double.infinity
            let high = try staticNumber(p.withinMax) ?? Double.infinity
            guard value >= low - 1e-12, value <= high + 1e-12 else {
                throw ThrobberError.invalid(p.name, formatNumber(value), allowed: "a number in [\(formatNumber(low)), \(formatNumber(high))]\(parameterWords)")
            }
        }
        let (width, height) = (try staticNumber(definition.canvasWidth) ?? 0, try staticNumber(definition.canvasHeight) ?? 0)
        guard width > 0, height > 0, width <= Limits.length, height <= Limits.length else {
            throw ThrobberError("invalid canvas \(formatNumber(width)) × \(formatNumber(height)) pt: each side > 0 and ≤ \(formatNumber(Limits.length))\(parameterWords)",
                                kind: .usage, field: "canvas")
        }
        for (key, expression, range) in [("seconds", definition.loopSeconds, Limits.periodRange), ("from", definition.loopFrom, Limits.timeRange),
                                         ("preview", definition.loopPreview, Limits.spanRange)] {
            guard let value = try staticNumber(expression) else { continue }
            guard range.contains(value) else {
                throw ThrobberError("invalid loop.\(key) \(formatNumber(value)): \(range.text) s\(parameterWords)", kind: .usage, field: "loop.\(key)")
            }
        }
        for clock in try clocks() where clock.enabled {
            if let problem = clock.problem {
                throw ThrobberError("invalid clock '\(clock.name)': \(problem)\(parameterWords)", kind: .usage, field: clock.name)
            }
        }
        // Frame 0 evaluated: a scene whose numbers fail at once is refused before any frame.
        _ = try evaluate(at: 0)
        if paintsText { _ = try staticText() }
    }

    // MARK: - Frames

    /// A frame: the primitives in points, or why the frame cannot be drawn.
    public struct FrameState: Sendable {
        var primitives: [PlacedPrimitive]
        public var failure: ThrobberError?
    }

    public func frameState(at t: Double) -> FrameState {
        do {
            return FrameState(primitives: try evaluate(at: t), failure: nil)
        } catch let error as ThrobberError {
            return FrameState(primitives: [], failure: error)
        } catch {
            return FrameState(primitives: [], failure: ThrobberError("\(ThrobberError.shownPath(definition.path)): \(error)", kind: .badData))
        }
    }

    public func failure(in state: FrameState) -> ThrobberError? { state.failure }

    public func drawItems(for state: FrameState, scale: Double, width: Int, height: Int) -> [DrawItem] {
        PlacedPrimitive.drawItems(state.primitives, scale: scale, width: width, height: height, pathOutlines: pathOutlines)
    }

    public func drawItems(for state: FrameState, scale: Double, width: Int, height: Int, text: LaidOutText?) -> [DrawItem] {
        PlacedPrimitive.drawItems(state.primitives, scale: scale, width: width, height: height, text: text, pathOutlines: pathOutlines)
    }

    // MARK: - Text

    /// Whether the file has a text node (found once, when the file was read).
    var paintsText: Bool { definition.paintsText }

    /// The text of frame 0: what is laid out before the first frame. Every frame's text has the
    /// same content and sizes (they are static), so a frame whose blocks move is laid out again
    /// from the same glyphs (`textRequest(for:scale:)`).
    public func textRequest(scale: Double) -> TextRequest? {
        guard paintsText, let placed = try? staticText() else { return nil }
        return PlacedPrimitive.textRequest(placed, scale: scale)
    }

    /// Every text node, visible or not, with its content and its size (times its groups'
    /// scales, all static), at the origin: the glyphs every frame's text is made of, laid out
    /// (and so checked) before the first frame.
    func staticText() throws -> [PlacedPrimitive] {
        let env = parameterEnvironment()
        var budget = FileScene.budget
        var blocks: [PlacedPrimitive] = []
        func walk(_ nodes: [any SceneNode], scale: Double) throws {
            for node in nodes {
                if let text = node as? TextNode {
                    guard case .string(let content) = try text.text.evaluate(env, budget: &budget),
                          case .number(let points) = try text.size.evaluate(env, budget: &budget) else { continue }
                    blocks.append(PlacedPrimitive(node: text.info.id, primitive: TextNode.Shape(content: content, role: text.role, size: points * scale,
                                                                                               centerX: 0, centerY: 0, color: .clear),
                                                  replicated: false))
                } else if let group = node as? GroupNode {
                    let factor = try group.transform?.scale.map { source -> Double in
                        guard case .number(let x) = try source.evaluate(env, budget: &budget) else { return 1 }
                        return x
                    } ?? 1
                    try walk(group.content, scale: scale * factor)
                }
            }
        }
        do {
            try walk(definition.content, scale: 1)
        } catch let error as ExpressionError {
            throw ThrobberError("\(ThrobberError.shownPath(definition.path)): a text node's size: \(error.message)\(parameterWords)", kind: .badData)
        }
        return blocks
    }

    public func textRequest(for state: FrameState, scale: Double) -> TextRequest? {
        guard paintsText else { return nil }
        return PlacedPrimitive.textRequest(state.primitives, scale: scale)
    }

    public var textCheckTimes: [Double] { paintsText ? [0] : [] }

    /// Evaluates every frame in `times` without drawing (docs/scene-files.md §12.2).
    ///
    /// - Throws: a `badData` error naming the node, the value, the frame's time and the parameters.
    public func preflight(times: some Sequence<Double>) throws {
        for t in times { _ = try evaluate(at: t) }
    }

    /// The primitives of the frame at `t`, in points.
    func evaluate(at t: Double) throws -> [PlacedPrimitive] {
        try evaluate(at: t, work: ()).primitives
    }

    /// The primitives of the frame at `t`, in points, and the work they took in the units of
    /// the per-frame budget (node evaluations and primitives placed, at most `FileScene.budget`):
    /// what a preflight counts against `Limits.preflightWork`.
    ///
    /// - Throws: a `badData` error naming the node, the value, the frame's time and the parameters.
    func evaluate(at t: Double, work: Void) throws -> (primitives: [PlacedPrimitive], work: Int) {
        var evaluator = FileSceneEvaluator(scene: self, clocks: try clocks(), t: t, environment: statics.environment)
        let primitives = try evaluator.run()
        return (primitives, FileScene.budget - evaluator.budget)
    }
}
