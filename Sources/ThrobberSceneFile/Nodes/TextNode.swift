import Throbber

/// `text`: lines in one role and size, their block centred on `at` (docs/scene-files.md §8).
/// Its content and size are static (parameters only), so a frame's glyphs are the ones laid out
/// before the first frame; its place and colour may move.
struct TextNode: PrimitiveNode {
    static let type = "text"
    static let keys = ["text", "role", "size", "at", "color"]
    static let requiredKeys = ["text", "size", "at", "color"]
    /// `text` is the text itself, or this object.
    static let objectKeys = ["text": ObjectKeys(keys: ["parameter"], required: ["parameter"])]

    let info: NodeInfo
    let text: SceneSource
    let role: FontRole
    let size: SceneSource
    let at: SceneDefinition.Point
    let color: SceneSource

    static func read(_ f: NodeFields, in reader: inout SceneFileReader) throws -> TextNode {
        let field = f.field
        // A frame's glyphs are those laid out before the first frame: the same text at the
        // same size, so nothing that changes a text's size may change per frame.
        guard f.replicatorDepth == 0 else {
            throw reader.fail(f.node, "\(field): a text node may not sit in a replicator (its glyphs are laid out once per scene)")
        }
        guard f.staticScale else {
            throw reader.fail(f.node, "\(field): a text node may not sit in a group whose scale changes from frame to frame (its glyphs are laid out once per scene)")
        }
        let roleName = try reader.string(f["role"], "\(field).role") ?? "ui"
        guard let role = FontRole(rawValue: roleName) else {
            throw reader.fail(f["role"]!.value, "unknown \(field).role '\(ThrobberError.echoed(roleName))' (known: \(FontRole.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        // Content and size are static: the glyphs laid out before the first frame are every frame's.
        let textNode = f["text"]!.value
        let text: SceneSource
        switch textNode.value {
        case .string(let literal):
            do { try TextRule.lines.check(literal, field: "\(field).text") } catch let error as ThrobberError {
                throw reader.fail(textNode, error.message)
            }
            text = .expression(SceneExpression(constant: .string(literal)))
        case .object:
            let p = try reader.members("text", of: TextNode.self, f)
            let name = try reader.string(p["parameter"], "\(field).text.parameter")!
            guard case .value(let type, let slot, _)? = reader.parameterScope.binding(for: name), type == .string || type == .number else {
                var message = "\(field).text.parameter '\(ThrobberError.echoed(name))' is not a string, choice or number parameter"
                if let nearest = nearestName(to: name, in: reader.parameterNames) { message += "; did you mean '\(nearest)'?" }
                throw reader.fail(p["parameter"]!.value, message)
            }
            text = .parameterText(slot: slot)
        default:
            throw reader.fail(textNode, "\(field).text must be the text, or {\"parameter\": NAME}, not \(textNode.typeName)")
        }
        let size = try reader.source(f["size"]!.value, field: "\(field).size", type: .number, in: reader.parameterScope)
        return TextNode(info: f.info, text: text, role: role, size: size, at: try reader.point("at", f)!, color: try reader.color(f))
    }

    var slotsRead: Set<Int> { at.slotsRead.union(ThrobberSceneFile.slotsRead([info.visible, text, size, color])) }

    /// Text is not a shape the frame's budget counts (its glyphs are laid out once).
    func leastShapes(limit: Int) -> Int { 0 }

    func evaluate(in e: inout FileSceneEvaluator) throws -> (any ScenePrimitive)? {
        guard try e.visible(info) else { return nil }
        guard case .string(let content) = try e.evaluate(text, field: "text", place: info.place) else { return nil }
        let points = try e.length(size, "size", info.place)
        guard points > 0, points <= Limits.textSize else {
            throw e.failure(info.place, "size", "= \(formatNumber(points)): a text size is > 0 and ≤ \(formatNumber(Limits.textSize)) pt")
        }
        let (x, y) = try e.point(at, "at", info.place)
        return Shape(content: content, role: role, size: points, centerX: x, centerY: y, color: try e.color(color, "color", info.place))
    }

    /// Text in one role and size, its block of lines centred on (centerX, centerY): painted from
    /// the glyphs the text module laid out for the frame.
    struct Shape: ScenePrimitive, Equatable {
        var content: String
        var role: FontRole
        var size: Double
        var centerX: Double, centerY: Double
        var color: RGBA

        func placed(at p: Placement, by evaluator: FileSceneEvaluator, place: String) throws -> Shape {
            let T = p.transform
            try evaluator.requireUpright(T, place, "text", "text may not rotate")
            let c = T.apply(centerX, centerY)
            return Shape(content: content, role: role, size: T.scale * size, centerX: c.x, centerY: c.y, color: p.painted(color))
        }

        /// The glyph row of the text laid out for the frame; nothing when none was (a frame
        /// measured without its text).
        func lower(_ placed: PlacedPrimitive, into lowering: inout Lowering) {
            lowering.flush()
            if let item = lowering.text?.item(ItemID(placed.id), color: color, width: lowering.width, height: lowering.height) {
                lowering.append(item)
            }
        }
    }
}
