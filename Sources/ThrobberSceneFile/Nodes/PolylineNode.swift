import Throbber

/// `polyline`: 2 or 3 points stroked as one shape with round caps and join (docs/scene-files.md §8).
struct PolylineNode: PrimitiveNode {
    static let type = "polyline"
    static let keys = ["points", "width", "color"]
    static let requiredKeys = ["points", "width", "color"]

    let info: NodeInfo
    let points: [SceneDefinition.Point]
    let width: SceneSource
    let color: SceneSource

    static func read(_ f: NodeFields, in reader: inout SceneFileReader) throws -> PolylineNode {
        let items = try reader.array(f["points"]!.value, "\(f.field).points")
        guard items.count == 2 || items.count == 3 else {
            throw reader.fail(f["points"]!.value, "\(f.field).points has \(items.count) points: a polyline has 2 or 3 (the stroke row draws two segments with one round join)")
        }
        let points = try items.enumerated().map { try reader.point($1, field: "\(f.field).points[\($0)]", in: f.scope) }
        return PolylineNode(info: f.info, points: points, width: try reader.scalar("width", f)!, color: try reader.color(f))
    }

    var slotsRead: Set<Int> {
        points.reduce(into: ThrobberSceneFile.slotsRead([info.visible, width, color])) { $0.formUnion($1.slotsRead) }
    }

    func evaluate(in e: inout FileSceneEvaluator) throws -> (any ScenePrimitive)? {
        guard try e.visible(info) else { return nil }
        var xy: [Double] = []
        for (k, point) in points.enumerated() {
            let (x, y) = try e.point(point, "points[\(k)]", info.place)
            xy += [x, y]
        }
        return Shape(points: xy, width: try e.length(width, "width", info.place), color: try e.color(color, "color", info.place))
    }

    /// The stroke in points: x0, y0, x1, y1[, x2, y2].
    struct Shape: ScenePrimitive, Equatable {
        var points: [Double]
        var width: Double
        var color: RGBA

        func placed(at p: Placement, by evaluator: FileSceneEvaluator, place: String) throws -> Shape {
            var placedPoints: [Double] = []
            for k in stride(from: 0, to: points.count, by: 2) {
                let q = p.transform.apply(points[k], points[k + 1])
                placedPoints += [q.x, q.y]
            }
            return Shape(points: placedPoints, width: p.transform.scale * width, color: p.painted(color))
        }

        func lower(_ placed: PlacedPrimitive, into lowering: inout Lowering) {
            let s = lowering.scale
            let segments = stride(from: 0, to: points.count - 2, by: 2).map {
                (x0: points[$0] * s, y0: points[$0 + 1] * s, x1: points[$0 + 2] * s, y1: points[$0 + 3] * s)
            }
            lowering.append(DrawItem(ItemID(placed.id), Strokes(segments: segments, lineWidth: width * s, color: color,
                                                                width: lowering.width, height: lowering.height)))
        }
    }
}
