import Throbber

/// A layer's frame on its way to the draw list: its items, masks, clip and opacity, lowered to
/// the items themselves when nothing needs a buffer of its own, else to one `Layer` (SPEC §10).
enum LottieLayers {
    /// A mask at one frame, in px.
    struct MaskValue {
        var geometry: PathGeometry
        var transform: PathTransform
        var mode: LottieLayer.Mask.Mode
        var inverted: Bool
        var opacity: Double
    }

    struct Drawn {
        var opacity: Double
        /// Its own items (paths, an image), bottom first, named after the layer.
        var content: [DrawItem] = []
        /// A precomposition's items.
        var nested: [DrawItem] = []
        /// A precomposition's bounds, in its own space, and its placement.
        var clip: (PathGeometry, PathTransform)?
        var masks: [MaskValue] = []
        var matte: LayerMatte?
        /// Drawn with a matte whose source shows nothing: nothing of it shows.
        var hidden = false

        init(opacity: Double) { self.opacity = opacity }

        func contentItems(name: String) -> [DrawItem] {
            content + nested
        }

        /// The masks the layer is drawn through: its own, in order, then a precomposition's
        /// clip (intersected, or alone added) where its items reach beyond it.
        func layerMasks(_ items: [DrawItem]) -> [LayerMask] {
            var result = masks.map { mask in
                LayerMask(mask.geometry, transform: mask.transform, mode: LottieLayers.mode(mask.mode), inverted: mask.inverted, opacity: mask.opacity)
            }
            if let (rect, placed) = clip, !LottieLayers.inside(items, rect: rect, placed: placed) {
                result.append(LayerMask(rect, transform: placed, mode: result.isEmpty ? .add : .intersect))
            }
            return result
        }

        /// The items to paint: its own where no buffer is needed (no mask, matte or clip, and
        /// full opacity or a single path), else one `Layer`.
        func items(name: String, width: Int, height: Int, cache: PathOutlineCache?) -> [DrawItem] {
            guard !hidden, opacity > 0 else { return [] }
            let items = contentItems(name: name)
            guard !items.isEmpty else { return [] }
            let masks = layerMasks(items)
            if masks.isEmpty, matte == nil {
                if opacity >= 1 { return items }
                if nested.isEmpty, content.count == 1, let p = content[0].primitive(as: Path.self) {
                    return [DrawItem(items[0].id, Path(p.geometry, transform: p.transform, role: p.role, trim: p.trim, paint: p.paint,
                                                       opacity: Double(p.opacity) * opacity, width: width, height: height, cache: cache))]
                }
            }
            return [DrawItem(ItemID(name), Layer(content: items, masks: masks, matte: matte, opacity: opacity, width: width, height: height,
                                                 cache: cache))]
        }

        /// The layer as a matte's source: always one `Layer` (never painted itself).
        func asLayer(name: String, width: Int, height: Int, cache: PathOutlineCache?) -> Layer? {
            guard !hidden else { return nil }
            let items = contentItems(name: name)
            return Layer(content: items, masks: layerMasks(items), matte: matte, opacity: opacity, width: width, height: height, cache: cache)
        }
    }

    /// `target` drawn through the matte `source` makes (nil: a source outside its time, which
    /// shows nothing: an alpha or luma matte hides the target, an inverted one leaves it whole).
    static func matted(_ target: Drawn, mode: LottieLayer.MatteMode, source: Drawn?, name: String, width: Int, height: Int,
                       cache: PathOutlineCache?) -> Drawn {
        var result = target
        guard let layer = source?.asLayer(name: "\(name)m", width: width, height: height, cache: cache), !layer.content.isEmpty else {
            if mode == .alpha || mode == .luma { result.hidden = true }
            return result
        }
        let modes: [LottieLayer.MatteMode: LayerMatte.Mode] = [.alpha: .alpha, .alphaInverted: .alphaInverted, .luma: .luma,
                                                              .lumaInverted: .lumaInverted]
        result.matte = LayerMatte(modes[mode]!, source: layer)
        return result
    }

    static func mode(_ mode: LottieLayer.Mask.Mode) -> LayerMask.Mode {
        switch mode {
        case .add, .none: .add
        case .subtract: .subtract
        case .intersect: .intersect
        case .difference: .difference
        }
    }

    /// Whether every item lies inside the placed rectangle (an axis-aligned placement only):
    /// then a clip to it changes nothing.
    static func inside(_ items: [DrawItem], rect: PathGeometry, placed: PathTransform) -> Bool {
        guard placed.b == 0, placed.c == 0, let subpath = rect.subpaths.first else { return false }
        let corners = [subpath.start] + subpath.segments.map(\.end)
        let points = corners.map { placed.apply($0) }
        let x0 = points.map(\.x).min()!, x1 = points.map(\.x).max()!, y0 = points.map(\.y).min()!, y1 = points.map(\.y).max()!
        return items.allSatisfy { item in
            let b = item.bounds
            return b.isEmpty || (Double(b.x0) >= x0 && Double(b.x1) <= x1 && Double(b.y0) >= y0 && Double(b.y1) <= y1)
        }
    }
}
