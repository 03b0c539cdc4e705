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
        try draw(definition.content, transform: .identity, opacity: 1, tint: [1, 1, 1, 1], replicated: false, copies: CopyPath())
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

    mutating func visible(_ info: SceneDefinition.NodeInfo) throws -> Bool {
        guard let visible = info.visible else { return true }
        return try evaluate(visible, field: "visible", place: info.place) == .boolean(true)
    }

    // MARK: - Content

    /// Paints `nodes` under `transform`, their alpha times `opacity`, their colours times `tint`.
    mutating func draw(_ nodes: [SceneDefinition.Node], transform: SceneTransform, opacity: Double, tint: [Double],
                       replicated: Bool, copies: CopyPath) throws {
        for node in nodes { try draw(node, transform: transform, opacity: opacity, tint: tint, replicated: replicated, copies: copies) }
    }

    func painted(_ c: RGBA, opacity: Double, tint: [Double]) -> RGBA {
        RGBA(c.r * tint[0], c.g * tint[1], c.b * tint[2], c.a * tint[3] * opacity)
    }

    /// Places `primitive`, charging the frame's budget for it: a primitive hoisted out of a
    /// replicator costs no expression per copy, and would otherwise make copies without bound.
    mutating func emit(_ info: SceneDefinition.NodeInfo, copies: CopyPath, replicated: Bool, _ primitive: ScenePrimitive, work: Int = 1) throws {
        try spend(work, place: info.place)
        shapes += work
        guard shapes <= Limits.shapesPerFrame else {
            throw ThrobberError("\(info.place): the frame places more than \(Limits.shapesPerFrame) shapes (copies counted), each costing "
                                + "\(Limits.pixelsPerShape) px of the \(Limits.pixelsPerFrame) px a frame may cost, at t = \(formatNumber(t)) s"
                                + "\(scene.parameterWords)", kind: .badData)
        }
        output.append(PlacedPrimitive(node: info.id, copies: copies, primitive: primitive, replicated: replicated))
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

    /// A primitive node evaluated in its own coordinates (no transform, opacity or tint), or nil
    /// when it draws nothing this frame (invisible, an arc of no sweep).
    mutating func local(_ node: SceneDefinition.Node) throws -> ScenePrimitive? {
        switch node {
        case let .disc(info, center, radius, color):
            guard try visible(info) else { return nil }
            let (cx, cy) = try point(center, "center", info.place)
            return .disc(centerX: cx, centerY: cy, radius: try length(radius, "radius", info.place), color: try self.color(color, "color", info.place))
        case let .box(info, center, size, cornerRadius, rotation, scale, color):
            guard try visible(info) else { return nil }
            let (cx, cy) = try point(center, "center", info.place)
            let (w, h) = try point(size, "size", info.place)
            guard w >= 0, h >= 0 else { throw failure(info.place, "size", "[\(formatNumber(w)), \(formatNumber(h))]: a size is at least 0") }
            let (sx, sy) = scale == nil ? (1.0, 1.0) : try point(scale, "scale", info.place)
            let corner = try length(cornerRadius, "cornerRadius", info.place)
            guard corner <= min(w, h) / 2 + 1e-12 else {
                throw failure(info.place, "cornerRadius", "\(formatNumber(corner)) is more than half the shorter side (\(formatNumber(min(w, h))))")
            }
            let degrees = try number(rotation, "rotation", info.place)
            return .box(centerX: cx, centerY: cy, halfX: w / 2 * abs(sx), halfY: h / 2 * abs(sy), rotation: degrees * Double.pi / 180,
                        cornerRadius: corner * min(abs(sx), abs(sy)), color: try self.color(color, "color", info.place))
        case let .arc(info, center, radius, width, angles, mask, color):
            guard try visible(info) else { return nil }
            let (cx, cy) = try point(center, "center", info.place)
            let degree = Double.pi / 180
            var start: Double, sweep: Double
            switch angles {
            case let .startEnd(s, e):
                start = try number(s, "start", info.place)
                sweep = try number(e, "end", info.place) - start
            case let .startSweep(s, w):
                start = try number(s, "start", info.place)
                sweep = try number(w, "sweep", info.place)
            case let .trim(pathStart, turns, s, e, offset):
                // CAShapeLayer: strokeStart/End clamped to [0, 1], the offset free (docs/scene-files.md §8).
                let o = try number(offset, "trim.offset", info.place)
                let from = min(max(try number(s, "trim.start", info.place), 0), 1) + o
                let to = min(max(try number(e, "trim.end", info.place), 0), 1) + o
                let n = try number(turns, "path.turns", info.place)
                let p0 = try number(pathStart, "path.start", info.place)
                start = p0 + 360 * n * from
                sweep = 360 * n * (to - from)
            }
            guard sweep > 0 else { return nil }
            return .arc(centerX: cx, centerY: cy, radius: try length(radius, "radius", info.place), width: try length(width, "width", info.place),
                        start: start * degree, sweep: sweep * degree,
                        maskRotation: try mask.map { try number($0, "mask.rotation", info.place) * degree },
                        color: try self.color(color, "color", info.place))
        case let .wave(info, cosine, originX, wavelength, amplitude, phase, baseline, bottom, clipCenter, clipRadius, color):
            guard try visible(info) else { return nil }
            let lambda = try number(wavelength, "wavelength", info.place)
            guard lambda > 0 else { throw failure(info.place, "wavelength", "= \(formatNumber(lambda)): a wavelength is more than 0") }
            var phi = try number(phase, "phase", info.place)
            if cosine { phi += Double.pi / 2 }
            var clip: ScenePrimitive.Circle?
            if let clipCenter {
                let (x, y) = try point(clipCenter, "clip.center", info.place)
                clip = ScenePrimitive.Circle(centerX: x, centerY: y, radius: try length(clipRadius, "clip.radius", info.place))
            }
            return .wave(originX: try number(originX, "originX", info.place), amplitude: try length(amplitude, "amplitude", info.place),
                         wavelength: lambda, phase: phi, baseline: try number(baseline, "baseline", info.place),
                         bottom: try bottom.map { try number($0, "bottom", info.place) }, clip: clip,
                         color: try self.color(color, "color", info.place))
        case let .polyline(info, points, width, color):
            guard try visible(info) else { return nil }
            var xy: [Double] = []
            for (k, point) in points.enumerated() {
                let (x, y) = try self.point(point, "points[\(k)]", info.place)
                xy += [x, y]
            }
            return .polyline(points: xy, width: try length(width, "width", info.place), color: try self.color(color, "color", info.place))
        case let .text(info, text, role, size, at, color):
            guard try visible(info) else { return nil }
            guard case .string(let content) = try evaluate(text, field: "text", place: info.place) else { return nil }
            let points = try length(size, "size", info.place)
            guard points > 0, points <= Limits.textSize else {
                throw failure(info.place, "size", "= \(formatNumber(points)): a text size is > 0 and ≤ \(formatNumber(Limits.textSize)) pt")
            }
            let (x, y) = try point(at, "at", info.place)
            return .text(content: content, role: role, size: points, centerX: x, centerY: y, color: try self.color(color, "color", info.place))
        case .group, .replicator:
            return nil
        }
    }

    /// `primitive` (in its node's coordinates) under `T`, its alpha times `opacity`, its colour
    /// times `tint` (docs/scene-files.md §9).
    func placed(_ primitive: ScenePrimitive, _ T: SceneTransform, opacity: Double, tint: [Double], place: String) throws -> ScenePrimitive {
        switch primitive {
        case let .disc(cx, cy, r, color):
            let c = T.apply(cx, cy)
            return .disc(centerX: c.x, centerY: c.y, radius: T.scale * r, color: painted(color, opacity: opacity, tint: tint))
        case let .box(cx, cy, hx, hy, rotation, corner, color):
            let c = T.apply(cx, cy)
            return .box(centerX: c.x, centerY: c.y, halfX: T.scale * hx, halfY: T.scale * hy, rotation: rotation + T.rotation,
                        cornerRadius: T.scale * corner, color: painted(color, opacity: opacity, tint: tint))
        case let .arc(cx, cy, r, width, start, sweep, mask, color):
            let c = T.apply(cx, cy)
            return .arc(centerX: c.x, centerY: c.y, radius: T.scale * r, width: T.scale * width, start: start + T.rotation, sweep: sweep,
                        maskRotation: mask.map { $0 + T.rotation }, color: painted(color, opacity: opacity, tint: tint))
        case let .text(content, role, size, x, y, color):
            try requireUpright(T, place, "text", "text may not rotate")
            let c = T.apply(x, y)
            return .text(content: content, role: role, size: T.scale * size, centerX: c.x, centerY: c.y,
                         color: painted(color, opacity: opacity, tint: tint))
        case let .ring(cx, cy, ox, oy, hx, hy, boxRotation, corner, start, steps, slots, colors):
            let c = T.apply(cx, cy)
            return .ring(centerX: c.x, centerY: c.y, offsetX: T.scale * ox, offsetY: T.scale * oy, halfX: T.scale * hx, halfY: T.scale * hy,
                         boxRotation: boxRotation, cornerRadius: T.scale * corner, start: start + T.rotation, steps: steps, slots: slots,
                         colors: colors.map { painted($0, opacity: opacity, tint: tint) })
        case let .polyline(points, width, color):
            var placedPoints: [Double] = []
            for k in stride(from: 0, to: points.count, by: 2) {
                let p = T.apply(points[k], points[k + 1])
                placedPoints += [p.x, p.y]
            }
            return .polyline(points: placedPoints, width: T.scale * width, color: painted(color, opacity: opacity, tint: tint))
        case let .wave(originX, amplitude, wavelength, phase, baseline, bottom, clip, color):
            try requireUpright(T, place, "wave", "a wave band is horizontal, so its groups may not rotate it")
            let origin = T.apply(originX, baseline)
            let placedClip = clip.map { c -> ScenePrimitive.Circle in
                let cc = T.apply(c.centerX, c.centerY)
                return ScenePrimitive.Circle(centerX: cc.x, centerY: cc.y, radius: T.scale * c.radius)
            }
            return .wave(originX: origin.x, amplitude: T.scale * amplitude, wavelength: T.scale * wavelength, phase: phase,
                         baseline: origin.y, bottom: bottom.map { T.apply(0, $0).y }, clip: placedClip,
                         color: painted(color, opacity: opacity, tint: tint))
        }
    }

    /// Refuses a transform that turns `what` by anything but whole turns.
    func requireUpright(_ T: SceneTransform, _ place: String, _ what: String, _ why: String) throws {
        let turns = T.rotation / (2 * Double.pi)
        guard abs(turns - turns.rounded()) < 1e-12 else {
            throw failure(place, what, "sits under a rotation of \(formatNumber(T.rotation * 180 / Double.pi))°: \(why)")
        }
    }

    mutating func draw(_ node: SceneDefinition.Node, transform T: SceneTransform, opacity: Double, tint: [Double],
                       replicated: Bool, copies: CopyPath) throws {
        switch node {
        case let .disc(info, _, _, _), let .box(info, _, _, _, _, _, _), let .arc(info, _, _, _, _, _, _), let .wave(info, _, _, _, _, _, _, _, _, _, _),
             let .polyline(info, _, _, _), let .text(info, _, _, _, _, _):
            guard let primitive = try local(node) else { return }
            try emit(info, copies: copies, replicated: replicated, try placed(primitive, T, opacity: opacity, tint: tint, place: info.place))
        case let .group(info, transform, groupOpacity, content):
            guard try visible(info) else { return }
            try spend(1, place: info.place)
            let inner = try transform.map { try self.transform($0, k: 1, place: info.place) } ?? .identity
            let alpha = try number(groupOpacity, "opacity", info.place, default: 1)
            guard (0...1).contains(alpha) else { throw failure(info.place, "opacity", "= \(formatNumber(alpha)): an opacity is in [0, 1]") }
            try draw(content, transform: T.then(inner), opacity: opacity * alpha, tint: tint, replicated: replicated, copies: copies)
        case let .replicator(info, countSource, instance, delayFrom, delay, tintBase, tintStep, firstAbove, depth, content):
            guard try visible(info) else { return }
            let count = try number(countSource, "count", info.place)
            guard count == count.rounded(), count >= 0, count <= 10_000 else {
                throw failure(info.place, "count", "= \(formatNumber(count)): a whole number in [0, 10000]")
            }
            let n = Int(count)
            // The copies' least work checked before any is made (nested copies multiply).
            try spend(1, place: info.place)
            let each = SceneDefinition.Node.leastWork(content)
            guard Double(n) * Double(each) <= Double(budget) else {
                throw failure(info.place, "count", "= \(n): \(n) copies of \(each > FileScene.budget ? "more than \(FileScene.budget)" : "\(each)") "
                              + "node\(each == 1 ? "" : "s") need more node evaluations than the frame has left of its budget of \(FileScene.budget)")
            }
            let first = try number(delayFrom, "delayFrom", info.place)
            let step = try number(delay, "delay", info.place)
            let base = try tintBase.map { try components($0, "tint.base", info.place) } ?? [1, 1, 1, 1]
            let stepTint = try tintStep.map { try components($0, "tint.step", info.place) } ?? [0, 0, 0, 0]
            let order = firstAbove ? Array((0..<n).reversed()) : Array(0..<n)
            /// Copy i's colours are multiplied by clamp(base + i·step, 0, 1) (docs/scene-files.md §9.2).
            let copyTint = { (copy: Int) in (0..<4).map { tint[$0] * min(max(base[$0] + Double(copy) * stepTint[$0], 0), 1) } }
            let saved = env
            env[definition.countSlots[depth]] = .number(count)
            // The instance transform reads no copy's index (only its slot does): evaluated once.
            let step0 = try instance.map { try self.instanceStep($0, place: info.place) }
            // A primitive that reads neither the copy's index nor (when copies are delayed) a
            // clock is the same in every copy but for its placement: evaluated once.
            var perCopy: Set<Int> = [definition.indexSlots[depth]]
            if first != 0 || step != 0 { for clock in definition.clocks { perCopy.formUnion([clock.slots.t, clock.slots.u, clock.slots.n, clock.slots.period]) } }
            var shared: [Int: ScenePrimitive?] = [:]
            for (k, child) in content.enumerated() where child.isPrimitive {
                if definition.primitiveReads[child.info.place].map({ $0.isDisjoint(with: perCopy) }) == true {
                    shared[k] = try local(child)
                }
            }
            // One box turned about the anchor by whole steps of a turn in every copy: the ring
            // row, as the built-in tick rings and spinner leaves are (docs/scene-files.md §9.3).
            if content.count == 1, case .box(let boxInfo, _, _, _, _, _, _) = content[0], let hoisted = shared[0],
               let ring = step0.flatMap(ringSteps), n > 0 {
                if let box = hoisted {
                    var slots: [Int] = []
                    var colors: [RGBA] = []
                    var whole = true
                    for copy in order {
                        env[definition.indexSlots[depth]] = .number(Double(copy))
                        let k = try number(instance?.slot, "instance.slot", info.place, default: Double(copy))
                        guard k == k.rounded(), abs(k) <= 1_000_000 else { whole = false; break }
                        slots.append(Int(k) * ring.direction)
                        if case let .box(_, _, _, _, _, _, color) = box { colors.append(painted(color, opacity: 1, tint: copyTint(copy))) }
                    }
                    if whole, case let .box(cx, cy, hx, hy, rotation, corner, _) = box, let anchor = step0 {
                        // The ring in the replicator's coordinates, then placed as any primitive.
                        let local = ScenePrimitive.ring(centerX: anchor.ax, centerY: anchor.ay, offsetX: cx - anchor.ax, offsetY: cy - anchor.ay,
                                                        halfX: hx, halfY: hy, boxRotation: rotation, cornerRadius: corner, start: 0,
                                                        steps: ring.steps, slots: slots, colors: colors)
                        try emit(boxInfo, copies: copies, replicated: true,
                                 try placed(local, T, opacity: opacity, tint: [1, 1, 1, 1], place: boxInfo.place), work: slots.count)
                        env = saved
                        return
                    }
                } else {
                    env = saved
                    return
                }
            }
            for copy in order {
                env[definition.indexSlots[depth]] = .number(Double(copy))
                // Clocks are read again only for copies they are delayed for.
                if first != 0 || step != 0 { setClocks(delay: first + Double(copy) * step) }
                let k = try number(instance?.slot, "instance.slot", info.place, default: Double(copy))
                let copyTransform = step0.map { $0.raised(to: k) } ?? .identity
                let tint = copyTint(copy)
                let placement = T.then(copyTransform)
                for (k, child) in content.enumerated() {
                    if let hoisted = shared[k] {
                        guard let primitive = hoisted else { continue }
                        let info = child.info
                        try emit(info, copies: copies.appending(copy), replicated: true,
                                 try placed(primitive, placement, opacity: opacity, tint: tint, place: info.place))
                    } else {
                        try draw(child, transform: placement, opacity: opacity, tint: tint, replicated: true, copies: copies.appending(copy))
                    }
                }
            }
            env = saved
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
