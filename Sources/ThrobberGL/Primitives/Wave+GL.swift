import Throbber

// The wave's row (Throbber/DrawList/Primitives/Wave.swift): its layer and record; its GLSL is
// Shaders/Primitives/wave.glsl.

extension Wave: GLPrimitive, GLItem {
    static let shaderFile = "wave.glsl"
    static let recordCoverage: String? = "waveCoverage(p, head.y, head.z, head.w, a.x, a.y, a.z, vec3(b.xy, a.w))"
    static let recordKind = GLPrimitiveRows.recordKind(of: Wave.self)
    static let clippedShape = LayerShape.named("Wave clipped")
    static let shape = LayerShape.named("Wave")

    func addLayers(to plan: inout LayerPlan, index: Int) {
        let curve = [originX, amplitude, k, phase, baseline, bottom, 0, 0]
        let clipped = clipRadius >= 0
        // The clip's centre and radius may be shared: the wave ball's disc and both waves read one circle.
        plan.add(bounds, annulus, curve + (clipped ? [clipCenterX, clipCenterY, 0, 0, clipRadius, 0, 0, 0] : []),
                 shared: clipped ? [2, 3] : [], color: color, shape: clipped ? Wave.clippedShape : Wave.shape) { v in
            let band = "waveBandCoverage(p, V(\(v[0])).x, V(\(v[0])).y, V(\(v[0])).z, V(\(v[0])).w, V(\(v[1])).x, V(\(v[1])).y)"
            return clipped ? "\(band) * fillCoverage(circleDistance(p, V(\(v[2])).xy, V(\(v[3])).x))" : band
        }
    }

    /// head = (kind, originX, amplitude, k), a = (phase, baseline, bottom, clipRadius), b = (clipX, clipY, 0, 0).
    func addRecords(to stack: inout FrameStack, asInstances: Bool) {
        stack.addRecord(kind: Wave.recordKind, [originX, amplitude, k, phase, baseline, bottom, clipRadius, clipCenterX, clipCenterY],
                        color, bounds, annulus)
    }
}
