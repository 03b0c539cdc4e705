import Foundation
import Throbber

/// `replicator`: copies of its content, each transformed by the instance step raised to its
/// index, tinted, delayed (docs/scene-files.md §8, §9.2).
struct ReplicatorNode: SceneNode {
    static let type = "replicator"
    static let keys = ["count", "instance", "delayFrom", "delay", "tint", "order", "index", "content"]
    static let requiredKeys = ["count", "content"]
    static let objectKeys = ["instance": ObjectKeys(keys: SceneDefinition.Transform.keys + ["slot"]),
                             "tint": ObjectKeys(keys: ["base", "step"])]

    let info: NodeInfo
    let count: SceneSource
    let instance: SceneDefinition.Transform?
    let delayFrom: SceneSource?
    let delay: SceneSource?
    let tintBase: SceneSource?
    let tintStep: SceneSource?
    /// `first-above`: copy 0 paints last.
    let firstAbove: Bool
    /// How many replicators enclose it: which index and count slots its copies set.
    let depth: Int
    let content: [any SceneNode]

    static func read(_ f: NodeFields, in reader: inout SceneFileReader) throws -> ReplicatorNode {
        let field = f.field
        guard f.replicatorDepth < SceneFileReader.mostReplicatorDepth else {
            throw reader.fail(f.node, "replicators nest more than \(SceneFileReader.mostReplicatorDepth) deep")
        }
        let copyScope = try reader.nodeScope(replicatorDepth: f.replicatorDepth + 1, aliases: f.aliases)
        var inner = f.aliases
        if let index = try reader.string(f["index"], "\(field).index") {
            guard ExpressionScope.isDeclarable(index), reader.scope.binding(for: index) == nil, !SceneFileReader.reservedNames.contains(index),
                  !f.aliases.contains(where: { $0.name == index }) else {
                throw reader.fail(f["index"]!.value, "\(field).index '\(ThrobberError.echoed(index))' is reserved, not a name, or already used")
            }
            inner.append((index, reader.indexSlots[f.replicatorDepth]))
        }
        let order = try reader.string(f["order"], "\(field).order") ?? "first-below"
        guard order == "first-below" || order == "first-above" else {
            throw reader.fail(f["order"]!.value, "invalid \(field).order '\(ThrobberError.echoed(order))' (known: first-below, first-above)")
        }
        var tintBase: SceneSource?, tintStep: SceneSource?
        if f["tint"] != nil {
            let t = try reader.members("tint", of: ReplicatorNode.self, f)
            tintBase = try t["base"].map { try reader.tintSource($0.value, field: "\(field).tint.base", in: f.scope) }
            tintStep = try t["step"].map { try reader.tintSource($0.value, field: "\(field).tint.step", in: f.scope) }
        }
        // The copy's own fields read its index: the slot, and nothing else of the instance.
        let instance = try f["instance"].map {
            try reader.transform($0.value, field: "\(field).instance", in: f.scope, slot: true, slotScope: copyScope)
        }
        let replicator = ReplicatorNode(
            info: f.info, count: try reader.scalar("count", f)!, instance: instance, delayFrom: try reader.scalar("delayFrom", f),
            delay: try reader.scalar("delay", f), tintBase: tintBase, tintStep: tintStep, firstAbove: order == "first-above",
            depth: f.replicatorDepth,
            content: try reader.nodes(f["content"]!.value, field: "\(field).content", groupDepth: f.groupDepth + 1,
                                      aliases: inner, replicatorDepth: f.replicatorDepth + 1))
        try replicator.checkWork(count: f["count"]!.value, field: field, reader: reader)
        return replicator
    }

    /// Refuses copies that, as the file states them, cost a frame more than its budget of node
    /// evaluations (`FileScene.budget`) or draw more than `Limits.shapesPerFrame` shapes, before
    /// any frame is evaluated: nested copies multiply (10,000 × 10,000 copies of one disc are
    /// 10⁸ nodes a frame), and making them first would take gigabytes before the budget could
    /// stop them.
    ///
    /// - Throws: a data error at the replicator's `count`, with the copies, the nodes of each and the budget.
    func checkWork(count countNode: JSONNode, field: String, reader: SceneFileReader) throws {
        guard case .number(let copies)? = NodeWork.constant(count) else { return }
        let shapes = NodeWork.leastShapes(content)
        if copies * Double(shapes) > Double(Limits.shapesPerFrame) {
            throw reader.fail(countNode, "\(field).count \(formatNumber(copies)): \(formatNumber(copies)) copies of \(shapes) shape\(shapes == 1 ? "" : "s") "
                              + "(nested copies counted) are at least \(formatNumber(copies * Double(shapes))) shapes a frame; a frame may draw at most "
                              + "\(Limits.shapesPerFrame) (each costs \(Limits.pixelsPerShape) px of the \(Limits.pixelsPerFrame) px a frame may cost)")
        }
        let each = NodeWork.leastWork(content)
        guard copies * Double(each) + 1 > Double(FileScene.budget) else { return }
        let eachText = each > FileScene.budget ? "more than \(FileScene.budget)" : "\(each)"
        throw reader.fail(countNode, "\(field).count \(formatNumber(copies)): \(formatNumber(copies)) copies of \(eachText) node\(each == 1 ? "" : "s") "
                          + "(nested copies counted) are at least \(formatNumber(copies * Double(each))) node evaluations a frame; a frame "
                          + "may spend at most \(FileScene.budget) (fewer copies, or fewer nodes in each)")
    }

    /// A count that is an expression of anything but constants counts as no copies.
    func leastWork(limit: Int) -> Int {
        guard case .number(let copies)? = NodeWork.constant(count), copies >= 1 else { return 1 }
        let each = Double(NodeWork.leastWork(content, limit: limit))
        return Int(min(1 + min(copies, 1e9) * each, Double(limit + 1)))
    }

    func leastShapes(limit: Int) -> Int {
        guard case .number(let copies)? = NodeWork.constant(count), copies >= 1 else { return 0 }
        return Int(min(min(copies, 1e9) * Double(NodeWork.leastShapes(content, limit: limit)), Double(limit + 1)))
    }

    func draw(in e: inout FileSceneEvaluator, at placement: Placement) throws {
        guard try e.visible(info) else { return }
        let count = try e.number(self.count, "count", info.place)
        guard count == count.rounded(), count >= 0, count <= 10_000 else {
            throw e.failure(info.place, "count", "= \(formatNumber(count)): a whole number in [0, 10000]")
        }
        let n = Int(count)
        // The copies' least work checked before any is made (nested copies multiply).
        try e.spend(1, place: info.place)
        let each = NodeWork.leastWork(content)
        guard Double(n) * Double(each) <= Double(e.budget) else {
            throw e.failure(info.place, "count", "= \(n): \(n) copies of \(each > FileScene.budget ? "more than \(FileScene.budget)" : "\(each)") "
                            + "node\(each == 1 ? "" : "s") need more node evaluations than the frame has left of its budget of \(FileScene.budget)")
        }
        let first = try e.number(delayFrom, "delayFrom", info.place)
        let step = try e.number(delay, "delay", info.place)
        let base = try tintBase.map { try e.components($0, "tint.base", info.place) } ?? [1, 1, 1, 1]
        let stepTint = try tintStep.map { try e.components($0, "tint.step", info.place) } ?? [0, 0, 0, 0]
        let order = firstAbove ? Array((0..<n).reversed()) : Array(0..<n)
        let tint = placement.tint
        /// Copy i's colours are multiplied by clamp(base + i·step, 0, 1) (docs/scene-files.md §9.2).
        let copyTint = { (copy: Int) in (0..<4).map { tint[$0] * min(max(base[$0] + Double(copy) * stepTint[$0], 0), 1) } }
        let definition = e.definition
        let saved = e.env
        defer { e.env = saved }
        e.env[definition.countSlots[depth]] = .number(count)
        // The instance transform reads no copy's index (only its slot does): evaluated once.
        let step0 = try instance.map { try e.instanceStep($0, place: info.place) }
        // A primitive that reads neither the copy's index nor (when copies are delayed) a
        // clock is the same in every copy but for its placement: evaluated once.
        var perCopy: Set<Int> = [definition.indexSlots[depth]]
        if first != 0 || step != 0 { for clock in definition.clocks { perCopy.formUnion([clock.slots.t, clock.slots.u, clock.slots.n, clock.slots.period]) } }
        var shared: [Int: (any ScenePrimitive)?] = [:]
        for (k, child) in content.enumerated() {
            guard let primitive = child as? any PrimitiveNode else { continue }
            if definition.primitiveReads[child.info.place].map({ $0.isDisjoint(with: perCopy) }) == true {
                shared[k] = try primitive.evaluate(in: &e)
            }
        }
        // One box the same in every copy, each copy turned about the anchor by whole steps of a
        // turn: the copies are described as one ring, which lowering draws as the ring row.
        if content.count == 1, let box = content[0] as? BoxNode, let hoisted = shared[0], let steps = step0, let ring = e.ringSteps(steps), n > 0 {
            guard let shape = hoisted as? BoxNode.Shape else { return }
            var slots: [Int] = []
            var colors: [RGBA] = []
            var whole = true
            for copy in order {
                e.env[definition.indexSlots[depth]] = .number(Double(copy))
                let k = try e.number(instance?.slot, "instance.slot", info.place, default: Double(copy))
                guard k == k.rounded(), abs(k) <= 1_000_000 else { whole = false; break }
                slots.append(Int(k) * ring.direction)
                colors.append(Placement.painted(shape.color, opacity: 1, tint: copyTint(copy)))
            }
            if whole {
                // The ring in the replicator's coordinates, then placed as any primitive.
                let local = BoxCopiesRing(centerX: steps.ax, centerY: steps.ay, offsetX: shape.centerX - steps.ax, offsetY: shape.centerY - steps.ay,
                                          halfX: shape.halfX, halfY: shape.halfY, boxRotation: shape.rotation, cornerRadius: shape.cornerRadius,
                                          start: 0, steps: ring.steps, slots: slots, colors: colors)
                var untinted = placement
                untinted.tint = [1, 1, 1, 1]
                untinted.replicated = true
                try e.emit(box.info, at: untinted, local, work: slots.count)
                return
            }
        }
        for copy in order {
            e.env[definition.indexSlots[depth]] = .number(Double(copy))
            // Clocks are read again only for copies they are delayed for.
            if first != 0 || step != 0 { e.setClocks(delay: first + Double(copy) * step) }
            let k = try e.number(instance?.slot, "instance.slot", info.place, default: Double(copy))
            let copyTransform = step0.map { $0.raised(to: k) } ?? .identity
            let inside = Placement(transform: placement.transform.then(copyTransform), opacity: placement.opacity, tint: copyTint(copy),
                                   replicated: true, copies: placement.copies.appending(copy))
            for (k, child) in content.enumerated() {
                if let hoisted = shared[k] {
                    guard let primitive = hoisted else { continue }
                    try e.emit(child.info, at: inside, primitive)
                } else {
                    try child.draw(in: &e, at: inside)
                }
            }
        }
    }
}
