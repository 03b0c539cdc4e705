import Foundation
import Throbber

/// Evaluates one frame of a file scene into primitives in points (docs/scene-files.md §9):
/// clocks read at the frame's time (retimed by the loop's speeds, delayed per copy), values in
/// order, then the content tree with groups' and copies' transforms, opacity and tint folded
/// into each primitive. Every failure names the node, the frame's time and the parameters.
struct FileSceneEvaluator {
    let scene: FileScene
    let clocks: [SceneClock]
    let t: Double
    var env: ExpressionEnvironment
    var budget = FileScene.budget
    var output: [PlacedPrimitive] = []
    /// The shapes placed so far (a ring's boxes each), held to `Limits.shapesPerFrame`.
    var shapes = 0
    /// The points the outlines placed so far may hold, held to `PathNode.mostOutlinePoints`.
    var outlinePoints = 0.0

    init(scene: FileScene, clocks: [SceneClock], t: Double, environment: ExpressionEnvironment) {
        self.scene = scene
        self.clocks = clocks
        self.t = t
        env = environment
        speeds = clocks.map { $0.periodicPart == nil ? 1 : scene.speeds.factors[$0.name] ?? 1 }
    }

    /// Each clock's speed factor: a forever clock's from the loop, 1 for a one-shot clock
    /// (docs/scene-files.md §4.1).
    let speeds: [Double]

    var definition: SceneDefinition { scene.definition }

    mutating func run() throws -> [PlacedPrimitive] {
        setClocks(delay: 0)
        env[definition.tSlot] = .number(t)
        for value in definition.values {
            env[value.slot] = try evaluate(value.source, field: "value '\(value.name)'", place: definition.path)
        }
        try draw(definition.content, at: .root)
        return output
    }

    /// Every clock's fields, as copy `delay` seconds late sees them.
    mutating func setClocks(delay: Double) {
        for (k, clock) in clocks.enumerated() {
            let declared = definition.clocks[k]
            let reading = clock.enabled ? clock.reading(at: t, speed: speeds[k], delay: delay) : ClockReading.disabled
            env.setClock(declared.slots, t: reading.t, u: reading.u, n: reading.n, period: reading.period)
        }
    }

    // MARK: - Evaluation with messages

    func failure(_ place: String, _ field: String, _ message: String) -> ThrobberError {
        ThrobberError("\(place): \(field) \(message) at t = \(formatNumber(t)) s\(scene.parameterWords)", kind: .badData)
    }

    mutating func evaluate(_ source: SceneSource, field: String, place: String) throws -> ExpressionValue {
        do {
            return try source.evaluate(env, budget: &budget)
        } catch {
            throw failure(place, field, error.message)
        }
    }

    mutating func number(_ source: SceneSource?, _ field: String, _ place: String, default value: Double = 0) throws -> Double {
        guard let source else { return value }
        guard case .number(let v) = try evaluate(source, field: field, place: place) else { return value }
        guard v.isFinite else { throw failure(place, field, "= \(formatNumber(v)) is not a finite number") }
        return v
    }

    mutating func length(_ source: SceneSource?, _ field: String, _ place: String, default value: Double = 0) throws -> Double {
        let v = try number(source, field, place, default: value)
        guard v >= 0 else { throw failure(place, field, "= \(formatNumber(v)): a length is at least 0") }
        guard v <= Limits.length * 10 else { throw failure(place, field, "= \(formatNumber(v)): a length is at most 1000000 pt") }
        return v
    }

    mutating func color(_ source: SceneSource, _ field: String, _ place: String) throws -> RGBA {
        guard case .color(let c) = try evaluate(source, field: field, place: place) else { return .clear }
        return c
    }

    mutating func point(_ p: SceneDefinition.Point?, _ field: String, _ place: String) throws -> (Double, Double) {
        guard let p else { return (0, 0) }
        return (try number(p.x, "\(field)[0]", place), try number(p.y, "\(field)[1]", place))
    }

    mutating func visible(_ info: NodeInfo) throws -> Bool {
        guard let visible = info.visible else { return true }
        return try evaluate(visible, field: "visible", place: info.place) == .boolean(true)
    }

    // MARK: - Content

    /// Paints `nodes` at `placement`, each as its kind does (Nodes/).
    mutating func draw(_ nodes: [any SceneNode], at placement: Placement) throws {
        for node in nodes { try node.draw(in: &self, at: placement) }
    }

    /// Places `primitive` (in its node's coordinates) at `placement` and charges the frame's
    /// budget `work` for it: a primitive hoisted out of a replicator costs no expression per
    /// copy, and would otherwise make copies without bound.
    mutating func emit(_ info: NodeInfo, at placement: Placement, _ primitive: any ScenePrimitive, work: Int = 1) throws {
        let placed = try primitive.placed(at: placement, by: self, place: info.place)
        try spend(work, place: info.place)
        shapes += work
        guard shapes <= Limits.shapesPerFrame else {
            throw ThrobberError("\(info.place): the frame places more than \(Limits.shapesPerFrame) shapes (copies counted), each costing "
                                + "\(Limits.pixelsPerShape) px of the \(Limits.pixelsPerFrame) px a frame may cost, at t = \(formatNumber(t)) s"
                                + "\(scene.parameterWords)", kind: .badData)
        }
        outlinePoints += placed.outlinePoints
        guard outlinePoints <= Double(PathNode.mostOutlinePoints) else {
            throw ThrobberError("\(info.place): the frame's paths flatten to more than \(PathNode.mostOutlinePoints) points (copies counted) "
                                + "at scales up to \(formatNumber(Limits.scale)) at t = \(formatNumber(t)) s\(scene.parameterWords): fewer or "
                                + "smaller curves, thinner strokes or longer dashes", kind: .badData)
        }
        output.append(PlacedPrimitive(node: info.id, copies: placement.copies, primitive: placed,
                                      replicated: placement.replicated))
    }

    /// Charges `work` node evaluations to the frame's budget (docs/scene-files.md §6).
    ///
    /// - Throws: a data error at `place` once the budget is spent.
    mutating func spend(_ work: Int, place: String) throws {
        budget -= work
        guard budget >= 0 else {
            throw ThrobberError("\(place): the frame spends more than its budget of \(FileScene.budget) node evaluations (copies counted) "
                                + "at t = \(formatNumber(t)) s\(scene.parameterWords)", kind: .badData)
        }
    }

    /// Refuses a transform that turns `what` by anything but whole turns.
    func requireUpright(_ T: SceneTransform, _ place: String, _ what: String, _ why: String) throws {
        let turns = T.rotation / (2 * Double.pi)
        guard abs(turns - turns.rounded()) < 1e-12 else {
            throw failure(place, what, "sits under a rotation of \(formatNumber(T.rotation * 180 / Double.pi))°: \(why)")
        }
    }

    mutating func components(_ source: SceneSource, _ field: String, _ place: String) throws -> [Double] {
        guard case .components(let parts) = source else { return [1, 1, 1, 1] }
        return try parts.enumerated().map { try number($1, "\(field)[\($0)]", place) }
    }

    /// A group's or a copy's transform in numbers: translate, rotate (degrees), scale, anchor.
    struct Step {
        var tx: Double, ty: Double, rotate: Double, scale: Double, ax: Double, ay: Double

        /// The step raised to `k`: anchor + k·translate + scale^k·R(k·rotate)·(p − anchor),
        /// in closed form (docs/scene-files.md §9.2).
        func raised(to k: Double) -> SceneTransform {
            SceneTransform(translate: (k * tx, k * ty), rotation: k * rotate * Double.pi / 180,
                           scale: k == 1 ? scale : pow(scale, k), anchor: (ax, ay))
        }
    }

    /// The steps in a turn and the direction of a copy's turn when a copy's transform is a turn
    /// about the anchor by a whole fraction of a turn (360°/N, N a whole number within 1e-9), and
    /// nothing else; nil otherwise.
    func ringSteps(_ step: Step) -> (steps: Int, direction: Int)? {
        guard step.tx == 0, step.ty == 0, step.scale == 1, step.rotate != 0 else { return nil }
        let steps = 360 / abs(step.rotate)
        guard steps.isFinite, steps >= 1, steps <= 1_000_000, abs(steps - steps.rounded()) <= 1e-9 * steps else { return nil }
        return (Int(steps.rounded()), step.rotate > 0 ? 1 : -1)
    }

    /// The numbers of a transform.
    mutating func instanceStep(_ t: SceneDefinition.Transform, place: String) throws -> Step {
        let (tx, ty) = try point(t.translate, "translate", place)
        let (ax, ay) = try point(t.anchor, "anchor", place)
        let rotate = try number(t.rotate, "rotate", place)
        let scale = try number(t.scale, "scale", place, default: 1)
        guard scale >= 0 else { throw failure(place, "scale", "= \(formatNumber(scale)): a scale is at least 0") }
        return Step(tx: tx, ty: ty, rotate: rotate, scale: scale, ax: ax, ay: ay)
    }

    /// A transform raised to `k`.
    mutating func transform(_ t: SceneDefinition.Transform, k: Double, place: String) throws -> SceneTransform {
        try instanceStep(t, place: place).raised(to: k)
    }
}
