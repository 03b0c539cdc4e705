import Throbber

// The layer's row (Throbber/DrawList/Primitives/Layer.swift, SPEC §10): its mask and matte
// formulas, twins of Shaders/Primitives/layer.glsl under the same names, and how the CPU renderer
// paints a layer: into a band of its own (premultiplied floats, cleared to 0) over the rows being
// painted, then multiplied by m, q and the opacity in that order (as boxes.frag's LAYERED ops do),
// then painted source-over onto the band below.

/// SPEC §10 "Masks": m after one mask of mode `mode` (0 add, 1 subtract, 2 intersect,
/// 3 difference) whose path covers the pixel by `c`, `inverted` (c′ = 1 − c), at opacity `k`.
/// Twin of layer.glsl's `layerMask`.
@inline(__always) func layerMask(_ m: Float, _ c: Float, _ mode: Int, _ inverted: Bool, _ k: Float) -> Float {
    let cc = inverted ? 1 - c : c
    switch mode {
    case 0: return m + k * cc * (1 - m)
    case 1: return m * (1 - k * cc)
    case 2: return m * (1 - k * (1 - cc))
    default: return m + k * cc - 2 * m * k * cc
    }
}

/// SPEC §10 "Mattes": q from the matte source's premultiplied pixel (r, g, b, a) by `mode`
/// (0 alpha, 1 alpha inverted, 2 luma, 3 luma inverted); luma is 0.2126·r + 0.7152·g + 0.0722·b
/// of the premultiplied colour, the straight colour's luma times a. Twin of layer.glsl's `layerMatte`.
@inline(__always) func layerMatte(_ s: SIMD4<Float>, _ mode: Int) -> Float {
    let v = mode < 2 ? s[3] : 0.2126 * s[0] + 0.7152 * s[1] + 0.0722 * s[2]
    return mode == 1 || mode == 3 ? 1 - v : v
}

extension LayerMask.Mode {
    /// The number layer.glsl and `layerMask` take.
    var number: Int { LayerMask.Mode.allCases.firstIndex(of: self)! }
}

extension LayerMatte.Mode {
    /// The number layer.glsl and `layerMatte` take.
    var number: Int { LayerMatte.Mode.allCases.firstIndex(of: self)! }
}

extension Layer: CPUPrimitive {
    func prepare(shortcuts: Bool, resources: DrawResources) -> any CPUItem {
        PreparedLayer(self, shortcuts: shortcuts, resources: resources)
    }
}

/// A layer as the CPU renderer paints it: its content and mask paths prepared by their rows, its
/// matte source prepared alike, and memory for the bands it paints into (lent per band, so
/// bands on other threads paint the same layer at once).
final class PreparedLayer: AreaItem {
    let bounds: PixelRect
    let content: [any CPUItem]
    let masks: [(path: PreparedPath, mode: Int, inverted: Bool, opacity: Float)]
    let matte: (mode: Int, source: PreparedLayer)?
    let opacity: Float
    private let scratch = ScratchPool()

    init(_ layer: Layer, shortcuts: Bool, resources: DrawResources) {
        bounds = layer.bounds
        content = layer.content.map { CPURenderer.prepare($0, shortcuts: shortcuts, resources: resources) }
        masks = zip(layer.masks, layer.maskPaths).map { ($1.prepare(shortcuts: shortcuts, resources: resources) as! PreparedPath,
                                                        $0.mode.number, $0.inverted, $0.opacity) }
        matte = layer.matte.map { ($0.mode.number, PreparedLayer($0.source, shortcuts: shortcuts, resources: resources)) }
        opacity = layer.opacity
    }

    func paint(_ band: Band) { composite(band, reference: false) }

    func paintReference(_ band: Band) { composite(band, reference: true) }

    /// Paints the layer's buffer over the band, source-over: dst = s + dst·(1 − s.a). Pixels of
    /// the buffer that are 0 leave dst as it is and are skipped.
    private func composite(_ band: Band, reference: Bool) {
        let top = max(bounds.y0, band.y0), bottom = min(bounds.y1, band.y1)
        guard top < bottom, bounds.x0 < bounds.x1 else { return }
        let (buffer, storage) = render(band, reference: reference)
        defer { scratch.give(storage) }
        for y in top..<bottom {
            let r = y - band.y0
            var x = bounds.x0
            while x < bounds.x1 {
                while x < bounds.x1 && buffer.pixel(r, x) == SIMD4() { x += 1 }
                let start = x
                while x < bounds.x1 && buffer.pixel(r, x) != SIMD4() { x += 1 }
                guard start < x else { continue }
                band.cut(r, start, x, materialize: true)
                for column in start..<x {
                    let s = buffer.pixel(r, column), p = band.accum + (r * band.width + column) * 4
                    let keep = 1 - s[3]
                    p[0] = s[0] + p[0] * keep
                    p[1] = s[1] + p[1] * keep
                    p[2] = s[2] + p[2] * keep
                    p[3] = s[3] + p[3] * keep
                }
            }
        }
    }

    /// The layer's buffer over the band's rows, every pixel of the bounds' columns in the
    /// accumulators: the content painted on 0, times m, times q, times the opacity. The storage is
    /// the caller's to give back.
    func render(_ band: Band, reference: Bool) -> (Band, ScratchPool.Buffer) {
        let bytes = Band.byteCount(width: band.width, rows: band.y1 - band.y0, runCapacity: band.runCapacity)
        let storage = scratch.take(byteCount: bytes)
        let buffer = Band(width: band.width, y0: band.y0, y1: band.y1, background: PaintColor(.clear), shortcuts: band.shortcuts,
                          runCapacity: band.runCapacity, storage: storage)
        let top = max(bounds.y0, band.y0), bottom = min(bounds.y1, band.y1)
        guard top < bottom, bounds.x0 < bounds.x1 else { return (buffer, storage) }
        for item in content where item.reaches(rows: band.y0..<band.y1) {
            if reference { item.paintReference(buffer) } else { item.paint(buffer) }
        }
        let x0 = bounds.x0, x1 = bounds.x1, columns = x1 - x0
        for y in top..<bottom { buffer.cut(y - band.y0, x0, x1, materialize: true) }
        if !masks.isEmpty {
            // m per pixel of the bounds' part of the band, starting at 0 when the first mask adds.
            var m = [Float](repeating: masks[0].mode == 0 ? 0 : 1, count: (bottom - top) * columns)
            let coverage = scratch.take(byteCount: bytes)
            for mask in masks {
                let covered = Band(width: band.width, y0: band.y0, y1: band.y1, background: PaintColor(.clear), shortcuts: band.shortcuts,
                                   runCapacity: band.runCapacity, storage: coverage)
                // Opaque white on 0: the alpha painted is the path's coverage c.
                if reference { mask.path.paintReference(covered) } else { mask.path.paint(covered) }
                for y in top..<bottom {
                    covered.cut(y - band.y0, x0, x1, materialize: true)
                    for x in x0..<x1 {
                        let index = (y - top) * columns + x - x0
                        m[index] = layerMask(m[index], covered.pixel(y - band.y0, x)[3], mask.mode, mask.inverted, mask.opacity)
                    }
                }
            }
            scratch.give(coverage)
            for y in top..<bottom {
                for x in x0..<x1 { buffer.scale(y - band.y0, x, by: m[(y - top) * columns + x - x0]) }
            }
        }
        if let matte {
            let (source, sourceStorage) = matte.source.render(band, reference: reference)
            for y in top..<bottom {
                for x in x0..<x1 {
                    // Outside the source's bounds its buffer is 0 whatever its memory holds.
                    let inside = matte.source.bounds.reaches(rows: y..<(y + 1)) && x >= matte.source.bounds.x0 && x < matte.source.bounds.x1
                    buffer.scale(y - band.y0, x, by: layerMatte(inside ? source.pixel(y - band.y0, x) : SIMD4(), matte.mode))
                }
            }
            matte.source.scratch.give(sourceStorage)
        }
        if opacity != 1 {
            for y in top..<bottom {
                for x in x0..<x1 { buffer.scale(y - band.y0, x, by: opacity) }
            }
        }
        return (buffer, storage)
    }
}

extension Band {
    /// The accumulator of column `x` of band row `r` (premultiplied).
    @inline(__always)
    func pixel(_ r: Int, _ x: Int) -> SIMD4<Float> {
        UnsafeRawPointer(accum + (r * width + x) * 4).loadUnaligned(as: SIMD4<Float>.self)
    }

    /// Multiplies the accumulator of column `x` of band row `r` by `k`, all four channels.
    @inline(__always)
    func scale(_ r: Int, _ x: Int, by k: Float) {
        let p = UnsafeMutableRawPointer(accum + (r * width + x) * 4)
        p.storeBytes(of: p.loadUnaligned(as: SIMD4<Float>.self) * k, as: SIMD4<Float>.self)
    }
}
