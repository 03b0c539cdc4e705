import Throbber

/// Draw lists of `Strokes` and `RadialGradient` (SVProgressHUD's glyphs and gradient mask) that
/// the CPU tests (fast path against reference) and the GL parity tests both draw.
public enum HUDPrimitiveCases {
    /// SVProgressHUD's success checkmark, error cross and info stem in their 28 × 28 pt frame,
    /// at `scale` on a canvas of that frame.
    public static func glyphs(scale s: Double, color: RGBA) -> [(String, Strokes)] {
        let side = Int((28 * s).rounded(.up))
        return [
            ("checkmark", Strokes(segments: [(1.43 * s, 15.51 * s, 8.46 * s, 22.58 * s), (8.46 * s, 22.58 * s, 26.57 * s, 3.43 * s)],
                                  lineWidth: 1.51 * s, color: color, width: side, height: side)),
            ("cross", Strokes(segments: [(2.44 * s, 2.44 * s, 25.56 * s, 25.56 * s), (25.56 * s, 2.44 * s, 2.44 * s, 25.56 * s)],
                              lineWidth: 1.53 * s, color: color, width: side, height: side)),
            ("stem", Strokes(segments: [(14 * s, 11.02 * s, 14 * s, 20.94 * s)], lineWidth: 1.49 * s, color: color, width: side, height: side)),
        ]
    }

    /// Draw lists of random strokes and gradients: segments partly off the canvas and of no
    /// length, lines of no width, tiny and huge reaches, centres off the canvas, opaque colours
    /// and colours with alpha.
    public static func randomLists(count: Int, seed: UInt64) -> [DrawList] {
        var generator = SplitMix64(seed: seed)
        func next(_ range: ClosedRange<Double>) -> Double { range.lowerBound + (range.upperBound - range.lowerBound) * generator.nextUnit() }
        func color() -> RGBA {
            RGBA(next(0...1), next(0...1), next(0...1), generator.chance(0.4) ? 1 : next(0...1))
        }
        return (0..<count).map { n in
            let width = 8 + generator.next(below: 90), height = 8 + generator.next(below: 90)
            let (w, h) = (Double(width), Double(height))
            var items: [DrawItem] = []
            for k in 0..<(1 + generator.next(below: 3)) {
                if generator.chance(0.3) {
                    let reach = [0.001, 0.3, next(1...2 * max(w, h)), next(0.5...8)][generator.next(below: 4)]
                    items.append(DrawItem(ItemID("gradient \(k)"), RadialGradient(centerX: next(-0.3 * w...1.3 * w), centerY: next(-0.3 * h...1.3 * h),
                                                                                   reach: reach, color: color(), width: width, height: height)))
                    continue
                }
                var points = (0..<3).map { _ in (next(-0.5 * w...1.5 * w), next(-0.5 * h...1.5 * h)) }
                if generator.chance(0.2) { points[1] = points[0] }  // a segment of no length
                if generator.chance(0.1) { points[2] = points[1] }
                let segments: [(x0: Double, y0: Double, x1: Double, y1: Double)] = [(points[0].0, points[0].1, points[1].0, points[1].1), (points[1].0, points[1].1, points[2].0, points[2].1)]
                let lineWidth = generator.chance(0.1) ? 0 : generator.chance(0.2) ? next(0...1) : next(0...16)
                items.append(DrawItem(ItemID("strokes \(k)"), Strokes(segments: Array(segments.prefix(1 + generator.next(below: 2))),
                                                                      lineWidth: lineWidth, color: color(), width: width, height: height)))
            }
            let background = n % 3 == 0 ? PaintColor(.clear) : PaintColor(RGBA(next(0...1), next(0...1), next(0...1), next(0...1)))
            return DrawList(width: width, height: height, background: background, items: items)
        }
    }
}
