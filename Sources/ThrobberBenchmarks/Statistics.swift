/// Minimum, median and maximum of a set of samples.
public struct Summary: Codable, Equatable {
    public var min: Double
    public var median: Double
    public var max: Double
    public var count: Int

    public init(_ samples: [Double]) {
        let sorted = samples.sorted()
        min = sorted.first ?? .nan
        max = sorted.last ?? .nan
        count = sorted.count
        if sorted.isEmpty {
            median = .nan
        } else if sorted.count % 2 == 1 {
            median = sorted[sorted.count / 2]
        } else {
            median = (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
    }
}

/// A least-squares line y = intercept + slope·x with its coefficient of determination.
public struct LinearFit: Codable, Equatable {
    public var intercept: Double
    public var slope: Double
    /// R²: 1 is a perfect fit.
    public var r2: Double

    /// Fits the points; nil when fewer than two distinct x values.
    public init?(_ points: [(x: Double, y: Double)]) {
        let n = Double(points.count)
        guard points.count >= 2 else { return nil }
        let meanX = points.map(\.x).reduce(0, +) / n
        let meanY = points.map(\.y).reduce(0, +) / n
        let sxx = points.map { ($0.x - meanX) * ($0.x - meanX) }.reduce(0, +)
        guard sxx > 0 else { return nil }
        let sxy = points.map { ($0.x - meanX) * ($0.y - meanY) }.reduce(0, +)
        let b = sxy / sxx
        let a = meanY - b * meanX
        let total = points.map { ($0.y - meanY) * ($0.y - meanY) }.reduce(0, +)
        let residual = points.map { let e = $0.y - (a + b * $0.x); return e * e }.reduce(0, +)
        slope = b
        intercept = a
        r2 = total > 0 ? 1 - residual / total : 1
    }
}
