import Foundation
import Throbber

// The boxes' row (Throbber/DrawList/Primitives/Boxes.swift): a rounded box's coverage, twin of
// Shaders/Primitives/boxes.glsl, and how the CPU renderer paints boxes one by one — for `Boxes`
// and for the boxes a `BoxRing` places (BoxRing+CPU.swift).

/// SPEC §0 instanced rounded box (a QuadInstance): the pixel in the box's own frame is
/// q = R(−θ)·(p − c), with the axis (cos θ, sin θ) computed once per box.
@inline(__always) func boxCoverage(_ px: Float, _ py: Float, _ cx: Float, _ cy: Float, _ halfX: Float, _ halfY: Float,
                                   _ axisX: Float, _ axisY: Float, _ corner: Float) -> Float {
    let dx = px - cx, dy = py - cy
    let qx = dx * axisX + dy * axisY
    let qy = -dx * axisY + dy * axisX
    return fillCoverage(roundedBoxDistance(qx, qy, halfX, halfY, corner))
}

extension Boxes: CPUPrimitive {
    func prepare(shortcuts: Bool, resources: DrawResources) -> any CPUItem { PreparedBoxes(boxes, bounds: boxBounds) }
}

/// Boxes as the CPU renderer paints them: each with its bounds and its axis (cos θ, sin θ in
/// single precision), computed once — painting them needs both for every box in every band.
final class PreparedBoxes: CPUItem {
    let boxes: [QuadInstance]
    let boxBounds: [PixelRect]
    let axes: [SIMD2<Float>]
    /// The union of the boxes' bounds.
    let bounds: PixelRect

    init(_ boxes: [QuadInstance], bounds: [PixelRect]) {
        self.boxes = boxes
        boxBounds = bounds
        axes = boxes.map { SIMD2(cos($0.rotation), sin($0.rotation)) }
        self.bounds = PixelRect.union(bounds)
    }

    func reaches(rows: Range<Int>) -> Bool {
        bounds.reaches(rows: rows) && boxBounds.contains { $0.reaches(rows: rows) }
    }

    func paint(_ band: Band) {
        guard bounds.reaches(rows: band.y0..<band.y1) else { return }
        for i in boxes.indices where boxBounds[i].reaches(rows: band.y0..<band.y1) {
            let q = boxes[i], rect = boxBounds[i]
            let cosR = axes[i].x, sinR = axes[i].y
            let coverage = BoxCoverage(box: q, cos: cosR, sin: sinR)
            // A tilted box covers a slanted strip of its bounding square: visit only the
            // columns of each row inside the box grown by the anti-aliased edge.
            for y in max(rect.y0, band.y0)..<min(rect.y1, band.y1) {
                let py = Float(y) + 0.5
                let columns = q.rowColumns(py, cos: cosR, sin: sinR).clamped(to: rect.x0..<rect.x1)
                // An opaque box writes its certain interior as a run, without distances.
                let full = q.color.a == 1 ? q.certainlyCovered(py, cos: cosR, sin: sinR) : nil
                if !columns.isEmpty { band.run(y, py, columns, .empty, full, q.color, coverage) }
            }
        }
    }

    /// Every box, over its own bounds, gets `boxCoverage` (boxes.frag's records).
    func paintReference(_ band: Band) {
        for i in boxes.indices where boxBounds[i].reaches(rows: band.y0..<band.y1) {
            let q = boxes[i], rect = boxBounds[i]
            let axisX = axes[i].x, axisY = axes[i].y
            band.shade(rect, nil, q.color) { _, px, py, _ in
                boxCoverage(px, py, q.centerX, q.centerY, q.halfX, q.halfY, axisX, axisY, q.cornerRadius)
            }
        }
    }

    /// The boxes of each that reach `rows`, in order, are equal one for one.
    func paintsTheSame(rows: Range<Int>, as other: any CPUItem) -> Bool {
        guard let other = other as? PreparedBoxes else { return false }
        var a = bounds.reaches(rows: rows) ? 0 : boxes.count, b = other.bounds.reaches(rows: rows) ? 0 : other.boxes.count
        while true {
            while a < boxes.count && !boxBounds[a].reaches(rows: rows) { a += 1 }
            while b < other.boxes.count && !other.boxBounds[b].reaches(rows: rows) { b += 1 }
            guard a < boxes.count, b < other.boxes.count else { return a == boxes.count && b == other.boxes.count }
            guard boxes[a] == other.boxes[b] else { return false }
            a += 1
            b += 1
        }
    }
}

/// `boxCoverage` of one box, its axis (cos θ, sin θ) computed once per box.
struct BoxCoverage: PixelCoverage {
    let box: QuadInstance
    let cos: Float
    let sin: Float

    @inline(__always) func at(_ x: Int, _ px: Float, _ py: Float, solid: Bool) -> Float {
        boxCoverage(px, py, box.centerX, box.centerY, box.halfX, box.halfY, cos, sin, box.cornerRadius)
    }
}
