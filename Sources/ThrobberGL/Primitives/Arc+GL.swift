import Throbber

// The arc's row (Throbber/DrawList/Primitives/Arc.swift): its layer and record; its GLSL is
// Shaders/Primitives/arc.glsl.

extension Arc: GLPrimitive, GLItem {
    static let shaderFile = "arc.glsl"
    static let recordCoverage: String? = "arcCoverage(p, head.yz, head.w, a.x, a.y, a.z, a.w, b.xy)"
    static let recordKind = GLPrimitiveRows.recordKind(of: Arc.self)
    static let fullCircleShape = LayerShape.named("Arc full circle")
    static let maskedShape = LayerShape.named("Arc masked")
    static let shape = LayerShape.named("Arc")

    func addLayers(to plan: inout LayerPlan, index: Int) {
        let centre: [Float] = [centerX, centerY, 0, 0]
        let stroke: [Float] = [radius, lineWidth, start, sweep]
        let masked = !isFullCircle && maskRotation >= 0
        let full = isFullCircle
        plan.add(bounds, annulus, centre + stroke + (masked ? [maskDirectionX, maskDirectionY, 0, 0] : []),
                 shared: [0], color: color, shape: full ? Arc.fullCircleShape : masked ? Arc.maskedShape : Arc.shape) { v in
            // A full circle without caps is a circleStrokeCoverage (arcDistance's first branch).
            if full { return "circleStrokeCoverage(p, V(\(v[0])).xy, V(\(v[1])).x, V(\(v[1])).y)" }
            let stroke = "strokeCoverage(arcDistance(p, V(\(v[0])).xy, V(\(v[1])).x, V(\(v[1])).z, V(\(v[1])).w), V(\(v[1])).y)"
            return masked ? "\(stroke) * ringMask(p - V(\(v[0])).xy, V(\(v[2])).xy)" : stroke
        }
    }

    /// head = (kind, cx, cy, radius), a = (lineWidth, start, sweep, maskRotation), b = (mask direction, 0, 0).
    func addRecords(to stack: inout FrameStack, asInstances: Bool) {
        stack.addRecord(kind: Arc.recordKind, [centerX, centerY, radius, lineWidth, start, sweep, maskRotation, maskDirectionX, maskDirectionY],
                        color, bounds, annulus)
    }
}
