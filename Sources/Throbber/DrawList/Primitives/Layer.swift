/// SPEC §10: content drawn into a buffer of its own, multiplied by mask value m, matte value q and
/// opacity, then source-over.
///
/// The buffer is premultiplied floating point, cleared to 0; the content (any primitives, nested
/// layers included) is painted into it in order, then every pixel's four channels are multiplied
/// by m (the masks, in order: `LayerMask`), then by q (the track matte: `LayerMatte`), then by the
/// opacity, and the result is painted onto what is below by §0's source-over. Nothing is
/// quantised before the final image. Both renderers follow the same order of multiplications.
///
/// The masks are §9 fills (`nonzero`) of their paths in px: each becomes a `Path` here
/// (`maskPaths`), so both rows read a mask's coverage through the Path rows' own code.
public struct Layer: Primitive {
    public static let kind = "Layer"
    public static let noun = (one: "layer", many: "layers")
    /// The most layers one pixel can be inside at once (nested content and matte sources
    /// counted): GL keeps a register per level (boxes.frag's LAYER_DEPTH).
    public static let maximumDepth = 16

    /// In paint order; may hold any primitive, nested layers included.
    public let content: [DrawItem]
    /// In order; the caller has already dropped `none` masks.
    public let masks: [LayerMask]
    public let matte: LayerMatte?
    /// 0…1.
    public let opacity: Float
    /// Each mask's path as the rows fill it: `nonzero`, opaque white, so that its coverage is the
    /// alpha it paints on a clear buffer.
    public let maskPaths: [Path]
    /// The content's bounds cut by what the masks and matte make certainly 0 (`Layer.reach`).
    public let bounds: PixelRect
    /// How many layers deep a pixel of it goes: 1, plus the deepest of its content's layers and
    /// its matte source.
    public let depth: Int

    /// `content` drawn as a layer of a `width` × `height` canvas, with `masks`, `matte` and
    /// `opacity` (clamped to 0…1); the masks' outlines taken from `cache` when it holds them.
    public init(content: [DrawItem], masks: [LayerMask] = [], matte: LayerMatte? = nil, opacity: Double = 1, width: Int, height: Int,
                cache: PathOutlineCache? = nil) {
        self.content = content
        self.masks = masks
        self.matte = matte
        self.opacity = Float(min(max(opacity.isNaN ? 0 : opacity, 0), 1))
        let white = PathPaint.solid(PaintColor(RGBA(1, 1, 1, 1)))
        maskPaths = masks.map {
            Path($0.geometry, transform: $0.transform, role: .fill(.nonzero), paint: white, width: width, height: height, cache: cache)
        }
        let canvas = PixelRect(x0: 0, y0: 0, x1: width, y1: height)
        let contentBounds = PixelRect.union(content.map(\.bounds))
        bounds = Layer.reach(contentBounds, masks: masks, maskBounds: maskPaths.map(\.bounds), matte: matte, canvas: canvas)
        let inner = content.compactMap { $0.primitive(as: Layer.self)?.depth }.max() ?? 0
        depth = 1 + max(inner, matte?.source.depth ?? 0)
    }

    /// Where m·q can be other than 0 within `content` (a superset): with a first mask `add`
    /// (m starts at 0) only inside that mask's bounds, grown by every later `add` or `difference`
    /// mask's (the whole canvas for an inverted one: outside its path c′ = 1), cut by an
    /// `intersect` of full opacity, not inverted (outside its path m·(1 − 1) = 0); `subtract` only
    /// lowers m. An `alpha` or `luma` matte is 0 outside its source's bounds; inverted mattes
    /// reach everywhere.
    static func reach(_ content: PixelRect, masks: [LayerMask], maskBounds: [PixelRect], matte: LayerMatte?, canvas: PixelRect) -> PixelRect {
        var region = canvas
        for (k, (mask, rect)) in zip(masks, maskBounds).enumerated() {
            let reached = mask.inverted ? canvas : rect
            switch mask.mode {
            case .add where k == 0: region = reached
            case .add, .difference: region = PixelRect.union([region, reached])
            case .intersect where !mask.inverted && mask.opacity >= 1: region = region.intersection(rect)
            case .intersect, .subtract: break
            }
        }
        if let matte, matte.mode == .alpha || matte.mode == .luma { region = region.intersection(matte.source.bounds) }
        return content.intersection(region)
    }

    /// Every content item's work, each mask's path and the matte source's, and one shape over the
    /// bounds for the composite.
    public var pixelWork: PixelWork {
        var work = PixelWork(bounds: [bounds])
        for part in content.map(\.primitive.pixelWork) + maskPaths.map(\.pixelWork) + [matte?.source.pixelWork ?? PixelWork()] {
            work.shapes += part.shapes
            work.pixels += part.pixels
        }
        return work
    }

    /// The chords of every path it holds — its content's, nested layers' included, its masks'
    /// and its matte source's: what building or moving their outlines costs, for a preflight.
    public var chordCount: Int {
        content.chordCount + maskPaths.reduce(0) { $0 + $1.outline.chordCount } + (matte?.source.chordCount ?? 0)
    }

    /// Equal content, masks, matte and opacity: the mask paths and bounds follow.
    public static func == (a: Layer, b: Layer) -> Bool {
        a.opacity == b.opacity && a.bounds == b.bounds && a.masks == b.masks && a.matte == b.matte && a.content == b.content
    }
}

/// One of a layer's masks (SPEC §10 "Masks"): a path in its own space with the transform that
/// places it in px, filled `nonzero` (§9 coverage c; `inverted`: c′ = 1 − c), combined into the
/// layer's mask value m by its mode at `opacity` k.
public struct LayerMask: Sendable, Hashable {
    /// How a mask combines with the masks before it (m before, c′ its coverage).
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        /// m + k·c′·(1 − m)
        case add
        /// m·(1 − k·c′)
        case subtract
        /// m·(1 − k·(1 − c′))
        case intersect
        /// m + k·c′ − 2·m·k·c′
        case difference
    }

    public let geometry: PathGeometry
    public let transform: PathTransform
    public let mode: Mode
    public let inverted: Bool
    /// k, 0…1.
    public let opacity: Float

    public init(_ geometry: PathGeometry, transform: PathTransform, mode: Mode, inverted: Bool = false, opacity: Double = 1) {
        self.geometry = geometry
        self.transform = transform
        self.mode = mode
        self.inverted = inverted
        self.opacity = Float(min(max(opacity.isNaN ? 0 : opacity, 0), 1))
    }
}

/// A layer's track matte (SPEC §10 "Mattes"): q from a source layer rendered into its own buffer
/// (its own masks, matte and opacity), never painted itself.
public struct LayerMatte: Sendable, Equatable {
    /// How q is read from the source's premultiplied pixel (r, g, b, a).
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        /// q = a
        case alpha
        /// q = 1 − a
        case alphaInverted
        /// q = 0.2126·r + 0.7152·g + 0.0722·b (premultiplied: the straight colour's luma times a)
        case luma
        /// q = 1 − luma
        case lumaInverted
    }

    /// The source, behind a reference: a layer holds its matte, which holds a layer.
    private final class Source: Sendable {
        let layer: Layer
        init(_ layer: Layer) { self.layer = layer }
    }

    public let mode: Mode
    private let held: Source

    /// The source layer, rendered into its own buffer, never painted itself.
    public var source: Layer { held.layer }

    public init(_ mode: Mode, source: Layer) {
        self.mode = mode
        held = Source(source)
    }

    public static func == (a: LayerMatte, b: LayerMatte) -> Bool {
        a.mode == b.mode && (a.held === b.held || a.source == b.source)
    }
}

extension PixelRect {
    /// The pixels both rectangles hold (empty when they share none).
    public func intersection(_ other: PixelRect) -> PixelRect {
        let r = PixelRect(x0: max(x0, other.x0), y0: max(y0, other.y0), x1: min(x1, other.x1), y1: min(y1, other.y1))
        return r.isEmpty ? PixelRect(x0: 0, y0: 0, x1: 0, y1: 0) : r
    }
}

extension Array where Element == DrawItem {
    /// The chords of every path among the items, a layer's content, masks and matte source
    /// included: what building or moving their outlines costs, for a scene's preflight.
    public var chordCount: Int {
        reduce(0) { $0 + ($1.primitive(as: Path.self)?.outline.chordCount ?? $1.primitive(as: Layer.self)?.chordCount ?? 0) }
    }
}
