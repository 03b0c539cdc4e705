import Foundation
import Throbber

/// One primitive of a file scene's frame, evaluated in points with every transform, opacity and
/// tint folded in: what a DrawList row receives once scaled to pixels (docs/scene-files.md §8).
///
/// Angles are radians: a box's rotation clockwise from +x, an arc's start and mask rotation as
/// clock angles (0 at 12 o'clock, clockwise).
public enum ScenePrimitive: Sendable, Equatable {
    /// A filled circle.
    case disc(centerX: Double, centerY: Double, radius: Double, color: RGBA)
    /// A rounded box (one instance of a quad batch).
    case box(centerX: Double, centerY: Double, halfX: Double, halfY: Double, rotation: Double, cornerRadius: Double, color: RGBA)
    /// A round-capped arc, or a closed circle when the sweep reaches a turn; `maskRotation` is
    /// SVProgressHUD's angle mask when given.
    case arc(centerX: Double, centerY: Double, radius: Double, width: Double, start: Double, sweep: Double,
             maskRotation: Double?, color: RGBA)
    /// A sine band: filled below y = amplitude·sin(2π(x − originX)/wavelength + phase) + baseline,
    /// down to `bottom` (or the canvas edge), optionally clipped to a circle.
    case wave(originX: Double, amplitude: Double, wavelength: Double, phase: Double, baseline: Double, bottom: Double?,
              clip: Circle?, color: RGBA)
    /// A polyline of 2 or 3 points stroked as one shape with round caps and join: its points as
    /// x0, y0, x1, y1[, x2, y2].
    case polyline(points: [Double], width: Double, color: RGBA)
    /// One box turned about a centre by whole steps of a turn, drawn in `slots` (the ring row,
    /// `BoxRing`): the box at angle 0 as an offset from the centre, half extents, rotation and
    /// corner; the angle of slot 0; steps in a turn; a colour per slot.
    case ring(centerX: Double, centerY: Double, offsetX: Double, offsetY: Double, halfX: Double, halfY: Double, boxRotation: Double,
              cornerRadius: Double, start: Double, steps: Int, slots: [Int], colors: [RGBA])
    /// Text in one role and size, its block of lines centred on (centerX, centerY): painted from
    /// the glyphs the text module laid out for the frame.
    case text(content: String, role: FontRole, size: Double, centerX: Double, centerY: Double, color: RGBA)

    /// A circle a wave is clipped to.
    public struct Circle: Sendable, Equatable {
        public var centerX: Double
        public var centerY: Double
        public var radius: Double

        public init(centerX: Double, centerY: Double, radius: Double) {
            self.centerX = centerX
            self.centerY = centerY
            self.radius = radius
        }
    }
}

/// Which copy of each enclosing replicator a primitive belongs to, outermost first (replicators
/// nest at most 2 deep): kept as numbers, made text only for the items a DrawList names.
public struct CopyPath: Sendable, Equatable {
    public var outer: Int32 = -1
    public var inner: Int32 = -1

    public init() {}

    /// This path inside one more replicator, as its copy `copy`.
    public func appending(_ copy: Int) -> CopyPath {
        var path = self
        if outer < 0 { path.outer = Int32(copy) } else { path.inner = Int32(copy) }
        return path
    }

    /// `#2`, `#2#0`, or nothing outside replicators.
    public var text: String {
        (outer < 0 ? "" : "#\(outer)") + (inner < 0 ? "" : "#\(inner)")
    }
}

/// A primitive with the node that made it and the copy it is: its id (`hud`, `dots#2`) names
/// the DrawList item.
public struct PlacedPrimitive: Sendable, Equatable {
    /// The node's id.
    public var node: String
    /// The copy of each enclosing replicator.
    public var copies: CopyPath
    public var primitive: ScenePrimitive
    /// Whether it came from a replicator: a replicated disc is drawn as a box with its corner
    /// radius equal to its half side (the same distance, |p − c| − r), so copies share one
    /// instanced batch (docs/scene-files.md §9.3).
    public var replicated: Bool

    public init(node: String, copies: CopyPath = CopyPath(), primitive: ScenePrimitive, replicated: Bool) {
        self.node = node
        self.copies = copies
        self.primitive = primitive
        self.replicated = replicated
    }

    /// The DrawList item's id: the node's, with the copy (`dots#2`).
    public var id: String { copies.outer < 0 ? node : node + copies.text }

    /// The DrawList items of a frame's primitives at `scale` (pixels per point), in paint order:
    /// consecutive boxes (and replicated discs) become one quad batch named after the first.
    public static func drawItems(_ placed: [PlacedPrimitive], scale s: Double, width w: Int, height h: Int,
                                 text: LaidOutText? = nil) -> [DrawItem] {
        var items: [DrawItem] = []
        var batch: [QuadInstance] = []
        var batchID = ""
        func flush() {
            if !batch.isEmpty { items.append(DrawItem(ItemID(batchID), Boxes(batch, width: w, height: h))) }
            batch = []
        }
        for item in placed {
            var quad: QuadInstance?
            switch item.primitive {
            case let .box(x, y, hx, hy, rotation, corner, color):
                quad = QuadInstance(centerX: x * s, centerY: y * s, halfX: hx * s, halfY: hy * s, rotation: rotation,
                                    cornerRadius: corner * s, color: color)
            case let .disc(x, y, r, color) where item.replicated:
                quad = QuadInstance(centerX: x * s, centerY: y * s, halfX: r * s, halfY: r * s, rotation: 0,
                                    cornerRadius: r * s, color: color)
            case let .disc(x, y, r, color):
                flush()
                items.append(DrawItem(ItemID(item.id), Disc(centerX: x * s, centerY: y * s, radius: r * s, color: color, width: w, height: h)))
            case let .arc(x, y, r, lineWidth, start, sweep, mask, color):
                flush()
                items.append(DrawItem(ItemID(item.id), Arc(centerX: x * s, centerY: y * s, radius: r * s, lineWidth: lineWidth * s,
                                                           start: start, sweep: sweep, maskRotation: mask, color: color, width: w, height: h)))
            case let .ring(cx, cy, ox, oy, hx, hy, boxRotation, corner, start, steps, slots, colors):
                flush()
                // One colour for the ring when every slot has it, as the built-ins give it.
                let shared = colors.allSatisfy { $0 == colors[0] } ? [colors[0]] : colors
                items.append(DrawItem(ItemID(item.id), BoxRing(centerX: cx * s, centerY: cy * s, offsetX: ox * s, offsetY: oy * s,
                                                               halfX: hx * s, halfY: hy * s, boxRotation: boxRotation, cornerRadius: corner * s,
                                                               start: start, steps: steps, slots: slots, colors: shared, width: w, height: h)))
            case let .text(_, _, _, _, _, color):
                flush()
                if let item = text?.item(ItemID(item.id), color: color, width: w, height: h) { items.append(item) }
            case let .polyline(points, lineWidth, color):
                flush()
                let segments = stride(from: 0, to: points.count - 2, by: 2).map {
                    (x0: points[$0] * s, y0: points[$0 + 1] * s, x1: points[$0 + 2] * s, y1: points[$0 + 3] * s)
                }
                items.append(DrawItem(ItemID(item.id), Strokes(segments: segments, lineWidth: lineWidth * s, color: color, width: w, height: h)))
            case let .wave(originX, amplitude, wavelength, phase, baseline, bottom, clip, color):
                flush()
                let k = 2 * Double.pi / (wavelength * s)
                let wave = clip.map {
                    Wave(originX: originX * s, amplitude: amplitude * s, k: k, phase: phase, baseline: baseline * s,
                         clipCenterX: $0.centerX * s, clipCenterY: $0.centerY * s, clipRadius: $0.radius * s, color: color,
                         width: w, height: h)
                } ?? Wave(originX: originX * s, amplitude: amplitude * s, k: k, phase: phase, baseline: baseline * s,
                          bottom: bottom.map { $0 * s }, color: color, width: w, height: h)
                items.append(DrawItem(ItemID(item.id), wave))
            }
            if let quad {
                if batch.isEmpty { batchID = item.id }
                batch.append(quad)
            }
        }
        flush()
        return items
    }
}

extension PlacedPrimitive {
    /// The text request of a frame's text primitives, nil when it paints none.
    static func textRequest(_ placed: [PlacedPrimitive], scale: Double) -> TextRequest? {
        let blocks = placed.compactMap { item -> TextBlock? in
            guard case let .text(content, role, size, x, y, _) = item.primitive else { return nil }
            let lines = content.split(separator: "\n", omittingEmptySubsequences: false).map {
                [TextPiece(String($0), role: role, size: size, textField: item.node, sizeField: item.node)]
            }
            return TextBlock(ItemID(item.id), lines: lines, centreX: x, centreY: y)
        }
        return blocks.isEmpty ? nil : TextRequest(blocks: blocks, scale: scale)
    }
}
