import Foundation

/// SPEC §9 "Lengths, dashes and trims": a subpath cut by a stroke's dash pattern into the "on"
/// pieces it strokes as open subpaths, and the dots of its zero-length "on" pieces.
public enum PathDashing {
    /// What one "on" stretch of the pattern draws.
    public enum Dash: Sendable, Hashable {
        /// A piece of positive length, stroked as an open subpath with the stroke's caps.
        case piece([PathCurve])
        /// A zero-length piece: a dot turned along the curve's tangent there.
        case dot(PathPoint, tangent: PathPoint?)
    }

    /// The most "on" pieces one subpath is cut into; past it the rest of the subpath draws
    /// nothing (a pattern far finer than a pixel along a huge path would otherwise ask for
    /// unbounded memory).
    public static let pieceLimit = 1 << 16

    /// Whether `style` has a usable dash pattern: not empty, every length ≥ 0 and finite, sum > 0
    /// (the scene reader refuses others; here they stroke undashed).
    public static func isDashed(_ style: StrokeStyle) -> Bool {
        guard !style.dash.isEmpty, style.dash.allSatisfy({ $0 >= 0 && $0.isFinite }) else { return false }
        return style.dash.reduce(0, +) > 0
    }

    /// Where in the pattern a subpath starts: the entry's index and how much of it is left
    /// (SPEC §9: the offset taken modulo the pattern's length, negative too). A zero-length
    /// entry exactly at that position is where it starts.
    static func start(_ style: StrokeStyle) -> (index: Int, left: Double) {
        let pattern = style.dash
        let total = pattern.reduce(0, +)
        var phase = style.dashOffset.isFinite ? style.dashOffset.truncatingRemainder(dividingBy: total) : 0
        if phase < 0 { phase += total }
        if phase >= total { phase = 0 }
        var index = 0
        for _ in 0..<pattern.count {
            let d = pattern[index]
            guard phase > d || (phase == d && d > 0) else { break }
            phase -= d
            index = (index + 1) % pattern.count
        }
        return (index, max(0, pattern[index] - phase))
    }

    /// Whether the pattern is "on" at position 0 of a subpath (a zero-length subpath's dot).
    public static func startsOn(_ style: StrokeStyle) -> Bool {
        isDashed(style) && start(style).index % 2 == 0
    }

    /// The "on" pieces of `curves` (a subpath without zero-length segments, dashed from its start
    /// whether open or closed) under `style`'s pattern.
    public static func dashes(_ curves: [PathCurve], style: StrokeStyle) -> [Dash] {
        guard isDashed(style), !curves.isEmpty else { return curves.isEmpty ? [] : [.piece(curves)] }
        let pattern = style.dash
        let total = PathMeasure.length(curves)
        var (index, left) = start(style)
        var intervals: [(Double, Double)] = []
        var position = 0.0
        while intervals.count < pieceLimit {
            let end = position + left
            if index % 2 == 0 { intervals.append((position, min(end, total))) }
            guard end < total else {
                // A zero-length "on" entry exactly at the end of the subpath is still a dot there.
                if end == total {
                    var next = (index + 1) % pattern.count
                    for _ in 0..<pattern.count where pattern[next] == 0 {
                        if next % 2 == 0 {
                            intervals.append((total, total))
                            break
                        }
                        next = (next + 1) % pattern.count
                    }
                }
                break
            }
            position = end
            index = (index + 1) % pattern.count
            left = pattern[index]
        }
        // Every cut, in order, located once.
        var lengths: [Double] = []
        lengths.reserveCapacity(2 * intervals.count)
        for (from, to) in intervals {
            lengths.append(from)
            lengths.append(to)
        }
        let locations = PathMeasure.locate(lengths, in: curves)
        var result: [Dash] = []
        for k in intervals.indices {
            let from = locations[2 * k], to = locations[2 * k + 1]
            let piece = intervals[k].1 > intervals[k].0 ? PathMeasure.piece(curves, from: from, to: to) : []
            if piece.isEmpty {
                let curve = curves[from.index]
                result.append(.dot(curve.point(at: from.t), tangent: curve.tangent(at: from.t)))
            } else {
                result.append(.piece(piece))
            }
        }
        return result
    }
}
