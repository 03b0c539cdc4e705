import Throbber

// The image's row (Throbber/DrawList/Primitives/Bitmap.swift, SPEC §11): one instanced quad over
// its bounds, drawn by the boxes pass (or among a layered frame's records), each pixel mixing four
// texels of the image texture (BitmapTextures, bound by the boxes pass) in float; its map px →
// image space lies in the path data texture. Its GLSL is Shaders/Primitives/bitmap.glsl, which
// describes both layouts.

extension Bitmap: GLPrimitive {
    static let shaderFile = "bitmap.glsl"
    /// The colour carries everything (its alpha is the image's times the opacity): inside its
    /// bounds a record covers its pixels whole.
    static let recordCoverage: String? = "1.0"
    static let recordColor: String? = "bitmapColor(p, head.w, b)"
    static let recordKind = GLPrimitiveRows.recordKind(of: Bitmap.self)
    static let quadIsBounds = true

    /// Its numbers, worked out once (`BitmapGLItem`).
    func prepareGL() -> any GLItem { BitmapGLItem(self) }
}

/// An image as the boxes pass draws it: its bounds, pixels, T⁻¹'s texels and opacity; a class,
/// so that a stack lays out the data of an image its frames share once (`FrameStack.addPathData`).
final class BitmapGLItem: GLItem {
    let bounds: PixelRect
    let pixels: BitmapPixels
    let opacity: Float
    /// T⁻¹ as two texels of path data: (a, b, c, d), (tx, ty, 0, 0).
    let data: [Float]

    init(_ bitmap: Bitmap) {
        bounds = bitmap.bounds
        pixels = bitmap.pixels
        opacity = bitmap.opacity
        let m = bitmap.inverse ?? .identity
        data = [m.a, m.b, m.c, m.d, m.tx, m.ty, 0, 0].map { Float($0) }
    }

    func addLayers(to plan: inout LayerPlan, index: Int) { plan.leaveToBoxesPass(index) }

    /// One record: head = (kind, cx, cy, first data texel), a = (halfX, halfY, 1, 0) (the
    /// instance's quad, grown by BOX_QUAD_GROWTH, covers the bounds exactly), b = (first row of
    /// the image texture, opacity, width, height): the row is placed once the stack's images are
    /// (`FrameStack.placeBitmaps`).
    func addRecords(to stack: inout FrameStack, asInstances: Bool) {
        guard !bounds.isEmpty else { return }
        let growth = Antialiasing.boxQuadGrowth
        let halfX = Float(bounds.x1 - bounds.x0) / 2, halfY = Float(bounds.y1 - bounds.y0) / 2
        let first = stack.addPathData(data, owner: self)
        let number = stack.addBitmap(pixels)
        stack.addRecord(kind: Bitmap.recordKind,
                        [Float(bounds.x0) + halfX, Float(bounds.y0) + halfY, Float(first), halfX - growth, halfY - growth, 1, 0,
                         0, opacity, Float(pixels.width), Float(pixels.height)],
                        PaintColor(.clear), bounds, nil, isBox: false, instance: asInstances)
        stack.readsBitmap(record: stack.recordCount - 1, number: number)
    }
}
