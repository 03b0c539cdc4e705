import Throbber

// The glyphs' row (Throbber/DrawList/Primitives/Glyphs.swift): one instanced quad per glyph,
// drawn by the boxes pass exactly over its bitmap, each pixel reading the atlas with texelFetch
// (BoxesPass binds it); its GLSL is Shaders/Primitives/glyphs.glsl.

extension Glyphs: GLPrimitive, GLItem {
    static let shaderFile = "glyphs.glsl"
    static let recordCoverage: String? = "glyphCoverage(p, vec2(head.w, b.x))"
    static let recordKind = GLPrimitiveRows.recordKind(of: Glyphs.self)

    func addLayers(to plan: inout LayerPlan, index: Int) { plan.leaveToBoxesPass(index) }

    /// One record per glyph: head = (kind, cx, cy, dx), a = (halfX, halfY, 1, 0), b = (dy, …),
    /// with (dx, dy) the atlas texel minus the canvas pixel. The instance's quad is the box
    /// grown by BOX_QUAD_GROWTH, so the half extents are the bitmap's less that growth: the quad
    /// covers the bitmap exactly.
    func addRecords(to stack: inout FrameStack, asInstances: Bool) {
        let growth = Antialiasing.boxQuadGrowth
        for (q, bounds) in zip(quads, quadBounds) {
            let halfX = Float(q.width) / 2, halfY = Float(q.rows) / 2
            stack.addRecord(kind: Glyphs.recordKind,
                            [Float(q.x) + halfX, Float(q.y) + halfY, Float(q.atlasX - q.x), halfX - growth, halfY - growth, 1, 0,
                             Float(q.atlasY - q.y)],
                            color, bounds, nil, isBox: false, instance: asInstances)
        }
    }
}
