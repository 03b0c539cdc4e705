import Foundation
import Throbber

/// `box`: a rounded box, optionally turned and scaled (docs/scene-files.md §8).
struct BoxNode: PrimitiveNode {
    static let type = "box"
    static let keys = ["center", "size", "cornerRadius", "rotation", "scale", "color"]
    static let requiredKeys = ["center", "size", "color"]

    let info: NodeInfo
    let center: SceneDefinition.Point
    let size: SceneDefinition.Point
    let cornerRadius: SceneSource?
    let rotation: SceneSource?
    let scale: SceneDefinition.Point?
    let color: SceneSource

    static func read(_ fields: NodeFields, in reader: inout SceneFileReader) throws -> BoxNode {
        BoxNode(info: fields.info, center: try reader.point("center", fields)!, size: try reader.point("size", fields)!,
                cornerRadius: try reader.scalar("cornerRadius", fields), rotation: try reader.scalar("rotation", fields),
                scale: try reader.point("scale", fields), color: try reader.color(fields))
    }

    var slotsRead: Set<Int> {
        center.slotsRead.union(size.slotsRead).union(scale?.slotsRead ?? [])
            .union(ThrobberSceneFile.slotsRead([info.visible, cornerRadius, rotation, color]))
    }

    func evaluate(in e: inout FileSceneEvaluator) throws -> (any ScenePrimitive)? {
        try evaluateBox(in: &e)
    }

    /// The box in its own coordinates, nil when invisible.
    func evaluateBox(in e: inout FileSceneEvaluator) throws -> Shape? {
        guard try e.visible(info) else { return nil }
        let (cx, cy) = try e.point(center, "center", info.place)
        let (w, h) = try e.point(size, "size", info.place)
        guard w >= 0, h >= 0 else { throw e.failure(info.place, "size", "[\(formatNumber(w)), \(formatNumber(h))]: a size is at least 0") }
        let (sx, sy) = scale == nil ? (1.0, 1.0) : try e.point(scale, "scale", info.place)
        let corner = try e.length(cornerRadius, "cornerRadius", info.place)
        guard corner <= min(w, h) / 2 + 1e-12 else {
            throw e.failure(info.place, "cornerRadius", "\(formatNumber(corner)) is more than half the shorter side (\(formatNumber(min(w, h))))")
        }
        let degrees = try e.number(rotation, "rotation", info.place)
        return Shape(centerX: cx, centerY: cy, halfX: w / 2 * abs(sx), halfY: h / 2 * abs(sy), rotation: degrees * Double.pi / 180,
                     cornerRadius: corner * min(abs(sx), abs(sy)), color: try e.color(color, "color", info.place))
    }

    /// A rounded box in points: one instance of a quad batch.
    struct Shape: ScenePrimitive, Equatable {
        var centerX: Double, centerY: Double, halfX: Double, halfY: Double
        /// Clockwise from +x, radians.
        var rotation: Double
        var cornerRadius: Double
        var color: RGBA

        func placed(at p: Placement, by evaluator: FileSceneEvaluator, place: String) throws -> Shape {
            let T = p.transform
            let c = T.apply(centerX, centerY)
            return Shape(centerX: c.x, centerY: c.y, halfX: T.scale * halfX, halfY: T.scale * halfY, rotation: rotation + T.rotation,
                         cornerRadius: T.scale * cornerRadius, color: p.painted(color))
        }

        func lower(_ placed: PlacedPrimitive, into lowering: inout Lowering) {
            lowering.appendQuad(id: placed.id, centerX: centerX, centerY: centerY, halfX: halfX, halfY: halfY, rotation: rotation,
                                cornerRadius: cornerRadius, color: color)
        }
    }
}
