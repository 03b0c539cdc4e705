import Foundation

/// A pixel rectangle, half-open: x in [x0, x1), y in [y0, y1). A renderer shades exactly the pixels
/// whose centres lie inside it; outside it the primitive's coverage is zero.
public struct PixelRect: Sendable, Equatable, Hashable {
    public var x0: Int
    public var y0: Int
    public var x1: Int
    public var y1: Int

    /// The pixels touched by the real rectangle [minX, maxX] × [minY, maxY] grown by `margin`,
    /// clipped to a `width` × `height` canvas.
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double, margin: Double = Antialiasing.boundsMargin,
                width: Int, height: Int) {
        func clampedFloor(_ v: Double, _ limit: Int) -> Int { Int(max(0, min(Double(limit), (v - margin).rounded(.down)))) }
        func clampedCeil(_ v: Double, _ limit: Int) -> Int { Int(max(0, min(Double(limit), (v + margin).rounded(.up)))) }
        x0 = clampedFloor(minX, width)
        y0 = clampedFloor(minY, height)
        x1 = clampedCeil(maxX, width)
        y1 = clampedCeil(maxY, height)
    }

    /// Whether the rectangle holds no pixel.
    @inlinable public var isEmpty: Bool { x1 <= x0 || y1 <= y0 }

    /// A rectangle from its edges.
    public init(x0: Int, y0: Int, x1: Int, y1: Int) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
    }

    /// Whether some row of `rows` lies within the rectangle's rows. Inlinable: renderers ask it
    /// of every box in every band.
    @inlinable public func reaches(rows: Range<Int>) -> Bool { y0 < rows.upperBound && y1 > rows.lowerBound }

    /// Whether the two rectangles share a pixel.
    @inlinable public func intersects(_ other: PixelRect) -> Bool {
        x0 < other.x1 && other.x0 < x1 && y0 < other.y1 && other.y0 < y1
    }

    /// The smallest rectangle holding every non-empty rectangle of `rects` (empty when none is).
    public static func union(_ rects: some Sequence<PixelRect>) -> PixelRect {
        var union = PixelRect(x0: .max, y0: .max, x1: .min, y1: .min)
        for rect in rects where !rect.isEmpty {
            union = PixelRect(x0: min(union.x0, rect.x0), y0: min(union.y0, rect.y0),
                              x1: max(union.x1, rect.x1), y1: max(union.y1, rect.y1))
        }
        return union.isEmpty ? PixelRect(x0: 0, y0: 0, x1: 0, y1: 0) : union
    }
}

/// The pixels between two circles around one centre (px): what a round primitive can cover,
/// its anti-aliased edge included.
public struct Annulus: Sendable, Equatable {
    public var centerX: Float
    public var centerY: Float
    public var inner: Float
    public var outer: Float

    /// A ring around (centerX, centerY) between radii `inner` and `outer` (px).
    public init(centerX: Float, centerY: Float, inner: Float, outer: Float) {
        self.centerX = centerX
        self.centerY = centerY
        self.inner = inner
        self.outer = outer
    }

    /// The ring's area in px².
    public var area: Double { Double.pi * (Double(outer) * Double(outer) - Double(inner) * Double(inner)) }

    /// The half-open x range [x0, x1) of pixel columns whose centres on row `y` lie within the
    /// outer circle, and the range inside the inner circle that can be skipped (empty when none).
    public func spans(row y: Int) -> (outer: Range<Int>, hole: Range<Int>) {
        let dy = Float(y) + 0.5 - centerY
        guard abs(dy) <= outer else { return (0..<0, 0..<0) }
        let wo = (outer * outer - dy * dy).squareRoot()
        let x0 = pixelColumn((centerX - wo - 0.5).rounded(.up)), x1 = pixelColumn((centerX + wo - 0.5).rounded(.down)) + 1
        guard abs(dy) < inner else { return (x0..<max(x0, x1), 0..<0) }
        let wi = (inner * inner - dy * dy).squareRoot()
        let h0 = pixelColumn((centerX - wi - 0.5).rounded(.up)), h1 = pixelColumn((centerX + wi - 0.5).rounded(.down)) + 1
        return (x0..<max(x0, x1), h0..<max(h0, h1))
    }
}

/// A pixel coordinate as an `Int` that cannot trap: clamped to ±2³⁰ (far outside any canvas,
/// which callers clip to), NaN as 0. Parameters are bounded where they are parsed (`Limits`);
/// this keeps a renderer safe from a draw list built in code.
@inline(__always)
func pixelColumn(_ value: Float) -> Int {
    guard !value.isNaN else { return 0 }
    return Int(min(max(value, -0x1p30), 0x1p30))
}

/// `angle` reduced to [0, 2π) in double precision, so a phase a day into an animation reaches
/// single precision as exactly as frame 0's (docs/spec.md §0 "Time").
public func reducedPhase(_ angle: Double) -> Double {
    let twoPi = 2 * Double.pi
    let r = angle - twoPi * (angle / twoPi).rounded(.down)
    return r >= twoPi ? 0 : r
}
