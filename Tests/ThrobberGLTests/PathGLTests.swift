import Foundation
import Testing
import Throbber
import ThrobberCPU
@testable import ThrobberGL
import ThrobberTestSupport

/// The path's GL row (Path+GL.swift, Shaders/Primitives/path.glsl) against an independent double
/// reference of SPEC §9: the exact accumulated signed area of the shared outline
/// (`PathCoverage.signedArea`, read by `PathCoverage.coverage`), paints evaluated directly, §0's
/// source-over in double and one quantisation; every channel within 2/255.
///
/// Serialized and synchronous: a GL context is current on the thread that made it.
@Suite(.serialized, .enabled(if: GLAvailability.osmesa.available, Comment(rawValue: GLAvailability.osmesa.reason)))
struct PathGLTests {
    // MARK: The reference

    /// SPEC §9 "Paints" in double: t of `paint` at own-space point q.
    static func gradientT(_ paint: PathPaint, _ q: PathPoint) -> Double {
        switch paint {
        case .solid: return 1
        case let .linear(p0, p1, _):
            let d = p1 - p0, length2 = d.x * d.x + d.y * d.y
            return length2 == 0 ? 1 : min(max(((q.x - p0.x) * d.x + (q.y - p0.y) * d.y) / length2, 0), 1)
        case let .radial(c, r, h, angle, _):
            if r == 0 { return 1 }
            let f = PathPoint(c.x + h * r * cos(angle * .pi / 180), c.y + h * r * sin(angle * .pi / 180))
            // The largest t ≥ 0 with |q − f − t(c − f)| = t·r.
            let d = c - f, e = q - f
            let a = d.x * d.x + d.y * d.y - r * r, b = e.x * d.x + e.y * d.y, cc = e.x * e.x + e.y * e.y
            return min(max((b - (b * b - a * cc).squareRoot()) / a, 0), 1)
        }
    }

    /// SPEC §9: the colour at t of sorted stops (straight components).
    static func stopColor(_ stops: [GradientStop], _ t: Double) -> [Double] {
        func rgba(_ c: PaintColor) -> [Double] { [Double(c.r), Double(c.g), Double(c.b), Double(c.a)] }
        guard let k = stops.lastIndex(where: { Double($0.offset) <= t }) else { return rgba(stops[0].color) }
        if k == stops.count - 1 { return rgba(stops[k].color) }
        let o0 = Double(stops[k].offset), o1 = Double(stops[k + 1].offset), f = (t - o0) / (o1 - o0)
        return zip(rgba(stops[k].color), rgba(stops[k + 1].color)).map { $0 + ($1 - $0) * f }
    }

    /// One item's coverage and straight colour per pixel, or nil for a kind the reference lacks.
    static func layer(_ item: DrawItem, width: Int, height: Int) -> (coverage: [Double], color: (Int, Int) -> [Double]) {
        if let path = item.primitive as? Path {
            let area = PathCoverage.signedArea(path.outline.polygons, width: width, height: height)
            let coverage = area.map { PathCoverage.coverage($0, rule: path.outline.rule) }
            let opacity = Double(path.opacity)
            return (coverage, { i, j in
                var c: [Double]
                switch path.paint {
                case .solid(let s): c = [Double(s.r), Double(s.g), Double(s.b), Double(s.a)]
                case .linear(_, _, let stops), .radial(_, _, _, _, let stops):
                    let q = path.paintInverse!.apply(PathPoint(Double(i) + 0.5, Double(j) + 0.5))
                    c = stopColor(stops, gradientT(path.paint, q))
                }
                c[3] *= opacity
                return c
            })
        }
        var coverage = [Double](repeating: 0, count: width * height)
        var colors: [PaintColor] = []
        var owner = [Int](repeating: -1, count: width * height)
        func paint(_ shape: (Double, Double) -> Double, _ color: PaintColor) {
            colors.append(color)
            for j in 0..<height {
                for i in 0..<width {
                    let c = shape(Double(i) + 0.5, Double(j) + 0.5)
                    // Boxes of one item do not overlap in these tests: the last one holds.
                    if c > 0 { coverage[j * width + i] = c; owner[j * width + i] = colors.count - 1 }
                }
            }
        }
        if let disc = item.primitive as? Disc {
            let (cx, cy, r) = (Double(disc.centerX), Double(disc.centerY), Double(disc.radius))
            paint({ x, y in min(max(0.5 - (((x - cx) * (x - cx) + (y - cy) * (y - cy)).squareRoot() - r), 0), 1) }, disc.color)
        } else if let boxes = item.primitive as? Boxes {
            for b in boxes.boxes {
                let (cx, cy, c, s) = (Double(b.centerX), Double(b.centerY), Double(cos(b.rotation)), Double(sin(b.rotation)))
                let (hx, hy, rho) = (Double(b.halfX), Double(b.halfY), Double(b.cornerRadius))
                paint({ x, y in
                    let qx = abs((x - cx) * c + (y - cy) * s) - (hx - rho), qy = abs(-(x - cx) * s + (y - cy) * c) - (hy - rho)
                    let d = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot() + min(max(qx, qy), 0) - rho
                    return min(max(0.5 - d, 0), 1)
                }, b.color)
            }
        } else {
            Issue.record("the reference has no \(type(of: item.primitive).kind)")
        }
        return (coverage, { i, j in
            let c = colors[max(0, owner[j * width + i])]
            return [Double(c.r), Double(c.g), Double(c.b), Double(c.a)]
        })
    }

    /// `list` painted by the reference (SPEC §0 source-over in double, quantised once).
    static func reference(_ list: DrawList) -> Image {
        let (w, h) = (list.width, list.height)
        let bg = list.background
        var dst = [Double](repeating: 0, count: w * h * 4)
        for p in 0..<(w * h) {
            let a = Double(bg.a)
            (dst[4 * p], dst[4 * p + 1], dst[4 * p + 2], dst[4 * p + 3]) = (Double(bg.r) * a, Double(bg.g) * a, Double(bg.b) * a, a)
        }
        for item in list.items {
            let (coverage, color) = layer(item, width: w, height: h)
            for j in 0..<h {
                for i in 0..<w where coverage[j * w + i] > 0 {
                    let c = color(i, j), sa = c[3] * coverage[j * w + i], p = 4 * (j * w + i)
                    for k in 0..<3 { dst[p + k] = c[k] * sa + dst[p + k] * (1 - sa) }
                    dst[p + 3] = sa + dst[p + 3] * (1 - sa)
                }
            }
        }
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        for p in 0..<(w * h) {
            let a = dst[4 * p + 3]
            func q(_ v: Double) -> UInt8 { UInt8((min(max(v, 0), 1) * 255 + 0.5).rounded(.down)) }
            let qa = q(a)
            guard qa > 0 else { continue }
            for k in 0..<3 { pixels[4 * p + k] = q(dst[4 * p + k] / a) }
            pixels[4 * p + 3] = qa
        }
        return Image(width: w, height: h, pixels: pixels)
    }

    /// Renders `lists` on GL (consecutive lists of one canvas share a stack) and compares each with the reference.
    func assertMatches(_ lists: [DrawList], label: String, renderer: GLRenderer? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let gl = try renderer ?? GLRenderer()
        let images = try gl.render(lists)
        var worst = 0
        for (index, (list, image)) in zip(lists, images).enumerated() {
            let diff = ImageDiff(expected: PathGLTests.reference(list), observed: image, tolerance: 2)
            worst = max(worst, diff.maxChannelDifference)
            #expect(diff.pixelsOverTolerance == 0,
                    "\(label) \(index) (\(list.width)×\(list.height)): \(diff.pixelsOverTolerance) pixels differ by more than 2/255\n\(diff.failureLines.joined(separator: "\n"))",
                    sourceLocation: sourceLocation)
        }
        print("path GL \(label): largest channel difference \(worst)/255 over \(lists.count) frames")
    }

    // MARK: Shapes

    static func polygon(_ points: [PathPoint]) -> Subpath { Subpath(start: points[0], segments: points.dropFirst().map { .line(to: $0) }, closed: true) }

    static func fill(_ subpaths: [Subpath], _ rule: PathCoverage.FillRule = .nonzero, paint: PathPaint = .solid(PaintColor(RGBA(1, 1, 1, 1))),
                     transform: PathTransform = .identity, opacity: Double = 1, width: Int, height: Int) -> Path {
        Path(PathGeometry(subpaths: subpaths), transform: transform, role: .fill(rule), paint: paint, opacity: opacity, width: width, height: height)
    }

    static func list(_ width: Int, _ height: Int, _ primitives: [any Primitive], background: RGBA = RGBA(0, 0, 0, 0)) -> DrawList {
        DrawList(width: width, height: height, background: PaintColor(background),
                 items: primitives.enumerated().map { item("item\($0.offset)", $0.element) })
    }

    static func item(_ id: String, _ primitive: any Primitive) -> DrawItem {
        func open<P: Primitive>(_ p: P) -> DrawItem { DrawItem(ItemID(stringLiteral: id), p) }
        return open(primitive)
    }

    /// A random polygon of `count` points around (cx, cy), radii in `radii` (self-intersecting
    /// when the angles are shuffled).
    static func randomPolygon(_ g: inout SplitMix64, center: PathPoint, radii: ClosedRange<Double>, count: Int, shuffled: Bool) -> Subpath {
        var angles = (0..<count).map { Double($0) / Double(count) * 2 * .pi + g.next(in: 0...0.3) }
        if shuffled {
            for i in stride(from: angles.count - 1, to: 0, by: -1) { angles.swapAt(i, g.next(below: i + 1)) }
        }
        return polygon(angles.map { a in
            let r = g.next(in: radii)
            return PathPoint(center.x + r * cos(a), center.y + r * sin(a))
        })
    }

    static func randomColor(_ g: inout SplitMix64) -> PaintColor { PaintColor(RGBA(g.next(in: 0...1), g.next(in: 0...1), g.next(in: 0...1), g.next(in: 0.3...1))) }

    /// SPEC §9's check values: pixel (0, 0) of white fills on transparent black.
    @Test func specCheckValues() throws {
        let gl = try GLRenderer()
        let square = PathGLTests.polygon([PathPoint(0.25, 0.25), PathPoint(1.25, 0.25), PathPoint(1.25, 1.25), PathPoint(0.25, 1.25)])
        let triangle = PathGLTests.polygon([PathPoint(0, 0), PathPoint(1, 0), PathPoint(0, 1)])
        let unit = PathGLTests.polygon([PathPoint(0, 0), PathPoint(1, 0), PathPoint(1, 1), PathPoint(0, 1)])
        for (subpaths, rule, coverage) in [([square], .nonzero, 0.5625), ([triangle], .nonzero, 0.5), ([unit, unit], .nonzero, 1), ([unit, unit], .evenodd, 0)]
            as [([Subpath], PathCoverage.FillRule, Double)] {
            let list = PathGLTests.list(3, 3, [PathGLTests.fill(subpaths, rule, width: 3, height: 3)])
            let alpha = Int(try gl.render(list)[0, 0].a)
            #expect(abs(alpha - Int((coverage * 255 + 0.5).rounded(.down))) <= 1, "\(rule) \(coverage): alpha \(alpha)")
            try assertMatches([list], label: "check value \(coverage)", renderer: gl)
        }
    }

    /// Random polygons, holes (a reversed inner ring) and self-intersections, both rules, some
    /// partly off the canvas, several per frame, in one stack of frames.
    @Test func randomPolygonsInAStackMatchTheReference() throws {
        var g = SplitMix64(seed: 0x9A7B)
        var lists: [DrawList] = []
        for _ in 0..<12 {
            let (w, h) = (72, 56)
            var items: [any Primitive] = []
            for _ in 0..<4 {
                let center = PathPoint(g.next(in: -15...87), g.next(in: -15...71))
                var subpaths = [PathGLTests.randomPolygon(&g, center: center, radii: 8...30, count: 3 + g.next(below: 12), shuffled: g.nextUnit() < 0.5)]
                if g.nextUnit() < 0.5 {
                    let hole = PathGLTests.randomPolygon(&g, center: center, radii: 2...7, count: 5, shuffled: false)
                    subpaths.append(PathGLTests.polygon(([hole.start] + hole.segments.map(\.end)).reversed()))
                }
                items.append(PathGLTests.fill(subpaths, g.nextUnit() < 0.5 ? .nonzero : .evenodd, paint: .solid(PathGLTests.randomColor(&g)),
                                              opacity: g.next(in: 0.2...1), width: w, height: h))
            }
            lists.append(PathGLTests.list(w, h, items, background: RGBA(0.1, 0.2, 0.3, g.next(in: 0...1))))
        }
        try assertMatches(lists, label: "random polygons")
    }

    /// Curves: circles and a star of cubics, large enough to span many bands, on a larger canvas.
    @Test func largeCurvedPathsOverManyBandsMatchTheReference() throws {
        let (w, h) = (240, 200)
        func circle(_ c: PathPoint, _ r: Double, clockwise: Bool = true) -> Subpath {
            let k = 0.5522847498 * r * (clockwise ? 1 : -1)
            let p = [PathPoint(c.x + r, c.y), PathPoint(c.x, c.y + (clockwise ? r : -r)), PathPoint(c.x - r, c.y),
                     PathPoint(c.x, c.y - (clockwise ? r : -r))]
            var segments: [PathSegment] = []
            for i in 0..<4 {
                let a = p[i], b = p[(i + 1) % 4]
                let ta = PathPoint(-(a.y - c.y), a.x - c.x), tb = PathPoint(-(b.y - c.y), b.x - c.x)
                segments.append(.cubic(a + (k / r) * ta, b - (k / r) * tb, to: b))
            }
            return Subpath(start: p[0], segments: segments, closed: true)
        }
        let star = PathGLTests.polygon((0..<11).map { k in
            let a = Double(k) * 4 * .pi / 11
            return PathPoint(120 + 115 * cos(a), 100 + 115 * sin(a))
        })
        let lists = [
            PathGLTests.list(w, h, [PathGLTests.fill([circle(PathPoint(120, 100), 90), circle(PathPoint(120, 100), 40, clockwise: false)], width: w, height: h)]),
            PathGLTests.list(w, h, [PathGLTests.fill([star], .evenodd, paint: .solid(PaintColor(RGBA(0.9, 0.3, 0.1, 0.8))), width: w, height: h),
                                    PathGLTests.fill([star], .nonzero, paint: .solid(PaintColor(RGBA(0.1, 0.3, 0.9, 0.5))),
                                                     transform: PathTransform(a: 0.8, b: 0.3, c: -0.2, d: 0.9, tx: 30, ty: -10), width: w, height: h)]),
        ]
        // Far off the canvas on every side: clipped to the bounds in double before single precision.
        let huge = PathGLTests.polygon([PathPoint(-1e5, -3), PathPoint(1e5, 20.3), PathPoint(30.5, 1e5), PathPoint(-2e4, 7e4)])
        let far = PathGLTests.list(60, 50, [PathGLTests.fill([huge], .evenodd, paint: .solid(PaintColor(RGBA(0.3, 0.6, 0.9, 0.7))), width: 60, height: 50)])
        try assertMatches(lists + [far], label: "large curved paths")
    }

    /// Edges on the tiles' edges and rows (PathGLItem.tileWidth × tileHeight), and path.glsl's
    /// tile size the same as the row's.
    @Test func edgesOnTileEdgesMatchTheReference() throws {
        let source = try #require(ShaderLibrary.embedded.sources["path.glsl"])
        #expect(source.contains("const int PATH_TILE_WIDTH = \(PathGLItem.tileWidth);"))
        #expect(source.contains("const int PATH_TILE_HEIGHT = \(PathGLItem.tileHeight);"))
        let (w, h) = (70, 30)
        let exact = PathGLTests.polygon([PathPoint(16, 4), PathPoint(48, 4), PathPoint(48, 12), PathPoint(32, 12), PathPoint(32, 24), PathPoint(16, 24)])
        let slanted = PathGLTests.polygon([PathPoint(0, 0), PathPoint(64, 8), PathPoint(16, 28), PathPoint(3.5, 16)])
        let lists = [PathGLTests.list(w, h, [PathGLTests.fill([exact], width: w, height: h)]),
                     PathGLTests.list(w, h, [PathGLTests.fill([slanted, exact], .evenodd, paint: .solid(PaintColor(RGBA(1, 0.5, 0, 0.9))), width: w, height: h)])]
        try assertMatches(lists, label: "edges on tile edges")
    }

    /// A stack whose paths need more texels than the driver's textures hold is a usage error
    /// naming the limit.
    @Test func pathsBeyondTheTextureAreAUsageError() throws {
        let context = try GLPlatform.osmesa.makeContext()
        let pass = try BoxesPass(context, library: .embedded, maxTexels: 2048, renderer: "a small driver")
        let ring = PathGLTests.polygon((0..<3000).map { k in
            PathPoint(50 + 45 * cos(Double(k) / 3000 * 2 * .pi), 50 + 45 * sin(Double(k) / 3000 * 2 * .pi))
        })
        let frame = GLFrame(PathGLTests.list(100, 100, [PathGLTests.fill([ring], width: 100, height: 100)]))
        let error = #expect(throws: ThrobberError.self) {
            try pass.draw([frame], plans: [LayerPlan(frame)], width: 100, height: 100, resolution: (100, 100))
        }
        #expect(error?.kind == .usage)
        #expect(error?.message.contains("at most 2048 in a stack on a small driver") == true, "\(error?.message ?? "")")
    }

    /// Paths over and under each other and a disc and boxes: the boxes pass paints each pixel's
    /// whole stack, in paint order.
    @Test func pathsStackedWithDiscsAndBoxesMatchTheReference() throws {
        var g = SplitMix64(seed: 0xD15C)
        var lists: [DrawList] = []
        for _ in 0..<6 {
            let (w, h) = (64, 64)
            var items: [any Primitive] = [Disc(centerX: g.next(in: 10...54), centerY: g.next(in: 10...54), radius: g.next(in: 5...20),
                                               color: RGBA(0.2, 0.8, 0.3, 0.9), width: w, height: h)]
            for _ in 0..<3 {
                items.append(PathGLTests.fill([PathGLTests.randomPolygon(&g, center: PathPoint(g.next(in: 0...64), g.next(in: 0...64)), radii: 6...28,
                                                                         count: 7, shuffled: true)],
                                              .evenodd, paint: .solid(PathGLTests.randomColor(&g)), width: w, height: h))
            }
            let box = QuadInstance(centerX: g.next(in: 10...54), centerY: g.next(in: 10...54), halfX: g.next(in: 3...14), halfY: g.next(in: 2...8),
                                   rotation: g.next(in: 0...6), cornerRadius: 1, color: RGBA(0.9, 0.9, 0.2, 0.7))
            items.insert(Boxes([box], width: w, height: h), at: 2)
            lists.append(PathGLTests.list(w, h, items, background: RGBA(1, 1, 1, 1)))
        }
        try assertMatches(lists, label: "paths with discs and boxes")
    }

    /// Linear, radial and focal gradients under transforms (rotation, non-uniform scale, skew),
    /// with stops sharing an offset, at opacity below 1.
    @Test func gradientsMatchTheReference() throws {
        let (w, h) = (48, 40)
        let stops = [GradientStop(offset: 0.1, color: RGBA(1, 0, 0, 1)), GradientStop(offset: 0.5, color: RGBA(0, 1, 0, 0.5)),
                     GradientStop(offset: 0.5, color: RGBA(0, 0, 1, 1)), GradientStop(offset: 0.9, color: RGBA(1, 1, 1, 0.2))]
        let rect = PathGLTests.polygon([PathPoint(-20, -20), PathPoint(60, -20), PathPoint(60, 60), PathPoint(-20, 60)])
        let paints: [PathPaint] = [
            .linear(from: PathPoint(2, 3), to: PathPoint(30, 20), stops: stops),
            .linear(from: PathPoint(5, 5), to: PathPoint(5, 5), stops: stops),
            .radial(center: PathPoint(20, 18), radius: 15, highlight: 0, angle: 0, stops: stops),
            .radial(center: PathPoint(20, 18), radius: 15, highlight: 0.6, angle: 135, stops: stops),
            .radial(center: PathPoint(20, 18), radius: 12, highlight: -0.99, angle: 30, stops: stops),
        ]
        let transforms = [PathTransform.identity, PathTransform(a: 0.8, b: 0.5, c: -0.4, d: 1.3, tx: 6, ty: -3),
                          PathTransform(a: 1.5, b: 0, c: 0.6, d: 0.7, tx: -4, ty: 5)]
        var lists: [DrawList] = []
        for paint in paints {
            for transform in transforms {
                lists.append(PathGLTests.list(w, h, [PathGLTests.fill([rect], paint: paint, transform: transform, opacity: 0.85, width: w, height: h)],
                                              background: RGBA(0.5, 0.5, 0.5, 1)))
            }
        }
        try assertMatches(lists, label: "gradients")
    }

    /// GL against the CPU row (Path+CPU.swift, the same formulas in Swift): random fills of both
    /// rules and every paint under random transforms, with a disc and boxes, in a stack.
    @Test func randomPathsMatchTheCPURow() throws {
        var g = SplitMix64(seed: 0xC0DE)
        let stops = [GradientStop(offset: 0, color: RGBA(1, 0.2, 0, 1)), GradientStop(offset: 0.7, color: RGBA(0, 0.4, 1, 0.6)),
                     GradientStop(offset: 1, color: RGBA(0.2, 1, 0.2, 1))]
        var lists: [DrawList] = []
        for _ in 0..<10 {
            let (w, h) = (80, 60)
            var items: [any Primitive] = [Disc(centerX: g.next(in: 0...80), centerY: g.next(in: 0...60), radius: g.next(in: 4...25),
                                               color: RGBA(0.3, 0.3, 0.9, 0.8), width: w, height: h)]
            for k in 0..<5 {
                let paint: PathPaint = switch k % 3 {
                case 0: .solid(PathGLTests.randomColor(&g))
                case 1: .linear(from: PathPoint(g.next(in: -20...0), g.next(in: -20...0)), to: PathPoint(g.next(in: 0...20), g.next(in: 0...20)), stops: stops)
                default: .radial(center: PathPoint(g.next(in: -5...5), g.next(in: -5...5)), radius: g.next(in: 5...25), highlight: g.next(in: -0.9...0.9),
                                 angle: g.next(in: 0...360), stops: stops)
                }
                let transform = PathTransform(a: g.next(in: 0.6...1.4), b: g.next(in: -0.4...0.4), c: g.next(in: -0.4...0.4), d: g.next(in: 0.6...1.4),
                                              tx: g.next(in: -10...90), ty: g.next(in: -10...70))
                let shape = PathGLTests.randomPolygon(&g, center: PathPoint(0, 0), radii: 5...30, count: 4 + g.next(below: 10), shuffled: k % 2 == 1)
                items.append(PathGLTests.fill([shape], k % 2 == 0 ? .nonzero : .evenodd, paint: paint, transform: transform,
                                              opacity: g.next(in: 0.3...1), width: w, height: h))
            }
            items.insert(Boxes([QuadInstance(centerX: g.next(in: 10...70), centerY: g.next(in: 10...50), halfX: 12, halfY: 4, rotation: g.next(in: 0...6),
                                             cornerRadius: 2, color: RGBA(1, 1, 0.3, 0.7))], width: w, height: h), at: 3)
            lists.append(PathGLTests.list(w, h, items, background: RGBA(0.9, 0.9, 0.9, g.next(in: 0...1))))
        }
        let cpu = CPURenderer()
        var worst = 0
        for (index, (list, image)) in zip(lists, try GLRenderer().render(lists)).enumerated() {
            let diff = ImageDiff(expected: cpu.render(list), observed: image, tolerance: 2)
            worst = max(worst, diff.maxChannelDifference)
            #expect(diff.pixelsOverTolerance == 0, "frame \(index): \(diff.pixelsOverTolerance) pixels differ by more than 2/255\n\(diff.failureLines.joined(separator: "\n"))")
        }
        print("path GL against the CPU row: largest channel difference \(worst)/255 over \(lists.count) frames")
    }

    /// Strokes (the shared stroker's outline, read nonzero): §9's check values for a butt and a
    /// round cap, then random open and closed curves, every join and cap, dashed or not.
    @Test func strokesMatchTheReference() throws {
        func stroke(_ subpaths: [Subpath], _ style: StrokeStyle, _ w: Int, _ h: Int, _ color: PaintColor = PaintColor(RGBA(1, 1, 1, 1))) -> Path {
            Path(PathGeometry(subpaths: subpaths), role: .stroke(style), paint: .solid(color), width: w, height: h)
        }
        let line = Subpath(start: PathPoint(2, 0.5), segments: [.line(to: PathPoint(6, 0.5))])
        let checks = try GLRenderer().render([StrokeCap.butt, .round].map { PathGLTests.list(9, 2, [stroke([line], StrokeStyle(width: 1, cap: $0), 9, 2)]) })
        for (image, capAlpha) in zip(checks, [0, Int((0.3895 * 255).rounded())]) {
            #expect((2...5).allSatisfy { image[$0, 0].a == 255 } && (0..<9).allSatisfy { image[$0, 1].a == 0 } && image[0, 0].a == 0)
            #expect(abs(Int(image[1, 0].a) - capAlpha) <= 2 && abs(Int(image[6, 0].a) - capAlpha) <= 2, "cap alpha \(image[1, 0].a), \(image[6, 0].a)")
        }
        var g = SplitMix64(seed: 0x57)
        var lists: [DrawList] = []
        for n in 0..<8 {
            let (w, h) = (64, 48)
            let start = PathPoint(g.next(in: 0...64), g.next(in: 0...48))
            func point() -> PathPoint { PathPoint(g.next(in: -5...69), g.next(in: -5...53)) }
            let curve = Subpath(start: start, segments: [.cubic(point(), point(), to: point()), .line(to: point()), .cubic(point(), point(), to: point())],
                                closed: n % 2 == 1)
            let style = StrokeStyle(width: g.next(in: 0.5...9), join: StrokeJoin.allCases[n % 3], cap: StrokeCap.allCases[(n / 3) % 3],
                                    dash: n % 4 == 3 ? [g.next(in: 2...12), g.next(in: 1...6)] : [], dashOffset: g.next(in: -5...5))
            lists.append(PathGLTests.list(w, h, [stroke([curve], style, w, h, PathGLTests.randomColor(&g))], background: RGBA(0, 0, 0, 1)))
        }
        try assertMatches(lists, label: "strokes")
    }

    /// A path kept by identity over a stack's frames (laid out once), then moved, then drawn
    /// again by the same renderer alone: each where it is.
    @Test func keptAndMovedPathsDrawTheSame() throws {
        let gl = try GLRenderer()
        let triangle = PathGLTests.polygon([PathPoint(3, 4), PathPoint(40, 9), PathPoint(12, 30)])
        let frames = [PathTransform.identity, .identity, PathTransform(a: 1, b: 0, c: 0, d: 1, tx: 5.3, ty: 2.6)].map { t in
            PathGLTests.list(48, 36, [PathGLTests.fill([triangle], transform: t, width: 48, height: 36)])
        }
        try assertMatches(frames + [frames[0]], label: "kept and moved", renderer: gl)
    }
}
