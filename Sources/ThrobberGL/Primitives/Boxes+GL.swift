import Foundation
import Throbber

// The boxes' row (Throbber/DrawList/Primitives/Boxes.swift): boxes as GL draws them — a few as
// layers of their own, more by the boxes pass — and their records; their GLSL is
// Shaders/Primitives/boxes.glsl. A ring's boxes are drawn the same way when its own layer cannot
// draw them (BoxRing+GL.swift).

extension Boxes: GLPrimitive {
    static let shaderFile = "boxes.glsl"
    static let recordCoverage: String? = "boxCoverage(p, head.yz, a.xy, a.zw, head.w)"
    static let recordKind = GLPrimitiveRows.recordKind(of: Boxes.self)
    static let singleBoxShape = LayerShape.named("Boxes single")
    /// The most boxes drawn as single layers; more go to the boxes pass.
    static let maximumSingleBoxes = 4

    func prepareGL() -> any GLItem { BoxBatch(boxes: boxes, boxBounds: boxBounds, ring: nil) }
}

/// Boxes as GL draws them: each with its bounds, and for a ring the ring that placed them.
struct BoxBatch: GLItem {
    let boxes: [QuadInstance]
    let boxBounds: [PixelRect]
    /// The union of the boxes' bounds.
    let bounds: PixelRect
    /// The ring the boxes are, when they are one (its layer may draw them all at once).
    let ring: BoxRing?

    init(boxes: [QuadInstance], boxBounds: [PixelRect], ring: BoxRing?) {
        self.boxes = boxes
        self.boxBounds = boxBounds
        bounds = PixelRect.union(boxBounds)
        self.ring = ring
    }

    func addLayers(to plan: inout LayerPlan, index: Int) {
        if let ring, addRing(ring, to: &plan) { return }
        guard boxes.count <= Boxes.maximumSingleBoxes else { return plan.leaveToBoxesPass(index) }
        for (q, rect) in zip(boxes, boxBounds) where !rect.isEmpty {
            // cos θ and sin θ in single precision, as the CPU renderer computes them.
            plan.add(rect, nil, [q.centerX, q.centerY, q.cornerRadius, 0, q.halfX, q.halfY, cos(q.rotation), sin(q.rotation)],
                     shared: [], color: q.color, shape: Boxes.singleBoxShape) { v in
                "boxCoverage(p, V(\(v[0])).xy, V(\(v[1])).xy, V(\(v[1])).zw, V(\(v[0])).z)"
            }
        }
    }

    /// One record per box: head = (kind, cx, cy, cornerRadius), a = (halfX, halfY, cos θ, sin θ).
    func addRecords(to stack: inout FrameStack, asInstances: Bool) {
        for (q, bounds) in zip(boxes, boxBounds) {
            // cos θ and sin θ in single precision, as the CPU renderer computes them.
            stack.addRecord(kind: Boxes.recordKind, [q.centerX, q.centerY, q.cornerRadius, q.halfX, q.halfY, cos(q.rotation), sin(q.rotation)],
                            q.color, bounds, nil, isBox: true, instance: asInstances)
        }
    }
}
