import Foundation
import Throbber

/// A Lottie animation's frame as draw-list items (docs/lottie.md): layers bottom first, each
/// at its own time (start time and stretch), placed by its parents' transforms and its own, its
/// shapes lowered to `Path` items; a layer with masks, a matte, a precomposition's clip or an
/// opacity over several items becomes one `Layer` item (SPEC §10) holding them.
struct LottieEvaluator {
    let animation: LottieAnimation
    /// px per pt.
    let scale: Double
    let width: Int
    let height: Int
    let cache: PathOutlineCache?
    /// Image assets' pixels by id.
    let images: [String: BitmapPixels]

    /// The most copies one repeater makes.
    static let mostRepeaterCopies = 1000

    /// The items of Lottie frame `frame` of the main composition.
    func items(at frame: Double) -> [DrawItem] {
        composition(animation.layers, at: frame, placed: .scaling(scale, scale), prefix: "L", depth: 0)
    }

    /// A composition's layers at `frame` (its own frames), under `outer` (the composition's
    /// space to px), bottom first.
    func composition(_ layers: [LottieLayer], at frame: Double, placed outer: PathTransform, prefix: String, depth: Int) -> [DrawItem] {
        guard depth <= LottieLimits.precompositionDepth else { return [] }
        var byIndex: [Int: Int] = [:]
        for (k, layer) in layers.enumerated() { if let index = layer.index, byIndex[index] == nil { byIndex[index] = k } }
        var items: [DrawItem] = []
        for k in layers.indices.reversed() {
            let layer = layers[k]
            guard !layer.hidden, !layer.isMatteSource else { continue }
            let matteSource: Int?
            if let matte = layer.matte {
                matteSource = matte.source.flatMap { byIndex[$0] } ?? (k > 0 ? k - 1 : nil)
            } else {
                matteSource = nil
            }
            let name = "\(prefix)\(k)"
            guard var drawn = self.layer(layer, in: layers, byIndex: byIndex, at: frame, placed: outer, name: name, depth: depth) else { continue }
            if let matte = layer.matte {
                let source = matteSource.flatMap {
                    self.layer(layers[$0], in: layers, byIndex: byIndex, at: frame, placed: outer, name: "\(name)m", depth: depth)
                }
                drawn = LottieLayers.matted(drawn, mode: matte.mode, source: source, name: name, width: width, height: height, cache: cache)
            }
            items += drawn.items(name: name, width: width, height: height, cache: cache)
        }
        return items
    }

    /// One layer at composition frame `frame`: nil when it is outside its in and out points.
    func layer(_ layer: LottieLayer, in layers: [LottieLayer], byIndex: [Int: Int], at frame: Double, placed outer: PathTransform,
               name: String, depth: Int) -> LottieLayers.Drawn? {
        guard frame >= layer.inPoint, frame < layer.outPoint else { return nil }
        let local = (frame - layer.startTime) / layer.stretch
        let own = LottieTransformValue(layer, at: local)
        var matrix = own.matrix
        var parent = layer.parent
        var steps = 0
        while let index = parent, let k = byIndex[index], steps < LottieLimits.parentDepth {
            let p = layers[k]
            matrix = LottieTransformValue(p, at: (frame - p.startTime) / p.stretch).matrix.concatenating(matrix)
            parent = p.parent
            steps += 1
        }
        let toPixels = outer.concatenating(matrix)
        var drawn = LottieLayers.Drawn(opacity: own.opacity)
        switch layer.content {
        case .null: return nil
        case let .solid(color, w, h):
            drawn.content = [DrawItem(ItemID("\(name).solid"), Path(LottieGeometry.box(width: w, height: h), transform: toPixels, role: .fill(.nonzero),
                                                            paint: .solid(PaintColor(color)), width: width, height: height, cache: cache))]
        case .shapes(let shapes):
            var evaluator = LottieShapeEvaluator(frame: local)
            evaluator.evaluate(shapes, name: "s")
            drawn.content = LottieLowering.paths(evaluator, placed: toPixels, width: width, height: height, cache: cache)
                .map { DrawItem(ItemID("\(name).\($0.name)"), $0.primitive) }
        case .image(let asset):
            // The image's pixels stretched over the asset's w × h from the layer's origin (the
            // pixels carry a border of one texel, LottieImages.padded), clipped to that rectangle.
            guard let pixels = images[asset], let info = animation.imageAssets[asset], pixels.width > 2, pixels.height > 2 else { return nil }
            let sx = info.width / Double(pixels.width - 2), sy = info.height / Double(pixels.height - 2)
            let placed = toPixels.concatenating(.scaling(sx, sy)).concatenating(.translation(-1, -1))
            drawn.content = [DrawItem(ItemID("\(name).image"), Bitmap(pixels, transform: placed, opacity: 1, width: width, height: height))]
            drawn.clip = (LottieGeometry.box(width: info.width, height: info.height), toPixels)
        case let .precomposition(asset, w, h, timeRemap):
            guard let inner = animation.compositions[asset] else { return nil }
            let innerFrame = timeRemap.map { $0.value(at: local) * animation.frameRate } ?? local
            let items = composition(inner, at: innerFrame, placed: toPixels, prefix: "\(name)/", depth: depth + 1)
            drawn.nested = items
            if w > 0, h > 0 {
                drawn.clip = (LottieGeometry.box(width: w, height: h), toPixels)
            }
        }
        for mask in layer.masks where mask.mode != .none {
            drawn.masks.append(LottieLayers.MaskValue(geometry: LottieShapeEvaluator.geometry(mask.path.value(at: local)), transform: toPixels,
                                                      mode: mask.mode, inverted: mask.inverted,
                                                      opacity: LottieShapeEvaluator.percent(mask.opacity.value(at: local))))
        }
        return drawn
    }
}
