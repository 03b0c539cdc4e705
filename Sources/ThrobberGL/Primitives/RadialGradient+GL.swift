import Throbber

// The radial gradient's row (Throbber/DrawList/Primitives/RadialGradient.swift): its layer and
// record; its GLSL is Shaders/Primitives/radial-gradient.glsl.

extension RadialGradient: GLPrimitive, GLItem {
    static let shaderFile = "radial-gradient.glsl"
    static let recordCoverage: String? = "radialGradientCoverage(p, head.yz, head.w)"
    static let recordKind = GLPrimitiveRows.recordKind(of: RadialGradient.self)
    static let shape = LayerShape.named("RadialGradient")

    func addLayers(to plan: inout LayerPlan, index: Int) {
        plan.add(bounds, nil, [centerX, centerY, reach, 0], shared: [], color: color, shape: RadialGradient.shape) { v in
            "radialGradientCoverage(p, V(\(v[0])).xy, V(\(v[0])).z)"
        }
    }

    /// head = (kind, cx, cy, reach).
    func addRecords(to stack: inout FrameStack, asInstances: Bool) {
        stack.addRecord(kind: RadialGradient.recordKind, [centerX, centerY, reach], color, bounds, nil)
    }
}
