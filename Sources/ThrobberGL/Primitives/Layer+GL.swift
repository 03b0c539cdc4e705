import Throbber

// The layer's row (Throbber/DrawList/Primitives/Layer.swift, SPEC §10). A frame that holds a layer
// is drawn by the layered path (`BoxesPass.drawLayered`): one instance over the whole frame whose
// pixels run every record of the frame in paint order (boxes.frag with LAYERED). A layer's records
// are operations on a stack of premultiplied float registers around its content's records —
// begin (push dst, start from 0), the masks (m from each mask path's coverage, layer.glsl's
// `layerMask`), apply m, then either end (times the opacity, source-over onto the register below)
// or, for a matte source, end as matte (times its opacity, q by `layerMatte`, the register below
// times q). Nothing is quantised before the frame's one `resolvePixel`.

extension Layer: GLPrimitive {
    static let shaderFile = "layer.glsl"
    /// A layer's records are operations (boxes.frag's LAYERED loop reads them first), never painted.
    static let recordCoverage: String? = "0.0"
    static let recordKind = GLPrimitiveRows.recordKind(of: Layer.self)

    /// Its content, masks and matte source prepared by their rows (`LayerGLItem`).
    func prepareGL() -> any GLItem { LayerGLItem(self) }
}

/// A layer as the layered path draws it: the operation codes of its records (head.y) and its
/// parts prepared.
final class LayerGLItem: GLItem {
    /// head.y of a layer's records: push dst and start from 0; m = head.z; the next record is a
    /// mask (head.z its mode, head.w inverted, a.x its opacity, a.y 1 when a path record follows,
    /// else its coverage is 0 everywhere); dst ·= m; end (opacity head.z, source-over below);
    /// end as a matte (opacity head.z, mode head.w: the register below times q).
    enum Operation: Float {
        case begin = 0, masks, mask, apply, end, endAsMatte
    }

    let bounds: PixelRect
    let content: [any GLItem]
    let masks: [(path: any GLItem, mode: Float, inverted: Float, opacity: Float)]
    let matte: (mode: Float, source: LayerGLItem)?
    let opacity: Float

    init(_ layer: Layer) {
        bounds = layer.bounds
        content = layer.content.map(GLPreparedItems.prepare)
        masks = zip(layer.masks, layer.maskPaths).map { mask, path in
            (path.prepareGL(), Float(LayerMask.Mode.allCases.firstIndex(of: mask.mode)!), mask.inverted ? 1 : 0, mask.opacity)
        }
        matte = layer.matte.map { (Float(LayerMatte.Mode.allCases.firstIndex(of: $0.mode)!), LayerGLItem($0.source)) }
        opacity = layer.opacity
    }

    /// Never reached: a frame with a layer is drawn by the layered path, not the layers pass.
    func addLayers(to plan: inout LayerPlan, index: Int) { plan.leaveToBoxesPass(index) }

    func addRecords(to stack: inout FrameStack, asInstances: Bool) {
        // A layer that paints nothing leaves dst as it is: no records at all.
        guard !bounds.isEmpty else { return }
        addRecords(to: &stack, matteMode: nil)
    }

    /// Its operations and its parts' records; `matteMode`: it is the matte source of the layer
    /// whose records come before, ending as a matte of that mode (even when it paints nothing:
    /// q is read from its buffer of 0 then).
    private func addRecords(to stack: inout FrameStack, matteMode: Float?) {
        stack.addOperation(.begin)
        if !bounds.isEmpty {
            for item in content { item.addRecords(to: &stack, asInstances: false) }
            if !masks.isEmpty {
                stack.addOperation(.masks, masks[0].mode == 0 ? 0 : 1)
                for mask in masks {
                    let follows: Float = mask.path.bounds.isEmpty ? 0 : 1
                    stack.addOperation(.mask, mask.mode, mask.inverted, mask.opacity, follows)
                    if follows == 1 { mask.path.addRecords(to: &stack, asInstances: false) }
                }
                stack.addOperation(.apply)
            }
            if let matte { matte.source.addRecords(to: &stack, matteMode: matte.mode) }
        }
        if let matteMode {
            stack.addOperation(.endAsMatte, opacity, matteMode)
        } else {
            stack.addOperation(.end, opacity)
        }
    }
}

extension FrameStack {
    /// Appends one of a layer's operation records: head = (kind, operation, values…), bounds the
    /// whole frame (boxes.frag's LAYERED loop runs it at every pixel).
    mutating func addOperation(_ operation: LayerGLItem.Operation, _ values: Float...) {
        addRecord(kind: Layer.recordKind, [operation.rawValue] + values, PaintColor(.clear),
                  PixelRect(x0: 0, y0: 0, x1: width, y1: height), nil)
    }
}
