/// Up to two line segments stroked as one shape, with round caps and round joins (SPEC §7
/// "Glyphs": SVProgressHUD's success checkmark, error cross and info stem): δ = the least
/// distance from the pixel centre to a segment (clamped to the segment's end points), coverage
/// = stroke(δ, lineWidth) (SPEC §0), the colour painted once with it. Two crossing segments
/// are one shape, not two strokes painted one after the other: where they cross, the colour is
/// painted once.
public struct Strokes: Primitive {
    public static let kind = "Strokes"
    public static let noun = (one: "stroke", many: "strokes")

    /// One segment, from (x0, y0) to (x1, y1), in pixels.
    public struct Segment: Sendable, Equatable {
        public var x0: Float
        public var y0: Float
        public var x1: Float
        public var y1: Float

        public init(x0: Float, y0: Float, x1: Float, y1: Float) {
            self.x0 = x0
            self.y0 = y0
            self.x1 = x1
            self.y1 = y1
        }
    }

    /// The first segment.
    public var first: Segment
    /// The second segment; the first again when there is one segment (so a renderer that always
    /// takes the nearer of the two gets the same δ).
    public var second: Segment
    /// How many segments are stroked: 1 or 2.
    public var segmentCount: Int
    public var lineWidth: Float
    public var color: PaintColor
    public var bounds: PixelRect

    /// `segments` (one or two, each from (x0, y0) to (x1, y1) in px) stroked `lineWidth` px wide
    /// as one shape on a `width` × `height` canvas. A polyline A–B–C is the segments A–B, B–C.
    ///
    /// - Precondition: one or two segments.
    public init(segments: [(x0: Double, y0: Double, x1: Double, y1: Double)], lineWidth: Double, color: RGBA,
                width: Int, height: Int) {
        precondition(segments.count == 1 || segments.count == 2, "strokes have one or two segments, not \(segments.count)")
        func segment(_ s: (x0: Double, y0: Double, x1: Double, y1: Double)) -> Segment {
            Segment(x0: Float(s.x0), y0: Float(s.y0), x1: Float(s.x1), y1: Float(s.y1))
        }
        first = segment(segments[0])
        second = segment(segments[segments.count - 1])
        segmentCount = segments.count
        self.lineWidth = Float(lineWidth)
        self.color = PaintColor(color)
        let reach = max(0, lineWidth) / 2
        let xs = segments.flatMap { [$0.x0, $0.x1] }, ys = segments.flatMap { [$0.y0, $0.y1] }
        bounds = PixelRect(minX: xs.min()! - reach, minY: ys.min()! - reach, maxX: xs.max()! + reach,
                           maxY: ys.max()! + reach, width: width, height: height)
    }

    /// The segments stroked, in order.
    public var segments: [Segment] { segmentCount == 1 ? [first] : [first, second] }
}
