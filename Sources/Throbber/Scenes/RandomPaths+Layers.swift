import Foundation

/// How the `paths` scene wraps its random paths in random layers (SPEC §10) when `layers` > 0:
/// from a generator of its own, so that the paths of a seed are the same with or without layers
/// (and a case drawn before layers existed draws the same image at `layers` 0, the default).
extension RandomPaths {
    /// The deepest nesting of the random layers (content and matte sources counted).
    public static let deepestLayer = 4

    /// `items` with `layers` random layers wrapped around runs of them at phase `turn`: each takes
    /// a run of the items painted so far (earlier layers included, so layers nest), with up to
    /// three masks of every mode (inverted or not, opacity 1, 0 or between), a track matte of
    /// every mode from a layer of its own random path (sometimes masked) in a third of them,
    /// and an opacity of 1, 0 or between. Every choice is drawn before time or the canvas is
    /// looked at, so a seed draws the same layers at every frame and scale.
    func layered(_ items: [DrawItem], turn: Double, canvas: PathSpec.Canvas) -> [DrawItem] {
        guard layers > 0 else { return items }
        var random = SplitMix64(seed: SplitMix64.mix(UInt64(seed) &+ 0x4C41_5945_5253))
        var items = items
        func opacity() -> Double {
            let u = random.nextUnit()
            return u < 0.5 ? 1 : u < 0.55 ? 0 : (random.nextUnit() * 1000).rounded() / 1000
        }
        func masks() -> [LayerMask] {
            (0..<random.next(below: 4)).map { _ in
                let spec = PathSpec.random(&random, segments: max(1, segments), strokeWidth: strokeWidth)
                let mode = LayerMask.Mode.allCases[random.next(below: LayerMask.Mode.allCases.count)]
                return LayerMask(spec.geometry, transform: spec.transform(turn: turn, canvas: canvas), mode: mode,
                                 inverted: random.chance(0.3), opacity: opacity())
            }
        }
        for number in 0..<layers {
            let first = random.next(below: max(1, items.count))
            let end = min(items.count, first + 1 + random.next(below: 3))
            let ownMasks = masks()
            var matte: LayerMatte?
            if random.chance(1.0 / 3) {
                let mode = LayerMatte.Mode.allCases[random.next(below: LayerMatte.Mode.allCases.count)]
                let spec = PathSpec.random(&random, segments: max(1, segments), strokeWidth: strokeWidth)
                let content = spec.items(index: 1000 + number, turn: turn, canvas: canvas)
                let source = Layer(content: content, masks: random.chance(0.3) ? masks() : [], opacity: opacity(),
                                   width: canvas.width, height: canvas.height)
                matte = LayerMatte(mode, source: source)
            }
            let layer = Layer(content: Array(items[first..<end]), masks: ownMasks, matte: matte, opacity: opacity(),
                              width: canvas.width, height: canvas.height)
            guard first < end, layer.depth <= RandomPaths.deepestLayer else { continue }
            items.replaceSubrange(first..<end, with: [DrawItem(ItemID("layer\(number)"), layer)])
        }
        return items
    }
}
