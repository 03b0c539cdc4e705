import Foundation

/// Backend-neutral primitives for one frame, in paint order, in pixels.
///
/// Geometry and animation are computed in Swift (double precision) before a renderer sees this;
/// the values here are the single-precision numbers both renderers consume, so GL and CPU start
/// from identical inputs and only their rasterisation can differ.
public struct DrawList: Sendable, Equatable {
    /// Canvas width in pixels.
    public var width: Int
    /// Canvas height in pixels.
    public var height: Int
    /// The colour every pixel starts with (straight alpha).
    public var background: PaintColor
    /// What to paint, first to last, source-over.
    public var items: [DrawItem]

    /// Creates a draw list.
    public init(width: Int, height: Int, background: PaintColor, items: [DrawItem]) {
        self.width = width
        self.height = height
        self.background = background
        self.items = items
    }
}

/// A colour as the renderers take it: straight-alpha sRGB components in single precision.
public struct PaintColor: Sendable, Equatable {
    public var r: Float
    public var g: Float
    public var b: Float
    public var a: Float

    /// Converts a scene colour.
    public init(_ color: RGBA) {
        r = Float(color.r)
        g = Float(color.g)
        b = Float(color.b)
        a = Float(color.a)
    }
}

/// A pixel rectangle, half-open: x in [x0, x1), y in [y0, y1). A renderer shades exactly the pixels
/// whose centres lie inside it; outside it the primitive's coverage is zero.
public struct PixelRect: Sendable, Equatable {
    public var x0: Int
    public var y0: Int
    public var x1: Int
    public var y1: Int

    /// The pixels touched by the real rectangle [minX, maxX] × [minY, maxY] grown by `margin`,
    /// clipped to a `width` × `height` canvas.
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double, margin: Double = 1, width: Int, height: Int) {
        func clampedFloor(_ v: Double, _ limit: Int) -> Int { Int(max(0, min(Double(limit), (v - margin).rounded(.down)))) }
        func clampedCeil(_ v: Double, _ limit: Int) -> Int { Int(max(0, min(Double(limit), (v + margin).rounded(.up)))) }
        x0 = clampedFloor(minX, width)
        y0 = clampedFloor(minY, height)
        x1 = clampedCeil(maxX, width)
        y1 = clampedCeil(maxY, height)
    }

    /// Whether the rectangle holds no pixel.
    public var isEmpty: Bool { x1 <= x0 || y1 <= y0 }

    /// A rectangle from its edges.
    public init(x0: Int, y0: Int, x1: Int, y1: Int) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
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

/// One primitive of a draw list.
public enum DrawItem: Sendable, Equatable {
    /// A filled circle (full-area pass).
    case disc(Disc)
    /// The region below a sine curve, optionally clipped to a circle and above a bottom edge.
    case wave(Wave)
    /// A stroked arc with round caps, or a full circle stroke, optionally under the angle mask.
    case arc(Arc)
    /// Rounded boxes drawn as one batch of instanced quads.
    case quads(QuadBatch)

    /// The pixels this primitive can cover.
    public var bounds: PixelRect {
        switch self {
        case .disc(let disc): return disc.bounds
        case .wave(let wave): return wave.bounds
        case .arc(let arc): return arc.bounds
        case .quads(let batch): return batch.bounds
        }
    }

    /// The ring outside which a round primitive's coverage is zero, when it has one. Renderers
    /// shade only pixels inside both this annulus and `bounds`: a disc's bounding square wastes
    /// a fifth of its pixels, a thin circle's almost all of them.
    public var annulus: Annulus? {
        switch self {
        case .disc(let d): return Annulus(centerX: d.centerX, centerY: d.centerY, inner: 0, outer: d.radius + 1)
        case .wave(let w): return w.clipRadius >= 0 ? Annulus(centerX: w.clipCenterX, centerY: w.clipCenterY, inner: 0, outer: w.clipRadius + 1) : nil
        case .arc(let a):
            let reach = a.lineWidth / 2 + 1
            return Annulus(centerX: a.centerX, centerY: a.centerY, inner: max(0, a.radius - reach), outer: a.radius + reach)
        case .quads(let batch): return batch.annulus
        }
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

/// A filled circle: coverage = fill(|p − c| − r) (SPEC §0).
public struct Disc: Sendable, Equatable {
    public var centerX: Float
    public var centerY: Float
    public var radius: Float
    public var color: PaintColor
    public var bounds: PixelRect

    public init(centerX: Double, centerY: Double, radius: Double, color: RGBA, width: Int, height: Int) {
        self.centerX = Float(centerX)
        self.centerY = Float(centerY)
        self.radius = Float(radius)
        self.color = PaintColor(color)
        bounds = PixelRect(minX: centerX - radius, minY: centerY - radius, maxX: centerX + radius,
                           maxY: centerY + radius, width: width, height: height)
    }
}

/// The region below y = amplitude·sin(k·(x − originX) + phase) + baseline, all in pixels
/// (SPEC §0 "below a curve"), intersected with an optional clip circle and an optional bottom edge.
public struct Wave: Sendable, Equatable {
    public var originX: Float
    public var amplitude: Float
    /// Radians per pixel.
    public var k: Float
    /// Radians, already reduced modulo 2π in double precision.
    public var phase: Float
    public var baseline: Float
    public var clipCenterX: Float
    public var clipCenterY: Float
    /// Negative when there is no clip circle.
    public var clipRadius: Float
    /// The anti-aliased bottom edge (inside where y < bottom); `Wave.noBottom` when there is none.
    public var bottom: Float
    public var color: PaintColor
    public var bounds: PixelRect

    /// The bottom value meaning "no bottom edge": fill(y − 1e30) is 1 for every pixel.
    public static let noBottom: Float = 1e30

    /// A wave clipped to a circle (SPEC §1 steps 2–3).
    public init(originX: Double, amplitude: Double, k: Double, phase: Double, baseline: Double,
                clipCenterX: Double, clipCenterY: Double, clipRadius: Double, color: RGBA, width: Int, height: Int) {
        self.originX = Float(originX)
        self.amplitude = Float(amplitude)
        self.k = Float(k)
        self.phase = Float(reducedPhase(phase))
        self.baseline = Float(baseline)
        self.clipCenterX = Float(clipCenterX)
        self.clipCenterY = Float(clipCenterY)
        self.clipRadius = Float(clipRadius)
        self.bottom = Wave.noBottom
        self.color = PaintColor(color)
        let top = max(clipCenterY - clipRadius, baseline - abs(amplitude))
        bounds = PixelRect(minX: clipCenterX - clipRadius, minY: top, maxX: clipCenterX + clipRadius,
                           maxY: clipCenterY + clipRadius, width: width, height: height)
    }

    /// A wave across the canvas, filled down to `bottom` (anti-aliased) or, when `bottom` is nil,
    /// to the canvas edge (SPEC §2, §3).
    public init(originX: Double, amplitude: Double, k: Double, phase: Double, baseline: Double,
                bottom: Double?, color: RGBA, width: Int, height: Int) {
        self.originX = Float(originX)
        self.amplitude = Float(amplitude)
        self.k = Float(k)
        self.phase = Float(reducedPhase(phase))
        self.baseline = Float(baseline)
        clipCenterX = 0
        clipCenterY = 0
        clipRadius = -1
        self.bottom = bottom.map(Float.init) ?? Wave.noBottom
        self.color = PaintColor(color)
        bounds = PixelRect(minX: 0, minY: baseline - abs(amplitude), maxX: Double(width),
                           maxY: bottom ?? Double(height), width: width, height: height)
    }
}

/// A stroke along a circle of radius `radius` around the centre, from clock angle `start`
/// clockwise through `sweep` radians, with round caps (SPEC §0 "arc"); a sweep ≥ 2π is a full
/// circle stroke. With a mask rotation, the SVProgressHUD angle mask multiplies the coverage (SPEC §5).
public struct Arc: Sendable, Equatable {
    public var centerX: Float
    public var centerY: Float
    public var radius: Float
    public var lineWidth: Float
    /// Clock angle (0 at 12 o'clock, clockwise), reduced modulo 2π.
    public var start: Float
    public var sweep: Float
    /// Clock angle the mask starts from, reduced modulo 2π; negative when there is no mask.
    public var maskRotation: Float
    /// The direction (cos, sin in the y-down frame) of the mask's seam, the ray from the centre
    /// at clock angle `maskRotation` where the mask jumps from 1 back to 0; computed once in
    /// double precision so both renderers put a pixel on the same side of it (SPEC §5).
    public var maskDirectionX: Float
    public var maskDirectionY: Float
    public var color: PaintColor
    public var bounds: PixelRect

    /// The sweep stored for a closed circle: clearly above 2π in any precision, so GLSL
    /// (`sweep >= TWO_PI`) and Swift take the same branch.
    public static let fullCircleSweep: Float = 8

    /// Whether the stroke is a closed circle (no caps, δ = |p − c| − R).
    public var isFullCircle: Bool { sweep >= Arc.fullCircleSweep }

    public init(centerX: Double, centerY: Double, radius: Double, lineWidth: Double, start: Double,
                sweep: Double, maskRotation: Double? = nil, color: RGBA, width: Int, height: Int) {
        self.centerX = Float(centerX)
        self.centerY = Float(centerY)
        self.radius = Float(radius)
        self.lineWidth = Float(lineWidth)
        self.start = Float(reducedPhase(start))
        self.sweep = sweep >= 2 * .pi ? Arc.fullCircleSweep : Float(sweep)
        self.maskRotation = maskRotation.map { Float(reducedPhase($0)) } ?? -1
        // Clock angle φ is θ + π/2, so the seam points at θ = φ − π/2: (sin φ, −cos φ).
        let seam = reducedPhase(maskRotation ?? 0)
        maskDirectionX = Float(sin(seam))
        maskDirectionY = Float(-cos(seam))
        self.color = PaintColor(color)
        let reach = radius + lineWidth / 2
        bounds = PixelRect(minX: centerX - reach, minY: centerY - reach, maxX: centerX + reach,
                           maxY: centerY + reach, width: width, height: height)
    }
}

/// One rounded box of an instanced batch (SPEC §0 "Instanced quads").
public struct QuadInstance: Sendable, Equatable {
    public var centerX: Float
    public var centerY: Float
    /// Half extent along the box's own x axis (radial for ticks and leaves).
    public var halfX: Float
    /// Half extent along the box's own y axis (tangential).
    public var halfY: Float
    /// The angle θ the box's x axis points at (y-down frame, clockwise).
    public var rotation: Float
    public var cornerRadius: Float
    public var color: PaintColor

    public init(centerX: Double, centerY: Double, halfX: Double, halfY: Double, rotation: Double,
                cornerRadius: Double, color: RGBA) {
        self.centerX = Float(centerX)
        self.centerY = Float(centerY)
        self.halfX = Float(halfX)
        self.halfY = Float(halfY)
        self.rotation = Float(reducedPhase(rotation))
        self.cornerRadius = Float(cornerRadius)
        self.color = PaintColor(color)
    }

    /// The pixels the box, grown by 1 px for its anti-aliased edge, can cover.
    public func bounds(width: Int, height: Int) -> PixelRect {
        let c = abs(Double(cos(rotation)))
        let s = abs(Double(sin(rotation)))
        let hx = Double(halfX), hy = Double(halfY)
        let ex = hx * c + hy * s
        let ey = hx * s + hy * c
        return PixelRect(minX: Double(centerX) - ex, minY: Double(centerY) - ey, maxX: Double(centerX) + ex,
                         maxY: Double(centerY) + ey, margin: 2, width: width, height: height)
    }
}

/// Rounded boxes painted in order by one instanced draw call.
public struct QuadBatch: Sendable, Equatable {
    public var instances: [QuadInstance]
    /// Each instance's bounds (`QuadInstance.bounds`), computed once.
    public var instanceBounds: [PixelRect]
    /// Each instance's axis, (cos θ, sin θ) of its rotation in single precision, computed once:
    /// a renderer painting the boxes one by one needs it for every box in every band it reaches.
    public var instanceAxes: [SIMD2<Float>]
    /// The union of the instances' bounds.
    public var bounds: PixelRect
    /// A ring around the instances' centroid holding every box (1 px margin included), when it
    /// is smaller than `bounds`: tick rings and spinner leaves sit on one.
    public var annulus: Annulus?
    /// How the boxes repeat around a centre, when the scene that made them says so.
    public var ring: QuadRing?

    /// A batch of `instances`, painted in order.
    ///
    /// - Parameter ring: how the instances repeat around a centre (tick rings, spinner leaves):
    ///   instance i must be `ring.base` turned by `ring.slots[i]` steps.
    public init(_ instances: [QuadInstance], ring: QuadRing? = nil, width: Int, height: Int) {
        self.instances = instances
        self.ring = ring
        instanceBounds = instances.map { $0.bounds(width: width, height: height) }
        instanceAxes = instances.map { SIMD2(cos($0.rotation), sin($0.rotation)) }
        let union = PixelRect.union(instanceBounds)
        bounds = union
        annulus = nil
        guard !instances.isEmpty else { return }
        let cx = instances.map { Double($0.centerX) }.reduce(0, +) / Double(instances.count)
        let cy = instances.map { Double($0.centerY) }.reduce(0, +) / Double(instances.count)
        var inner = Double.infinity, outer = 0.0
        for q in instances {
            let distance = ((Double(q.centerX) - cx) * (Double(q.centerX) - cx) + (Double(q.centerY) - cy) * (Double(q.centerY) - cy)).squareRoot()
            let reach = (Double(q.halfX) * Double(q.halfX) + Double(q.halfY) * Double(q.halfY)).squareRoot() + 2
            inner = min(inner, distance - reach)
            outer = max(outer, distance + reach)
        }
        let ring = Annulus(centerX: Float(cx), centerY: Float(cy), inner: Float(max(0, inner)), outer: Float(outer))
        let boundsArea = Double((union.x1 - union.x0) * (union.y1 - union.y0))
        if ring.area < boundsArea { annulus = ring }
    }
}

/// Boxes that are one box turned about a centre by whole steps: a tick ring, spinner leaves.
///
/// The instances stay what is drawn (the CPU renderer paints them one by one); the ring lets a
/// renderer find the few boxes near a pixel from the pixel's angle instead of trying every box.
/// Step k turns the base box by k·2π/`steps` about the centre: its centre moves on the circle
/// through the base's centre and its rotation grows by the same angle.
public struct QuadRing: Sendable, Equatable {
    /// The centre the boxes turn about (px).
    public var centerX: Float
    public var centerY: Float
    /// Steps in a full turn (at least 1).
    public var steps: Int
    /// The box at step 0 (its colour is not used).
    public var base: QuadInstance
    /// Each instance's step, in instance order.
    public var slots: [Int]

    /// Creates a ring description.
    public init(centerX: Double, centerY: Double, steps: Int, base: QuadInstance, slots: [Int]) {
        self.centerX = Float(centerX)
        self.centerY = Float(centerY)
        self.steps = steps
        self.base = base
        self.slots = slots
    }
}

/// `angle` reduced to [0, 2π) in double precision, so a phase a day into an animation reaches
/// single precision as exactly as frame 0's (docs/spec.md §0 "Time").
public func reducedPhase(_ angle: Double) -> Double {
    let twoPi = 2 * Double.pi
    let r = angle - twoPi * (angle / twoPi).rounded(.down)
    return r >= twoPi ? 0 : r
}
