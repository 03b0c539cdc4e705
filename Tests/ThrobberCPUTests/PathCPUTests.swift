import Foundation
import Testing
import Throbber
@testable import ThrobberCPU

/// The path's CPU row (SPEC §9) against an independent evaluation in double precision: the core's
/// `PathCoverage.signedArea` (the reference formula, accumulated per row in double), paints
/// evaluated here from the spec's words, blended by §0 — for both the fast path (scanline
/// accumulation) and the reference path (the twin of path.glsl, pixel by pixel).
struct PathCPUTests {
    // MARK: Helpers

    static func polygon(_ points: [(Double, Double)]) -> Subpath {
        Subpath(start: PathPoint(points[0].0, points[0].1), segments: points.dropFirst().map { .line(to: PathPoint($0.0, $0.1)) },
                closed: true)
    }

    static func square(_ x: Double, _ y: Double, _ side: Double, clockwise: Bool = true) -> Subpath {
        clockwise ? polygon([(x, y), (x + side, y), (x + side, y + side), (x, y + side)])
            : polygon([(x, y), (x, y + side), (x + side, y + side), (x + side, y)])
    }

    static func fill(_ subpaths: [Subpath], rule: PathCoverage.FillRule = .nonzero, paint: PathPaint = .solid(PaintColor(RGBA(1, 1, 1))),
                     transform: PathTransform = .identity, opacity: Double = 1, width: Int, height: Int) -> Path {
        Path(PathGeometry(subpaths: subpaths), transform: transform, role: .fill(rule), paint: paint, opacity: opacity,
             width: width, height: height)
    }

    /// The paths drawn by the CPU renderer, one thread, by the fast path or the reference path.
    static func render(_ paths: [Path], width: Int, height: Int, background: RGBA = RGBA(0, 0, 0, 0), fast: Bool,
                       runsPerRow: Int = 16) -> Image {
        var renderer = CPURenderer(threadCount: 1)
        renderer.shortcuts = fast
        renderer.solidRunsPerRow = runsPerRow
        let items = paths.enumerated().map { DrawItem(ItemID("path\($0.offset)"), $0.element) }
        return renderer.render(DrawList(width: width, height: height, background: PaintColor(background), items: items))
    }

    /// SPEC §9 "Paints" in double precision, from the spec's words: the straight colour of `paint`
    /// at own-space point q (nil: the last stop, the singular case).
    static func paintColor(_ paint: PathPaint, _ q: PathPoint?) -> [Double] {
        func rgba(_ c: PaintColor) -> [Double] { [Double(c.r), Double(c.g), Double(c.b), Double(c.a)] }
        let t: Double, stops: [GradientStop]
        switch paint {
        case .solid(let color):
            return rgba(color)
        case let .linear(p0, p1, s):
            stops = s
            let d = p1 - p0, length2 = d.x * d.x + d.y * d.y
            guard let q, length2 > 0 else { t = 1; break }
            t = min(max(((q.x - p0.x) * d.x + (q.y - p0.y) * d.y) / length2, 0), 1)
        case let .radial(c, r, h, angle, s):
            stops = s
            guard let q, r > 0 else { t = 1; break }
            // The largest t ≥ 0 with |q − f − t·(c − f)| = t·r: with u = q − f, v = c − f,
            // (r² − v·v)·t² + 2(u·v)·t − u·u = 0, r² − v·v > 0.
            let a = angle * .pi / 180
            let f = PathPoint(c.x + h * r * cos(a), c.y + h * r * sin(a))
            let u = q - f, v = c - f
            let k = r * r - (v.x * v.x + v.y * v.y), uv = u.x * v.x + u.y * v.y, uu = u.x * u.x + u.y * u.y
            t = min(max((-uv + (uv * uv + k * uu).squareRoot()) / k, 0), 1)
        }
        guard let last = stops.last else { return [0, 0, 0, 0] }
        guard let k = stops.lastIndex(where: { Double($0.offset) <= t }) else { return rgba(stops[0].color) }
        if k == stops.count - 1 { return rgba(last.color) }
        let f = (t - Double(stops[k].offset)) / Double(stops[k + 1].offset - stops[k].offset)
        return zip(rgba(stops[k].color), rgba(stops[k + 1].color)).map { $0 * (1 - f) + $1 * f }
    }

    /// The image §9 and §0 give in double precision: each path's coverage from
    /// `PathCoverage.signedArea` of its outline, its paint at the pixel centre, source-over.
    static func expected(_ paths: [Path], width: Int, height: Int, background: RGBA = RGBA(0, 0, 0, 0)) -> [UInt8] {
        var dst = [[Double]](repeating: [background.r * background.a, background.g * background.a, background.b * background.a,
                                         background.a], count: width * height)
        for path in paths {
            let area = PathCoverage.signedArea(path.outline.polygons, width: width, height: height)
            for j in 0..<height {
                for i in 0..<width {
                    let c = PathCoverage.coverage(area[j * width + i], rule: path.outline.rule)
                    guard c > 0 else { continue }
                    let q = path.paintInverse?.apply(PathPoint(Double(i) + 0.5, Double(j) + 0.5))
                    let color = paintColor(path.paint, q)
                    let sa = color[3] * Double(path.opacity) * c
                    let p = j * width + i
                    dst[p] = [color[0] * sa + dst[p][0] * (1 - sa), color[1] * sa + dst[p][1] * (1 - sa),
                              color[2] * sa + dst[p][2] * (1 - sa), sa + dst[p][3] * (1 - sa)]
                }
            }
        }
        func q8(_ v: Double) -> UInt8 { UInt8((min(max(v, 0), 1) * 255 + 0.5).rounded(.down)) }
        return dst.flatMap { v -> [UInt8] in
            let a8 = q8(v[3])
            return a8 == 0 ? [0, 0, 0, 0] : [q8(v[0] / v[3]), q8(v[1] / v[3]), q8(v[2] / v[3]), a8]
        }
    }

    /// Every channel of `image` within `tolerance` of `expected`; the first few failures named.
    static func expectClose(_ image: Image, _ expected: [UInt8], tolerance: Int = 1, _ what: String,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        var failures: [String] = []
        for p in 0..<(image.width * image.height) {
            let observed = Array(image.pixels[p * 4..<p * 4 + 4]), wanted = Array(expected[p * 4..<p * 4 + 4])
            // §0: where either alpha is ≤ 1 the colour channels are not compared.
            let channels = min(observed[3], wanted[3]) <= 1 ? [3] : [0, 1, 2, 3]
            if channels.contains(where: { abs(Int(observed[$0]) - Int(wanted[$0])) > tolerance }) {
                failures.append("pixel (\(p % image.width), \(p / image.width)): expected \(wanted), observed \(observed)")
            }
        }
        #expect(failures.isEmpty, "\(what): \(failures.count) pixels, \(failures.prefix(4).joined(separator: "; "))",
                sourceLocation: sourceLocation)
    }

    /// Both paths against the double evaluation, and against each other.
    static func check(_ paths: [Path], width: Int, height: Int, background: RGBA = RGBA(0, 0, 0, 0), _ what: String,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        let wanted = expected(paths, width: width, height: height, background: background)
        let fast = render(paths, width: width, height: height, background: background, fast: true)
        let reference = render(paths, width: width, height: height, background: background, fast: false)
        expectClose(fast, wanted, "\(what), fast path", sourceLocation: sourceLocation)
        expectClose(reference, wanted, "\(what), reference path", sourceLocation: sourceLocation)
        expectClose(fast, Array(reference.pixels), "\(what), fast vs reference path", sourceLocation: sourceLocation)
        // Solid runs spilled into the accumulators (one slot per row) change nothing.
        let cramped = render(paths, width: width, height: height, background: background, fast: true, runsPerRow: 1)
        #expect(firstDifference(cramped, fast) == nil, "\(what), one solid run per row", sourceLocation: sourceLocation)
    }

    /// A random closed polygon of `count` points in [lo, hi]².
    static func randomPolygon(_ random: inout SplitMix64, count: Int, lo: Double, hi: Double) -> Subpath {
        polygon((0..<count).map { _ in (lo + random.nextUnit() * (hi - lo), lo + random.nextUnit() * (hi - lo)) })
    }

    // MARK: Coverage

    /// SPEC §9's check values, by the twin formulas and through both paths (a white fill's alpha
    /// is its coverage).
    @Test func theSpecsCheckValues() {
        let square = Self.fill([Self.polygon([(0.25, 0.25), (1.25, 0.25), (1.25, 1.25), (0.25, 1.25)])], width: 2, height: 2)
        let triangle = Self.fill([Self.polygon([(0, 0), (1, 0), (0, 1)])], width: 2, height: 2)
        let twice = [Self.square(0, 0, 1), Self.square(0, 0, 1)]
        func area(_ path: Path, _ i: Float, _ j: Float) -> Float {
            path.outline.polygons.reduce(0) { sum, polygon in
                polygon.indices.reduce(sum) { sum, k in
                    let a = polygon[k], b = polygon[(k + 1) % polygon.count]
                    return sum + pathSegmentArea(Float(a.x), Float(a.y), Float(b.x), Float(b.y), i, j)
                }
            }
        }
        // Both wind clockwise on screen (y down): their left edges go up, so A is negative.
        #expect(abs(area(square, 0, 0) + 0.5625) < 1e-6 && pathFillCoverage(area(square, 0, 0), false) == 0.5625)
        #expect(abs(area(triangle, 0, 0) + 0.5) < 1e-6 && pathFillCoverage(area(triangle, 0, 0), true) == 0.5)
        let twiceArea = area(Self.fill(twice, width: 2, height: 2), 0, 0)
        #expect(pathFillCoverage(twiceArea, false) == 1 && pathFillCoverage(twiceArea, true) == 0)
        for fast in [true, false] {
            #expect(Self.render([square], width: 2, height: 2, fast: fast)[0, 0] == (255, 255, 255, 143))  // 0.5625·255 = 143.4
            #expect(Self.render([triangle], width: 2, height: 2, fast: fast)[0, 0] == (255, 255, 255, 128))  // 127.5 rounds up
            #expect(Self.render([Self.fill(twice, width: 2, height: 2)], width: 2, height: 2, fast: fast)[0, 0] == (255, 255, 255, 255))
            let evenOdd = Self.fill(twice, rule: .evenodd, width: 2, height: 2)
            #expect(Self.render([evenOdd], width: 2, height: 2, background: RGBA(0, 0, 1, 1), fast: fast)[0, 0] == (0, 0, 255, 255))
        }
    }

    /// `averageClamp` in single precision: exact where neither end is clamped, however close the
    /// ends, and the mean of the clamp across 0 and 1.
    @Test func averageClampKeepsItsPrecision() {
        #expect(averageClamp(0.3, 0.3) == 0.3)
        #expect(abs(averageClamp(0.25, 0.2500001) - 0.25000005) < 1e-7)
        #expect(averageClamp(-2, -1) == 0 && averageClamp(2, 3) == 1)
        #expect(abs(averageClamp(-1, 1) - 0.25) < 1e-7)  // ∫₀¹ u du / 2
        #expect(abs(averageClamp(0, 2) - 0.75) < 1e-7)  // (½ + 1) / 2
    }

    /// Holes (wound either way) and self-intersections under both rules, random polygons reaching
    /// off every edge of the canvas.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func randomPolygons(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let width = 37, height = 29
        var subpaths = [Self.square(3.3, 2.7, 25.5), Self.square(8.1, 6.4, 9.9, clockwise: seed % 2 == 0)]
        subpaths.append(Self.randomPolygon(&random, count: 5 + Int(random.next() % 12), lo: -8, hi: 45))
        subpaths.append(Self.randomPolygon(&random, count: 3 + Int(random.next() % 5), lo: 0, hi: 30))
        for rule in PathCoverage.FillRule.allCases {
            let color = RGBA(random.nextUnit(), random.nextUnit(), random.nextUnit(), seed % 3 == 0 ? 0.6 : 1)
            let path = Self.fill(subpaths, rule: rule, paint: .solid(PaintColor(color)), width: width, height: height)
            Self.check([path], width: width, height: height, background: RGBA(0.2, 0.3, 0.4, seed % 2 == 0 ? 1 : 0.5),
                       "seed \(seed), \(rule)")
        }
    }

    /// Paths partly off the canvas: left of it and above it (negative coordinates), beyond its
    /// right and bottom edges, and one wholly off it.
    @Test func pathsPartlyOffTheCanvas() {
        let width = 40, height = 24
        let paths = [
            Self.fill([Self.polygon([(-30, -12.5), (18.3, 4.2), (-5, 30.7)])], paint: .solid(PaintColor(RGBA(1, 0, 0))), width: width, height: height),
            Self.fill([Self.polygon([(25.5, -3), (90, 11.25), (31.7, 40)])], paint: .solid(PaintColor(RGBA(0, 1, 0, 0.7))), width: width, height: height),
            Self.fill([Self.square(-100, -50, 300)], rule: .evenodd, paint: .solid(PaintColor(RGBA(0, 0, 1, 0.25))), width: width, height: height),
            Self.fill([Self.square(50, 3, 10)], width: width, height: height),
        ]
        Self.check(paths, width: width, height: height, "off the canvas")
    }

    /// Large paths of cubics spanning many bands of rows, over bands that do not line up with the
    /// buckets (a 100-row frame is painted in bands of 12 rows, the chords bucketed by 16).
    @Test(arguments: [UInt64(11), 12, 13])
    func largeCubicPaths(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let width = 120, height = 100
        var subpaths: [Subpath] = []
        for _ in 0..<2 {
            func point() -> PathPoint { PathPoint(random.nextUnit() * 140 - 10, random.nextUnit() * 120 - 10) }
            subpaths.append(Subpath(start: point(), segments: (0..<8).map { _ in .cubic(point(), point(), to: point()) }, closed: true))
        }
        for rule in PathCoverage.FillRule.allCases {
            let path = Self.fill(subpaths, rule: rule, paint: .solid(PaintColor(RGBA(0.9, 0.5, 0.1))), width: width, height: height)
            Self.check([path], width: width, height: height, "seed \(seed), \(rule)")
        }
    }

    /// A rectangle with edges on pixel boundaries is solid inside: whole pixels, nothing outside
    /// it touched (an opaque background's colour stays exactly).
    @Test func pixelAlignedRectangle() {
        for fast in [true, false] {
            let image = Self.render([Self.fill([Self.square(4, 4, 8)], paint: .solid(PaintColor(RGBA(1, 0, 0))), width: 20, height: 20)],
                                    width: 20, height: 20, background: RGBA(0, 0, 1), fast: fast)
            for y in 0..<20 {
                for x in 0..<20 {
                    let inside = (4..<12).contains(x) && (4..<12).contains(y)
                    #expect(image[x, y] == (inside ? (255, 0, 0, 255) : (0, 0, 255, 255)), "(\(x), \(y)) fast \(fast)")
                }
            }
        }
    }

    // MARK: Paints

    static let stops = [GradientStop(offset: 0.2, color: RGBA(1, 0, 0)), GradientStop(offset: 0.5, color: RGBA(0, 1, 0, 0.5)),
                        GradientStop(offset: 0.8, color: RGBA(0, 0, 1))]

    /// Linear, radial and focal gradients over a whole canvas, under a rotation and a
    /// non-uniform scale (the paint read in the path's own space), each pixel against the double
    /// evaluation; also the stops' edge cases.
    @Test func gradients() {
        let width = 48, height = 40
        let transform = PathTransform(a: 1.2 * cos(0.4), b: 1.2 * sin(0.4), c: -0.8 * sin(0.4), d: 0.8 * cos(0.4), tx: 20, ty: 3)
        let own = [Self.square(-30, -30, 90)]
        let tied = [GradientStop(offset: 0.5, color: RGBA(1, 0, 0)), GradientStop(offset: 0.5, color: RGBA(0, 1, 0)),
                    GradientStop(offset: 0.5, color: RGBA(0, 0, 1)), GradientStop(offset: 1, color: RGBA(1, 1, 1))]
        let paints: [(String, PathPaint)] = [
            ("linear", .linear(from: PathPoint(2, 5), to: PathPoint(30, 18), stops: Self.stops)),
            ("radial", .radial(center: PathPoint(12, 10), radius: 22, highlight: 0, angle: 0, stops: Self.stops)),
            ("focal", .radial(center: PathPoint(12, 10), radius: 22, highlight: 0.6, angle: 30, stops: Self.stops)),
            ("focal at the edge", .radial(center: PathPoint(12, 10), radius: 15, highlight: -0.99, angle: 200, stops: Self.stops)),
            ("tied stops", .linear(from: PathPoint(0, 0), to: PathPoint(25, 0), stops: tied)),
            ("p0 = p1", .linear(from: PathPoint(3, 3), to: PathPoint(3, 3), stops: Self.stops)),
            ("r = 0", .radial(center: PathPoint(3, 3), radius: 0, highlight: 0, angle: 0, stops: Self.stops)),
        ]
        for (name, paint) in paints {
            for opacity in [1, 0.45] {
                let path = Self.fill(own, paint: paint, transform: transform, opacity: opacity, width: width, height: height)
                Self.check([path], width: width, height: height, background: RGBA(0.1, 0.1, 0.1, 0.8), "\(name), opacity \(opacity)")
            }
        }
    }

    /// `gradientColor` at the stops' edges: the first colour before the first stop, the last
    /// after the last, the last of several stops at one offset exactly there, mixed between.
    @Test func gradientColorAtTheEdges() {
        let offsets: [Float] = [0.2, 0.5, 0.5, 0.5, 0.8]
        let colors: [SIMD4<Float>] = [SIMD4(1, 0, 0, 1), SIMD4(0, 1, 0, 1), SIMD4(0, 0, 1, 1), SIMD4(1, 1, 0, 1), SIMD4(0, 1, 1, 0)]
        offsets.withUnsafeBufferPointer { o in
            colors.withUnsafeBufferPointer { c in
                #expect(gradientColor(0, o, c) == colors[0] && gradientColor(0.2, o, c) == colors[0])
                #expect(gradientColor(0.5, o, c) == colors[3])
                #expect(gradientColor(0.8, o, c) == colors[4] && gradientColor(1, o, c) == colors[4])
                func near(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> Bool { ((a - b) * (a - b)).sum() < 1e-12 }
                #expect(near(gradientColor(0.35, o, c), SIMD4(0.5, 0.5, 0, 1)))
                #expect(near(gradientColor(0.65, o, c), SIMD4(0.5, 1, 0.5, 0.5)))
                #expect(gradientColor(0.4999, o, c).y > 0.99)
            }
        }
        #expect(gradientColor(0.5, UnsafeBufferPointer(start: nil, count: 0), UnsafeBufferPointer(start: nil, count: 0)) == SIMD4())
    }

    /// The focal radial twin: without a highlight exactly |q − c| / r; with one, t = 0 at the
    /// focal point, 1 on the circle, and |q − f − t·(c − f)| = t·r between.
    @Test func radialGradientT() {
        #expect(ThrobberCPU.radialGradientT(7, 4, 3, 1, 10, 3, 1) == 0.5)
        #expect(ThrobberCPU.radialGradientT(7, 4, 3, 1, 0, 3, 1) == 1)
        let (cx, cy, r, fx, fy): (Float, Float, Float, Float, Float) = (10, 10, 8, 14, 7)
        #expect(ThrobberCPU.radialGradientT(fx, fy, cx, cy, r, fx, fy) == 0)
        #expect(abs(ThrobberCPU.radialGradientT(cx + r * 0.6, cy - r * 0.8, cx, cy, r, fx, fy) - 1) < 1e-5)
        for (qx, qy) in [(11, 12), (5, 9.5), (14, 8), (9, 3)] as [(Float, Float)] {
            let t = ThrobberCPU.radialGradientT(qx, qy, cx, cy, r, fx, fy)
            let dx = qx - fx - t * (cx - fx), dy = qy - fy - t * (cy - fy)
            #expect(abs((dx * dx + dy * dy).squareRoot() - t * r) < 1e-4, "(\(qx), \(qy)): t = \(t)")
        }
        #expect(linearGradientT(5, 9, 1, 1, 1, 1) == 1)
        #expect(linearGradientT(-3, 0, 0, 0, 10, 0) == 0 && linearGradientT(4, 7, 0, 0, 10, 0) == 0.4)
    }

    /// A singular transform: the outline is degenerate (nothing covered); nothing is painted.
    @Test func singularTransformPaintsNothing() {
        let singular = PathTransform(a: 1, b: 2, c: 2, d: 4, tx: 3, ty: 3)
        let paint = PathPaint.linear(from: PathPoint(0, 0), to: PathPoint(5, 0), stops: Self.stops)
        let path = Self.fill([Self.square(0, 0, 5)], paint: paint, transform: singular, width: 16, height: 16)
        #expect(path.paintInverse == nil)
        Self.check([path], width: 16, height: 16, background: RGBA(0.5, 0.5, 0.5), "singular")
    }

    // MARK: Strokes

    static func stroke(_ subpaths: [Subpath], _ style: StrokeStyle, color: RGBA = RGBA(1, 1, 1), width: Int, height: Int) -> Path {
        Path(PathGeometry(subpaths: subpaths), role: .stroke(style), paint: .solid(PaintColor(color)), width: width, height: height)
    }

    /// SPEC §9's stroke check values, moved to (2, 1.5)–(6, 1.5): butt caps cover pixels 2…5 of
    /// row 1 whole and nothing else; round caps add pixels 1 and 6 by 0.3895 (0.004 allowed).
    @Test func theSpecsStrokeCheckValues() {
        let line = Subpath(start: PathPoint(2, 1.5), segments: [.line(to: PathPoint(6, 1.5))])
        for fast in [true, false] {
            let butt = Self.render([Self.stroke([line], StrokeStyle(width: 1), width: 8, height: 3)], width: 8, height: 3, fast: fast)
            for y in 0..<3 {
                for x in 0..<8 { #expect(butt[x, y].a == (y == 1 && (2...5).contains(x) ? 255 : 0), "butt (\(x), \(y)) fast \(fast)") }
            }
            let round = Self.render([Self.stroke([line], StrokeStyle(width: 1, cap: .round), width: 8, height: 3)], width: 8, height: 3, fast: fast)
            let allowance = 0.004 * 255 + 0.5
            for x in [1, 6] {
                let alpha = Double(round[x, 1].a)
                #expect(abs(alpha - 0.3895 * 255) <= allowance, "round cap \(x): \(alpha)")
            }
            #expect(round[3, 1].a == 255 && round[0, 1].a == 0 && round[7, 1].a == 0 && round[3, 0].a == 0)
        }
    }

    /// A stroked circle (four 90° cubics) through both paths against the double evaluation of its
    /// outline, and against the true annulus sampled on a 64 × 64 grid per pixel.
    @Test func strokedCircle() {
        let width = 40, height = 36, (cx, cy, r, w) = (19.3, 17.6, 12.4, 3.5)
        let k = 4.0 / 3 * tan(Double.pi / 8) * r
        func at(_ a: Double) -> PathPoint { PathPoint(cx + r * cos(a), cy + r * sin(a)) }
        let segments: [PathSegment] = (0..<4).map { q in
            let a0 = Double(q) * .pi / 2, a1 = a0 + .pi / 2
            return .cubic(at(a0) + k * PathPoint(-sin(a0), cos(a0)), at(a1) - k * PathPoint(-sin(a1), cos(a1)), to: at(a1))
        }
        let circle = Subpath(start: at(0), segments: segments, closed: true)
        let path = Self.stroke([circle], StrokeStyle(width: w), width: width, height: height)
        Self.check([path], width: width, height: height, "stroked circle")
        let image = Self.render([path], width: width, height: height, fast: true)
        let n = 64
        for y in 0..<height {
            for x in 0..<width {
                var inside = 0
                for sy in 0..<n {
                    for sx in 0..<n {
                        let px = Double(x) + (Double(sx) + 0.5) / Double(n), py = Double(y) + (Double(sy) + 0.5) / Double(n)
                        if abs(((px - cx) * (px - cx) + (py - cy) * (py - cy)).squareRoot() - r) <= w / 2 { inside += 1 }
                    }
                }
                let wanted = Double(inside) / Double(n * n) * 255
                #expect(abs(Double(image[x, y].a) - wanted) <= 3, "(\(x), \(y)): \(image[x, y].a) vs \(wanted)")
            }
        }
    }

    /// Thick strokes of random open cubics (tight turns, cusps, every join and cap), whose ribbon
    /// quadrilaterals share normal segments the CPU row leaves out in pairs: against the double
    /// evaluation of the whole outline.
    @Test(arguments: [UInt64(21), 22, 23])
    func thickRandomStrokes(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let width = 64, height = 56
        func point() -> PathPoint { PathPoint(random.nextUnit() * 70 - 3, random.nextUnit() * 62 - 3) }
        let curve = Subpath(start: point(), segments: (0..<5).map { _ in .cubic(point(), point(), to: point()) })
        let style = StrokeStyle(width: 2 + random.nextUnit() * 8, join: StrokeJoin.allCases[Int(seed % 3)], cap: StrokeCap.allCases[Int(seed % 3)])
        Self.check([Self.stroke([curve], style, color: RGBA(0.2, 0.6, 0.9, 0.8), width: width, height: height)], width: width, height: height,
                   "seed \(seed), \(style.join), \(style.cap)")
    }
}
