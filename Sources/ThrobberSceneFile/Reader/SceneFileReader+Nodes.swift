import Throbber

extension SceneFileReader {
    /// The node types a file may use (`NodeKinds`), and those the design names that this version
    /// does not draw yet.
    static var nodeTypes: [String] { NodeKinds.types }
    static let laterNodeTypes: [String] = []

    /// An array of nodes in paint order.
    mutating func nodes(_ node: JSONNode, field: String, groupDepth: Int, aliases: [(name: String, slot: Int)],
                        replicatorDepth: Int = 0, staticScale: Bool = true) throws -> [any SceneNode] {
        try array(node, field).enumerated().map {
            try self.node($1, field: "\(field)[\($0)]", groupDepth: groupDepth, aliases: aliases, replicatorDepth: replicatorDepth,
                          staticScale: staticScale)
        }
    }

    /// The scope of a node's per-frame fields: parameters, clocks, t, values, and inside
    /// replicators the innermost copy's `i` and `count` and every enclosing alias.
    func nodeScope(replicatorDepth: Int, aliases: [(name: String, slot: Int)]) throws -> ExpressionScope {
        var nodeScope = scope
        do {
            if replicatorDepth > 0 {
                try nodeScope.declare("i", .number, slot: indexSlots[replicatorDepth - 1])
                try nodeScope.declare("count", .number, slot: countSlots[replicatorDepth - 1])
            }
            for alias in aliases { try nodeScope.declare(alias.name, .number, slot: alias.slot) }
        } catch {
            throw ThrobberError("\(ThrobberError.shownPath(path)): \(error.message)", kind: .badData)
        }
        return nodeScope
    }

    /// One node.
    mutating func node(_ node: JSONNode, field: String, groupDepth: Int, aliases: [(name: String, slot: Int)],
                       replicatorDepth: Int, staticScale: Bool) throws -> any SceneNode {
        nodeCount += 1
        guard nodeCount <= Self.mostNodes else { throw fail(node, "more than \(Self.mostNodes) nodes: a scene file has at most \(Self.mostNodes)") }
        guard case .object(let list) = node.value else { throw fail(node, "\(field) must be an object, not \(node.typeName)") }
        guard let typeMember = list.first(where: { $0.key == "type" }) else { throw fail(node, "\(field) needs \"type\" (one of \(Self.nodeTypes.joined(separator: ", ")))") }
        guard case .string(let type) = typeMember.value.value, let kind = NodeKinds.kind(type) else {
            let shown: String
            if case .string(let s) = typeMember.value.value { shown = s } else { shown = typeMember.value.typeName }
            if Self.laterNodeTypes.contains(shown) {
                throw fail(typeMember.value, "\(field): '\(shown)' nodes are not drawn by this version of throbber-scene/1 yet (known: \(Self.nodeTypes.joined(separator: ", ")))")
            }
            var message = "unknown node type '\(ThrobberError.echoed(shown))' in \(field)"
            if let nearest = nearestName(to: shown, in: Self.nodeTypes) { message += "; did you mean '\(nearest)'?" }
            throw fail(typeMember.value, message + " (known: \(Self.nodeTypes.joined(separator: ", ")))")
        }
        let m = try members(node, "\(field) (\(type))", known: NodeInfo.commonKeys + kind.keys, required: kind.requiredKeys)
        let id = try string(m["id"], "\(field).id") ?? field
        if m["id"] != nil {
            guard !nodeIDs.contains(id) else { throw fail(m["id"]!.value, "node id '\(ThrobberError.echoed(id))' is used twice: ids are unique") }
            nodeIDs.insert(id)
        }
        let nodeScope = try nodeScope(replicatorDepth: replicatorDepth, aliases: aliases)
        let info = NodeInfo(id: id, place: place(node),
                            visible: try m["visible"].map { try source($0.value, field: "\(field).visible", type: .boolean, in: nodeScope) })
        let color = try m["color"].map { try source($0.value, field: "\(field).color", type: .color, in: nodeScope) }
        let fields = NodeFields(node: node, members: m, field: field, info: info, color: color, scope: nodeScope, groupDepth: groupDepth,
                                replicatorDepth: replicatorDepth, aliases: aliases, staticScale: staticScale)
        return try kind.read(fields, in: &self)
    }

    /// A tint's base or step: four numbers, which may leave [0, 1] (the product is clamped).
    mutating func tintSource(_ node: JSONNode, field: String, in scope: ExpressionScope) throws -> SceneSource {
        let items = try array(node, field)
        guard items.count == 4 else { throw fail(node, "\(field) has \(items.count) numbers: give [r, g, b, a]") }
        return .components(try items.enumerated().map { try source($1, field: "\(field)[\($0)]", type: .number, in: scope) })
    }

    /// A group's `transform` or a replicator's `instance` (with `slot`).
    mutating func transform(_ node: JSONNode, field: String, in scope: ExpressionScope, slot: Bool,
                            slotScope: ExpressionScope? = nil) throws -> SceneDefinition.Transform {
        let m = try members(node, field, known: SceneDefinition.Transform.keys + (slot ? ["slot"] : []))
        if let scaleNode = m["scale"]?.value, case .array = scaleNode.value {
            throw fail(scaleNode, "invalid \(field).scale: a \(slot ? "copy's" : "group's") scale is one number, because discs, arcs and waves cannot be stretched; give the box its own scale [sx, sy]")
        }
        return SceneDefinition.Transform(
            translate: try m["translate"].map { try point($0.value, field: "\(field).translate", in: scope) },
            rotate: try m["rotate"].map { try source($0.value, field: "\(field).rotate", type: .number, in: scope) },
            scale: try m["scale"].map { try source($0.value, field: "\(field).scale", type: .number, in: scope) },
            anchor: try m["anchor"].map { try point($0.value, field: "\(field).anchor", in: scope) },
            slot: try m["slot"].map { try source($0.value, field: "\(field).slot", type: .number, in: slotScope ?? scope) })
    }
}
