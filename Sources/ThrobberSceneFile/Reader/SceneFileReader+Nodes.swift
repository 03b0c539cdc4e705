import Throbber

extension SceneFileReader {
    /// The node types a file may use, and those the design names that this version does not draw yet.
    static let nodeTypes = ["disc", "box", "arc", "wave", "polyline", "text", "group", "replicator"]
    static let laterNodeTypes: [String] = []

    /// An array of nodes in paint order.
    mutating func nodes(_ node: JSONNode, field: String, groupDepth: Int, aliases: [(name: String, slot: Int)],
                        replicatorDepth: Int = 0, staticScale: Bool = true) throws -> [SceneDefinition.Node] {
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
                       replicatorDepth: Int, staticScale: Bool) throws -> SceneDefinition.Node {
        nodeCount += 1
        guard nodeCount <= Self.mostNodes else { throw fail(node, "more than \(Self.mostNodes) nodes: a scene file has at most \(Self.mostNodes)") }
        guard case .object(let list) = node.value else { throw fail(node, "\(field) must be an object, not \(node.typeName)") }
        guard let typeMember = list.first(where: { $0.key == "type" }) else { throw fail(node, "\(field) needs \"type\" (one of \(Self.nodeTypes.joined(separator: ", ")))") }
        guard case .string(let type) = typeMember.value.value, Self.nodeTypes.contains(type) else {
            let shown: String
            if case .string(let s) = typeMember.value.value { shown = s } else { shown = typeMember.value.typeName }
            if Self.laterNodeTypes.contains(shown) {
                throw fail(typeMember.value, "\(field): '\(shown)' nodes are not drawn by this version of throbber-scene/1 yet (known: \(Self.nodeTypes.joined(separator: ", ")))")
            }
            var message = "unknown node type '\(ThrobberError.echoed(shown))' in \(field)"
            if let nearest = nearestName(to: shown, in: Self.nodeTypes) { message += "; did you mean '\(nearest)'?" }
            throw fail(typeMember.value, message + " (known: \(Self.nodeTypes.joined(separator: ", ")))")
        }
        let common = ["type", "id", "visible", "note"]
        let known: [String]
        switch type {
        case "disc": known = common + ["center", "radius", "color"]
        case "box": known = common + ["center", "size", "cornerRadius", "rotation", "scale", "color"]
        case "arc": known = common + ["center", "radius", "width", "start", "end", "sweep", "path", "trim", "mask", "cap", "color"]
        case "wave": known = common + ["function", "originX", "wavelength", "amplitude", "phase", "baseline", "bottom", "clip", "color"]
        case "polyline": known = common + ["points", "width", "color"]
        case "text": known = common + ["text", "role", "size", "at", "color"]
        case "group": known = common + ["transform", "opacity", "content"]
        default: known = common + ["count", "instance", "delayFrom", "delay", "tint", "order", "index", "content"]
        }
        let what = "\(field) (\(type))"
        let required: [String]
        switch type {
        case "disc": required = ["center", "radius", "color"]
        case "box": required = ["center", "size", "color"]
        case "arc": required = ["center", "radius", "width", "color"]
        case "wave": required = ["wavelength", "amplitude", "baseline", "color"]
        case "polyline": required = ["points", "width", "color"]
        case "text": required = ["text", "size", "at", "color"]
        case "group": required = ["content"]
        default: required = ["count", "content"]
        }
        let m = try members(node, what, known: known, required: required)
        let id = try string(m["id"], "\(field).id") ?? field
        if m["id"] != nil {
            guard !nodeIDs.contains(id) else { throw fail(m["id"]!.value, "node id '\(ThrobberError.echoed(id))' is used twice: ids are unique") }
            nodeIDs.insert(id)
        }
        let nodeScope = try nodeScope(replicatorDepth: replicatorDepth, aliases: aliases)
        func scalar(_ key: String) throws -> SceneSource? {
            try m[key].map { try source($0.value, field: "\(field).\(key)", type: .number, in: nodeScope) }
        }
        func point(_ key: String) throws -> SceneDefinition.Point? {
            try m[key].map { try self.point($0.value, field: "\(field).\(key)", in: nodeScope) }
        }
        let info = SceneDefinition.NodeInfo(id: id, place: place(node),
                                            visible: try m["visible"].map { try source($0.value, field: "\(field).visible", type: .boolean, in: nodeScope) })
        let color = try m["color"].map { try source($0.value, field: "\(field).color", type: .color, in: nodeScope) }
        switch type {
        case "disc":
            return .disc(info, center: try point("center")!, radius: try scalar("radius")!, color: color!)
        case "box":
            return .box(info, center: try point("center")!, size: try point("size")!, cornerRadius: try scalar("cornerRadius"),
                        rotation: try scalar("rotation"), scale: try point("scale"), color: color!)
        case "arc":
            if let cap = try string(m["cap"], "\(field).cap"), cap != "round" {
                throw fail(m["cap"]!.value, "invalid \(field).cap '\(ThrobberError.echoed(cap))': arcs have round caps only in this version (known: round)")
            }
            let angles: SceneDefinition.ArcAngles
            let given = ["end", "sweep", "trim"].filter { m[$0] != nil }
            guard given.count == 1 else {
                throw fail(node, "\(field) needs exactly one of \"end\", \"sweep\" or \"trim\" (it has \(given.isEmpty ? "none" : given.joined(separator: ", ")))")
            }
            if let trim = m["trim"] {
                guard let pathMember = m["path"] else { throw fail(trim, "\(field).trim needs \"path\": {\"start\", \"turns\"}") }
                guard m["start"] == nil else { throw fail(m["start"]!, "\(field) has a path: its start is path.start") }
                let p = try members(pathMember.value, "\(field).path", known: ["start", "turns"], required: ["turns"])
                let t = try members(trim.value, "\(field).trim", known: ["start", "end", "offset"], required: ["start", "end"])
                angles = .trim(pathStart: try p["start"].map { try source($0.value, field: "\(field).path.start", type: .number, in: nodeScope) }
                                   ?? .expression(SceneExpression(constant: .number(0))),
                               turns: try source(p["turns"]!.value, field: "\(field).path.turns", type: .number, in: nodeScope),
                               start: try source(t["start"]!.value, field: "\(field).trim.start", type: .number, in: nodeScope),
                               end: try source(t["end"]!.value, field: "\(field).trim.end", type: .number, in: nodeScope),
                               offset: try t["offset"].map { try source($0.value, field: "\(field).trim.offset", type: .number, in: nodeScope) })
            } else {
                guard m["path"] == nil else { throw fail(m["path"]!, "\(field).path goes with \"trim\"") }
                let start = try scalar("start") ?? .expression(SceneExpression(constant: .number(0)))
                angles = m["end"] != nil ? .startEnd(start, try scalar("end")!) : .startSweep(start, try scalar("sweep")!)
            }
            var mask: SceneSource?
            if let maskMember = m["mask"] {
                let k = try members(maskMember.value, "\(field).mask", known: ["kind", "rotation"], required: ["kind"])
                let kind = try string(k["kind"], "\(field).mask.kind")!
                guard kind == "svprogresshud-angle" else {
                    throw fail(k["kind"]!.value, "unknown \(field).mask.kind '\(ThrobberError.echoed(kind))' (known: svprogresshud-angle)")
                }
                mask = try k["rotation"].map { try source($0.value, field: "\(field).mask.rotation", type: .number, in: nodeScope) }
                    ?? .expression(SceneExpression(constant: .number(0)))
            }
            return .arc(info, center: try point("center")!, radius: try scalar("radius")!, width: try scalar("width")!,
                        angles: angles, mask: mask, color: color!)
        case "wave":
            let function = try string(m["function"], "\(field).function") ?? "sin"
            guard function == "sin" || function == "cos" else {
                throw fail(m["function"]!.value, "invalid \(field).function '\(ThrobberError.echoed(function))' (known: sin, cos)")
            }
            var clipCenter: SceneDefinition.Point?, clipRadius: SceneSource?
            if let clip = m["clip"] {
                let c = try members(clip.value, "\(field).clip", known: ["center", "radius"], required: ["center", "radius"])
                clipCenter = try self.point(c["center"]!.value, field: "\(field).clip.center", in: nodeScope)
                clipRadius = try source(c["radius"]!.value, field: "\(field).clip.radius", type: .number, in: nodeScope)
                if m["bottom"] != nil { throw fail(m["bottom"]!, "\(field) has a clip: a clipped wave has no bottom") }
            }
            return .wave(info, cosine: function == "cos", originX: try scalar("originX"), wavelength: try scalar("wavelength")!,
                         amplitude: try scalar("amplitude")!, phase: try scalar("phase"), baseline: try scalar("baseline")!,
                         bottom: try scalar("bottom"), clipCenter: clipCenter, clipRadius: clipRadius, color: color!)
        case "polyline":
            let items = try array(m["points"]!.value, "\(field).points")
            guard items.count == 2 || items.count == 3 else {
                throw fail(m["points"]!.value, "\(field).points has \(items.count) points: a polyline has 2 or 3 (the stroke row draws two segments with one round join)")
            }
            let points = try items.enumerated().map { try self.point($1, field: "\(field).points[\($0)]", in: nodeScope) }
            return .polyline(info, points: points, width: try scalar("width")!, color: color!)
        case "text":
            // A frame's glyphs are those laid out before the first frame: the same text at the
            // same size, so nothing that changes a text's size may change per frame.
            guard replicatorDepth == 0 else {
                throw fail(node, "\(field): a text node may not sit in a replicator (its glyphs are laid out once per scene)")
            }
            guard staticScale else {
                throw fail(node, "\(field): a text node may not sit in a group whose scale changes from frame to frame (its glyphs are laid out once per scene)")
            }
            let roleName = try string(m["role"], "\(field).role") ?? "ui"
            guard let role = FontRole(rawValue: roleName) else {
                throw fail(m["role"]!.value, "unknown \(field).role '\(ThrobberError.echoed(roleName))' (known: \(FontRole.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            // Content and size are static: the glyphs laid out before the first frame are every frame's.
            let textNode = m["text"]!.value
            let text: SceneSource
            switch textNode.value {
            case .string(let literal):
                do { try TextRule.lines.check(literal, field: "\(field).text") } catch let error as ThrobberError {
                    throw fail(textNode, error.message)
                }
                text = .expression(SceneExpression(constant: .string(literal)))
            case .object:
                let p = try members(textNode, "\(field).text", known: ["parameter"], required: ["parameter"])
                let name = try string(p["parameter"], "\(field).text.parameter")!
                guard case .value(let type, let slot, _)? = parameterScope.binding(for: name), type == .string || type == .number else {
                    var message = "\(field).text.parameter '\(ThrobberError.echoed(name))' is not a string, choice or number parameter"
                    if let nearest = nearestName(to: name, in: parameterNames) { message += "; did you mean '\(nearest)'?" }
                    throw fail(p["parameter"]!.value, message)
                }
                text = .parameterText(slot: slot)
            default:
                throw fail(textNode, "\(field).text must be the text, or {\"parameter\": NAME}, not \(textNode.typeName)")
            }
            let size = try source(m["size"]!.value, field: "\(field).size", type: .number, in: parameterScope)
            return .text(info, text: text, role: role, size: size, at: try point("at")!, color: color!)
        case "group":
            guard groupDepth < Self.mostGroupDepth else { throw fail(node, "groups nest more than \(Self.mostGroupDepth) deep") }
            let transform = try m["transform"].map { try self.transform($0.value, field: "\(field).transform", in: nodeScope, slot: false) }
            let scaleIsStatic = transform?.scale.map { $0.slotsRead.allSatisfy { $0 < parameterSlots } } ?? true
            return .group(info, transform: transform, opacity: try scalar("opacity"),
                          content: try nodes(m["content"]!.value, field: "\(field).content", groupDepth: groupDepth + 1,
                                             aliases: aliases, replicatorDepth: replicatorDepth, staticScale: staticScale && scaleIsStatic))
        default:
            guard replicatorDepth < Self.mostReplicatorDepth else {
                throw fail(node, "replicators nest more than \(Self.mostReplicatorDepth) deep")
            }
            let copyScope = try self.nodeScope(replicatorDepth: replicatorDepth + 1, aliases: aliases)
            var inner = aliases
            if let index = try string(m["index"], "\(field).index") {
                guard ExpressionScope.isDeclarable(index), scope.binding(for: index) == nil, !Self.reservedNames.contains(index),
                      !aliases.contains(where: { $0.name == index }) else {
                    throw fail(m["index"]!.value, "\(field).index '\(ThrobberError.echoed(index))' is reserved, not a name, or already used")
                }
                inner.append((index, indexSlots[replicatorDepth]))
            }
            let order = try string(m["order"], "\(field).order") ?? "first-below"
            guard order == "first-below" || order == "first-above" else {
                throw fail(m["order"]!.value, "invalid \(field).order '\(ThrobberError.echoed(order))' (known: first-below, first-above)")
            }
            var tintBase: SceneSource?, tintStep: SceneSource?
            if let tint = m["tint"] {
                let t = try members(tint.value, "\(field).tint", known: ["base", "step"])
                tintBase = try t["base"].map { try tintSource($0.value, field: "\(field).tint.base", in: nodeScope) }
                tintStep = try t["step"].map { try tintSource($0.value, field: "\(field).tint.step", in: nodeScope) }
            }
            // The copy's own fields read its index: the slot, and nothing else of the instance.
            let instance = try m["instance"].map { try self.transform($0.value, field: "\(field).instance", in: nodeScope, slot: true, slotScope: copyScope) }
            let replicator = SceneDefinition.Node.replicator(
                info, count: try scalar("count")!, instance: instance, delayFrom: try scalar("delayFrom"),
                delay: try scalar("delay"), tintBase: tintBase, tintStep: tintStep, firstAbove: order == "first-above",
                depth: replicatorDepth,
                content: try nodes(m["content"]!.value, field: "\(field).content", groupDepth: groupDepth + 1,
                                   aliases: inner, replicatorDepth: replicatorDepth + 1))
            try checkWork(of: replicator, count: m["count"]!.value, field: field)
            return replicator
        }
    }

    /// Refuses a replicator whose copies, as the file states them, cost a frame more than its
    /// budget of node evaluations (`FileScene.budget`), before any frame is evaluated: nested
    /// copies multiply (10,000 × 10,000 copies of one disc are 10⁸ nodes a frame), and making
    /// them first would take gigabytes before the budget could stop them.
    ///
    /// - Throws: a data error at the replicator's `count`, with the copies, the nodes of each and the budget.
    func checkWork(of replicator: SceneDefinition.Node, count: JSONNode, field: String) throws {
        guard case let .replicator(_, countSource, _, _, _, _, _, _, _, content) = replicator,
              case .number(let copies)? = SceneDefinition.Node.constant(countSource) else { return }
        let shapes = SceneDefinition.Node.leastShapes(content)
        if copies * Double(shapes) > Double(Limits.shapesPerFrame) {
            throw fail(count, "\(field).count \(formatNumber(copies)): \(formatNumber(copies)) copies of \(shapes) shape\(shapes == 1 ? "" : "s") "
                       + "(nested copies counted) are at least \(formatNumber(copies * Double(shapes))) shapes a frame; a frame may draw at most "
                       + "\(Limits.shapesPerFrame) (each costs \(Limits.pixelsPerShape) px of the \(Limits.pixelsPerFrame) px a frame may cost)")
        }
        let each = SceneDefinition.Node.leastWork(content)
        guard copies * Double(each) + 1 > Double(FileScene.budget) else { return }
        let eachText = each > FileScene.budget ? "more than \(FileScene.budget)" : "\(each)"
        throw fail(count, "\(field).count \(formatNumber(copies)): \(formatNumber(copies)) copies of \(eachText) node\(each == 1 ? "" : "s") "
                   + "(nested copies counted) are at least \(formatNumber(copies * Double(each))) node evaluations a frame; a frame "
                   + "may spend at most \(FileScene.budget) (fewer copies, or fewer nodes in each)")
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
        let m = try members(node, field, known: ["translate", "rotate", "scale", "anchor"] + (slot ? ["slot"] : []))
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
