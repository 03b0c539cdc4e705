import Foundation
import Throbber

/// `arc`: a round-capped arc, or a closed circle when its sweep reaches a turn; its angles from
/// start and end, start and sweep, or a trimmed path; optionally SVProgressHUD's angle mask
/// (docs/scene-files.md §8).
struct ArcNode: PrimitiveNode {
    static let type = "arc"
    static let keys = ["center", "radius", "width", "start", "end", "sweep", "path", "trim", "mask", "cap", "color"]
    static let requiredKeys = ["center", "radius", "width", "color"]
    static let objectKeys = ["path": ObjectKeys(keys: ["start", "turns"], required: ["turns"]),
                             "trim": ObjectKeys(keys: ["start", "end", "offset"], required: ["start", "end"]),
                             "mask": ObjectKeys(keys: ["kind", "rotation"], required: ["kind"])]

    /// Which angles an arc gives.
    enum Angles: Sendable {
        case startEnd(SceneSource, SceneSource)
        case startSweep(SceneSource, SceneSource)
        case trim(pathStart: SceneSource, turns: SceneSource, start: SceneSource, end: SceneSource, offset: SceneSource?)
    }

    let info: NodeInfo
    let center: SceneDefinition.Point
    let radius: SceneSource
    let width: SceneSource
    let angles: Angles
    let mask: SceneSource?
    let color: SceneSource

    static func read(_ f: NodeFields, in reader: inout SceneFileReader) throws -> ArcNode {
        let field = f.field
        if let cap = try reader.string(f["cap"], "\(field).cap"), cap != "round" {
            throw reader.fail(f["cap"]!.value, "invalid \(field).cap '\(ThrobberError.echoed(cap))': arcs have round caps only in this version (known: round)")
        }
        let angles: Angles
        let given = ["end", "sweep", "trim"].filter { f[$0] != nil }
        guard given.count == 1 else {
            throw reader.fail(f.node, "\(field) needs exactly one of \"end\", \"sweep\" or \"trim\" (it has \(given.isEmpty ? "none" : given.joined(separator: ", ")))")
        }
        if let trim = f["trim"] {
            guard f["path"] != nil else { throw reader.fail(trim, "\(field).trim needs \"path\": {\"start\", \"turns\"}") }
            guard f["start"] == nil else { throw reader.fail(f["start"]!, "\(field) has a path: its start is path.start") }
            let p = try reader.members("path", of: ArcNode.self, f)
            let t = try reader.members("trim", of: ArcNode.self, f)
            angles = .trim(pathStart: try p["start"].map { try reader.source($0.value, field: "\(field).path.start", type: .number, in: f.scope) }
                               ?? .expression(SceneExpression(constant: .number(0))),
                           turns: try reader.source(p["turns"]!.value, field: "\(field).path.turns", type: .number, in: f.scope),
                           start: try reader.source(t["start"]!.value, field: "\(field).trim.start", type: .number, in: f.scope),
                           end: try reader.source(t["end"]!.value, field: "\(field).trim.end", type: .number, in: f.scope),
                           offset: try t["offset"].map { try reader.source($0.value, field: "\(field).trim.offset", type: .number, in: f.scope) })
        } else {
            guard f["path"] == nil else { throw reader.fail(f["path"]!, "\(field).path goes with \"trim\"") }
            let start = try reader.scalar("start", f) ?? .expression(SceneExpression(constant: .number(0)))
            angles = f["end"] != nil ? .startEnd(start, try reader.scalar("end", f)!) : .startSweep(start, try reader.scalar("sweep", f)!)
        }
        var mask: SceneSource?
        if f["mask"] != nil {
            let k = try reader.members("mask", of: ArcNode.self, f)
            let kind = try reader.string(k["kind"], "\(field).mask.kind")!
            guard kind == "svprogresshud-angle" else {
                throw reader.fail(k["kind"]!.value, "unknown \(field).mask.kind '\(ThrobberError.echoed(kind))' (known: svprogresshud-angle)")
            }
            mask = try k["rotation"].map { try reader.source($0.value, field: "\(field).mask.rotation", type: .number, in: f.scope) }
                ?? .expression(SceneExpression(constant: .number(0)))
        }
        return ArcNode(info: f.info, center: try reader.point("center", f)!, radius: try reader.scalar("radius", f)!,
                       width: try reader.scalar("width", f)!, angles: angles, mask: mask, color: try reader.color(f))
    }

    var slotsRead: Set<Int> {
        var slots = center.slotsRead.union(ThrobberSceneFile.slotsRead([info.visible, radius, width, mask, color]))
        switch angles {
        case let .startEnd(a, b), let .startSweep(a, b): slots.formUnion(ThrobberSceneFile.slotsRead([a, b]))
        case let .trim(p, n, a, b, o): slots.formUnion(ThrobberSceneFile.slotsRead([p, n, a, b, o]))
        }
        return slots
    }

    /// An arc's sweep may be ≤ 0, when it draws nothing: it counts as no shape.
    func leastShapes(limit: Int) -> Int { 0 }

    func evaluate(in e: inout FileSceneEvaluator) throws -> (any ScenePrimitive)? {
        guard try e.visible(info) else { return nil }
        let (cx, cy) = try e.point(center, "center", info.place)
        let degree = Double.pi / 180
        var start: Double, sweep: Double
        switch angles {
        case let .startEnd(s, end):
            start = try e.number(s, "start", info.place)
            sweep = try e.number(end, "end", info.place) - start
        case let .startSweep(s, w):
            start = try e.number(s, "start", info.place)
            sweep = try e.number(w, "sweep", info.place)
        case let .trim(pathStart, turns, s, end, offset):
            // CAShapeLayer: strokeStart/End clamped to [0, 1], the offset free (docs/scene-files.md §8).
            let o = try e.number(offset, "trim.offset", info.place)
            let from = min(max(try e.number(s, "trim.start", info.place), 0), 1) + o
            let to = min(max(try e.number(end, "trim.end", info.place), 0), 1) + o
            let n = try e.number(turns, "path.turns", info.place)
            let p0 = try e.number(pathStart, "path.start", info.place)
            start = p0 + 360 * n * from
            sweep = 360 * n * (to - from)
        }
        guard sweep > 0 else { return nil }
        return Shape(centerX: cx, centerY: cy, radius: try e.length(radius, "radius", info.place), width: try e.length(width, "width", info.place),
                     start: start * degree, sweep: sweep * degree,
                     maskRotation: try mask.map { try e.number($0, "mask.rotation", info.place) * degree },
                     color: try e.color(color, "color", info.place))
    }

    /// A round-capped arc in points; `maskRotation` is SVProgressHUD's angle mask when given.
    struct Shape: ScenePrimitive, Equatable {
        var centerX: Double, centerY: Double, radius: Double, width: Double
        var start: Double, sweep: Double
        var maskRotation: Double?
        var color: RGBA

        func placed(at p: Placement, by evaluator: FileSceneEvaluator, place: String) throws -> Shape {
            let T = p.transform
            let c = T.apply(centerX, centerY)
            return Shape(centerX: c.x, centerY: c.y, radius: T.scale * radius, width: T.scale * width, start: start + T.rotation, sweep: sweep,
                         maskRotation: maskRotation.map { $0 + T.rotation }, color: p.painted(color))
        }

        func lower(_ placed: PlacedPrimitive, into lowering: inout Lowering) {
            let s = lowering.scale
            lowering.append(DrawItem(ItemID(placed.id), Arc(centerX: centerX * s, centerY: centerY * s, radius: radius * s, lineWidth: width * s,
                                                            start: start, sweep: sweep, maskRotation: maskRotation, color: color,
                                                            width: lowering.width, height: lowering.height)))
        }
    }
}
