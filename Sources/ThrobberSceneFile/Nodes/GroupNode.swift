import Throbber

/// `group`: nodes under one transform and opacity (docs/scene-files.md §8, §9.1).
struct GroupNode: SceneNode {
    static let type = "group"
    static let keys = ["transform", "opacity", "content"]
    static let requiredKeys = ["content"]
    static let objectKeys = ["transform": ObjectKeys(keys: SceneDefinition.Transform.keys)]

    let info: NodeInfo
    let transform: SceneDefinition.Transform?
    let opacity: SceneSource?
    let content: [any SceneNode]

    static func read(_ f: NodeFields, in reader: inout SceneFileReader) throws -> GroupNode {
        guard f.groupDepth < SceneFileReader.mostGroupDepth else { throw reader.fail(f.node, "groups nest more than \(SceneFileReader.mostGroupDepth) deep") }
        let transform = try f["transform"].map { try reader.transform($0.value, field: "\(f.field).transform", in: f.scope, slot: false) }
        let parameterSlots = reader.parameterSlots
        let scaleIsStatic = transform?.scale.map { $0.slotsRead.allSatisfy { $0 < parameterSlots } } ?? true
        return GroupNode(info: f.info, transform: transform, opacity: try reader.scalar("opacity", f),
                         content: try reader.nodes(f["content"]!.value, field: "\(f.field).content", groupDepth: f.groupDepth + 1,
                                                   aliases: f.aliases, replicatorDepth: f.replicatorDepth,
                                                   staticScale: f.staticScale && scaleIsStatic))
    }

    func leastWork(limit: Int) -> Int { min(1 + NodeWork.leastWork(content, limit: limit), limit + 1) }
    func leastShapes(limit: Int) -> Int { NodeWork.leastShapes(content, limit: limit) }

    func draw(in e: inout FileSceneEvaluator, at placement: Placement) throws {
        guard try e.visible(info) else { return }
        try e.spend(1, place: info.place)
        let inner = try transform.map { try e.transform($0, k: 1, place: info.place) } ?? .identity
        let alpha = try e.number(opacity, "opacity", info.place, default: 1)
        guard (0...1).contains(alpha) else { throw e.failure(info.place, "opacity", "= \(formatNumber(alpha)): an opacity is in [0, 1]") }
        var inside = placement
        inside.transform = placement.transform.then(inner)
        inside.opacity = placement.opacity * alpha
        try e.draw(content, at: inside)
    }
}
