import Throbber

// The disc's row (Throbber/DrawList/Primitives/Disc.swift): its layer and record; its GLSL is
// Shaders/Primitives/disc.glsl.

extension Disc: GLPrimitive, GLItem {
    static let shaderFile = "disc.glsl"
    static let recordCoverage: String? = "discCoverage(p, head.yzw)"
    static let recordKind = GLPrimitiveRows.recordKind(of: Disc.self)
    static let shape = LayerShape.named("Disc")

    func addLayers(to plan: inout LayerPlan, index: Int) {
        // The centre and the radius apart, as a wave's clip has them, so that both read one place
        // when they are equal.
        plan.add(bounds, annulus, [centerX, centerY, 0, 0, radius, 0, 0, 0], shared: [0, 1], color: color, shape: Disc.shape) { v in
            "discCoverage(p, vec3(V(\(v[0])).xy, V(\(v[1])).x))"
        }
    }

    /// head = (kind, cx, cy, r).
    func addRecords(to stack: inout FrameStack, asInstances: Bool) {
        stack.addRecord(kind: Disc.recordKind, [centerX, centerY, radius], color, bounds, annulus)
    }
}
