import Throbber

/// `disc`: a filled circle (docs/scene-files.md §8).
struct DiscNode: PrimitiveNode {
    static let type = "disc"
    static let keys = ["center", "radius", "color"]
    static let requiredKeys = ["center", "radius", "color"]

    let info: NodeInfo
    let center: SceneDefinition.Point
    let radius: SceneSource
    let color: SceneSource

    static func read(_ fields: NodeFields, in reader: inout SceneFileReader) throws -> DiscNode {
        DiscNode(info: fields.info, center: try reader.point("center", fields)!, radius: try reader.scalar("radius", fields)!,
                 color: try reader.color(fields))
    }

    var slotsRead: Set<Int> { center.slotsRead.union(ThrobberSceneFile.slotsRead([info.visible, radius, color])) }

    func evaluate(in e: inout FileSceneEvaluator) throws -> (any ScenePrimitive)? {
        guard try e.visible(info) else { return nil }
        let (cx, cy) = try e.point(center, "center", info.place)
        return Shape(centerX: cx, centerY: cy, radius: try e.length(radius, "radius", info.place), color: try e.color(color, "color", info.place))
    }

    /// A filled circle in points.
    struct Shape: ScenePrimitive, Equatable {
        var centerX: Double, centerY: Double, radius: Double
        var color: RGBA

        func placed(at p: Placement, by evaluator: FileSceneEvaluator, place: String) throws -> Shape {
            let c = p.transform.apply(centerX, centerY)
            return Shape(centerX: c.x, centerY: c.y, radius: p.transform.scale * radius, color: p.painted(color))
        }

        /// A replicator's discs are drawn as boxes whose corner radius is their half side (the
        /// same distance, |p − c| − r), so copies share one instanced batch.
        func lower(_ placed: PlacedPrimitive, into lowering: inout Lowering) {
            if placed.replicated {
                lowering.appendQuad(id: placed.id, centerX: centerX, centerY: centerY, halfX: radius, halfY: radius, rotation: 0,
                                    cornerRadius: radius, color: color)
                return
            }
            let s = lowering.scale
            lowering.append(DrawItem(ItemID(placed.id), Disc(centerX: centerX * s, centerY: centerY * s, radius: radius * s, color: color,
                                                             width: lowering.width, height: lowering.height)))
        }
    }
}
