import Throbber

/// A replicator's copies of one box, each turned about a centre by a whole number of steps of a
/// turn (docs/scene-files.md §9.3): the box at angle 0 as an offset from the centre, half
/// extents, rotation and corner; the angle of step 0; the steps in a turn; each copy's step and
/// colour. Lowered to the ring row (`BoxRing`), as the built-in tick rings and spinner leaves are.
struct BoxCopiesRing: ScenePrimitive, Equatable {
    var centerX: Double, centerY: Double
    var offsetX: Double, offsetY: Double
    var halfX: Double, halfY: Double
    var boxRotation: Double
    var cornerRadius: Double
    var start: Double
    var steps: Int
    var slots: [Int]
    var colors: [RGBA]

    func placed(at p: Placement, by evaluator: FileSceneEvaluator, place: String) throws -> BoxCopiesRing {
        let T = p.transform
        let c = T.apply(centerX, centerY)
        return BoxCopiesRing(centerX: c.x, centerY: c.y, offsetX: T.scale * offsetX, offsetY: T.scale * offsetY, halfX: T.scale * halfX,
                             halfY: T.scale * halfY, boxRotation: boxRotation, cornerRadius: T.scale * cornerRadius, start: start + T.rotation,
                             steps: steps, slots: slots, colors: colors.map { p.painted($0) })
    }

    func lower(_ placed: PlacedPrimitive, into lowering: inout Lowering) {
        let s = lowering.scale
        // One colour for the ring when every slot has it, as the built-ins give it.
        let shared = colors.allSatisfy { $0 == colors[0] } ? [colors[0]] : colors
        lowering.append(DrawItem(ItemID(placed.id), BoxRing(centerX: centerX * s, centerY: centerY * s, offsetX: offsetX * s, offsetY: offsetY * s,
                                                            halfX: halfX * s, halfY: halfY * s, boxRotation: boxRotation, cornerRadius: cornerRadius * s,
                                                            start: start, steps: steps, slots: slots, colors: shared,
                                                            width: lowering.width, height: lowering.height)))
    }
}
