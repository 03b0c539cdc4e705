import Throbber

extension Wave {
    /// A y at and below which every pixel centre lies certainly more than half a pixel under the
    /// curve: f(x) + 0.501·sqrt(1 + f′(x)²) (0.501 = antialiasReach + certaintyMargin) is at most
    /// baseline + |A| + 0.501·sqrt(1 + (A·k)²), and 0.05 px absorbs the rounding of both sides
    /// (`WaveColumns.lowestFullRow`, the exact maximum over the columns, is never above it).
    fileprivate var coveredBelow: Float {
        baseline + abs(amplitude) + (antialiasReach + certaintyMargin) * (1 + amplitude * k * amplitude * k).squareRoot() + 0.05
    }

    /// Whether the wave paints `rows` as `other` does although the two differ (in phase,
    /// amplitude or level): on rows wholly below both curves the coverage is the clip's and the
    /// bottom edge's alone (`Band.paint`: the curve's test never fires there), so the same colour,
    /// clip, bottom and columns paint the same pixels.
    func paintsTheSame(rows: Range<Int>, as other: Wave) -> Bool {
        guard color == other.color, clipCenterX == other.clipCenterX, clipCenterY == other.clipCenterY,
              clipRadius == other.clipRadius, bottom == other.bottom,
              bounds.x0 == other.bounds.x0, bounds.x1 == other.bounds.x1 else { return false }
        func painted(_ rect: PixelRect) -> Range<Int> {
            let top = max(rows.lowerBound, rect.y0), bottom = min(rows.upperBound, rect.y1)
            return top < bottom ? top..<bottom : rows.lowerBound..<rows.lowerBound
        }
        let mine = painted(bounds)
        guard mine == painted(other.bounds) else { return false }
        guard let first = mine.first else { return true }
        let py = Float(first) + 0.5
        return py >= coveredBelow && py >= other.coveredBelow
    }
}
