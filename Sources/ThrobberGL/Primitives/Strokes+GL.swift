import Throbber

// The strokes' row (Throbber/DrawList/Primitives/Strokes.swift): their layer and record; their
// GLSL is Shaders/Primitives/strokes.glsl.

extension Strokes: GLPrimitive, GLItem {
    static let shaderFile = "strokes.glsl"
    static let recordCoverage: String? = "strokesCoverage(p, vec4(head.yzw, a.x), vec4(a.yzw, b.x), b.z, b.y)"
    static let recordKind = GLPrimitiveRows.recordKind(of: Strokes.self)
    static let shape = LayerShape.named("Strokes")
    static let singleShape = LayerShape.named("Strokes single")

    func addLayers(to plan: inout LayerPlan, index: Int) {
        let one: [Float] = [first.x0, first.y0, first.x1, first.y1]
        let two: [Float] = [second.x0, second.y0, second.x1, second.y1]
        let single = segmentCount == 1
        // One segment reads one vec4 and passes it twice; strokesCoverage reads the second only
        // when there are two.
        plan.add(bounds, nil, one + (single ? [] : two) + [lineWidth, 0, 0, 0], shared: [], color: color,
                 shape: single ? Strokes.singleShape : Strokes.shape) { v in
            single ? "strokesCoverage(p, V(\(v[0])), V(\(v[0])), 1.0, V(\(v[1])).x)"
                : "strokesCoverage(p, V(\(v[0])), V(\(v[1])), 2.0, V(\(v[2])).x)"
        }
    }

    /// head = (kind, x0, y0, x1) and a.x = y1: the first segment; a.yzw, b.x: the second;
    /// b = (…, lineWidth, segmentCount, 0).
    func addRecords(to stack: inout FrameStack, asInstances: Bool) {
        stack.addRecord(kind: Strokes.recordKind, [first.x0, first.y0, first.x1, first.y1, second.x0, second.y0, second.x1, second.y1,
                                                   lineWidth, Float(segmentCount)], color, bounds, nil)
    }
}
