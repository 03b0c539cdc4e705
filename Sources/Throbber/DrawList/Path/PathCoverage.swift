/// A fill's coverage as the exact accumulated signed area of its chords (SPEC §9 "Coverage of a
/// fill"): A(i, j) = ∫∫ over pixel (i, j) of the winding number, each chord from (x0, y0) to
/// (x1, y1) adding sign(y1 − y0) · ∫ clamp(i + 1 − x(y), 0, 1) dy over the rows it spans. The
/// CPU reference's formula; the GLSL twin has the same names.
public enum PathCoverage {
    /// Which winding numbers a fill paints.
    public enum FillRule: String, Sendable, CaseIterable {
        case nonzero, evenodd
    }

    /// The average of clamp(u, 0, 1) for u running linearly from u0 to u1.
    static func averageClamp(_ u0: Double, _ u1: Double) -> Double {
        func integral(_ u: Double) -> Double { u <= 0 ? 0 : u <= 1 ? u * u / 2 : u - 0.5 }
        if abs(u1 - u0) < 1e-12 { return min(max((u0 + u1) / 2, 0), 1) }
        return (integral(u1) - integral(u0)) / (u1 - u0)
    }

    /// A(i, j) for every pixel of a `width` × `height` px grid, row by row, of the closed
    /// polygons (each closed by a chord back to its first point).
    public static func signedArea(_ polygons: [[PathPoint]], width: Int, height: Int) -> [Double] {
        // Per row, the change of A from column i − 1 to column i; a prefix sum gives A.
        var deltas = [Double](repeating: 0, count: (width + 1) * height)
        for polygon in polygons where polygon.count >= 2 {
            for k in polygon.indices {
                let a = polygon[k], b = polygon[(k + 1) % polygon.count]
                addChord(a, b, into: &deltas, width: width, height: height)
            }
        }
        var area = [Double](repeating: 0, count: width * height)
        for j in 0..<height {
            var sum = 0.0
            for i in 0..<width {
                sum += deltas[j * (width + 1) + i]
                area[j * width + i] = sum
            }
        }
        return area
    }

    /// One chord's contribution: for each row it spans, f(i) = sign · ∫ clamp(i + 1 − x(y), 0, 1) dy
    /// rises from 0 left of the chord to sign · (its height in the row) right of it; the
    /// differences f(i) − f(i − 1) are added where they are not 0.
    static func addChord(_ a: PathPoint, _ b: PathPoint, into deltas: inout [Double], width: Int, height: Int) {
        guard a.y != b.y else { return }
        let sign: Double = b.y > a.y ? 1 : -1
        let (top, bottom) = a.y < b.y ? (a, b) : (b, a)
        let firstRow = max(0, Int(top.y.rounded(.down))), lastRow = min(height - 1, Int((bottom.y).rounded(.up)) - 1)
        guard firstRow <= lastRow else { return }
        let slope = (bottom.x - top.x) / (bottom.y - top.y)
        for j in firstRow...lastRow {
            let y0 = max(top.y, Double(j)), y1 = min(bottom.y, Double(j + 1))
            guard y1 > y0 else { continue }
            let x0 = top.x + (y0 - top.y) * slope, x1 = top.x + (y1 - top.y) * slope
            let dy = y1 - y0
            let low = Int(max(-1e9, min(x0, x1)).rounded(.down)), high = Int(min(1e9, max(x0, x1)).rounded(.down))
            // f(i) is 0 for i < low and sign · dy for i > high; columns left of the grid fold
            // into column 0, so its delta is f(0) itself.
            let first = max(0, low), last = min(max(high + 1, first), width - 1)
            guard first <= last else { continue }
            var previous = 0.0
            for i in first...last {
                let f = sign * dy * averageClamp(Double(i) + 1 - x0, Double(i) + 1 - x1)
                deltas[j * (width + 1) + i] += f - previous
                previous = f
            }
        }
    }

    /// The coverage of a pixel whose accumulated signed area is `area`, by `rule`.
    public static func coverage(_ area: Double, rule: FillRule) -> Double {
        switch rule {
        case .nonzero:
            return min(1, abs(area))
        case .evenodd:
            let a = abs(area).truncatingRemainder(dividingBy: 2)
            return min(a, 2 - a)
        }
    }
}
