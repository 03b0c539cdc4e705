import Throbber

/// What the CPU renderer derives from one item of a frame before painting it (ThorVG's
/// `prepare → RenderData`): a wave's columns, boxes' bounds and axes, a ring's boxes. Made once per
/// frame, or kept from the frame before while the item (its identity and value) is unchanged
/// (`PreparedItems`); then read by every band, on any thread, never changed.
protocol CPUItem: AnyObject, Sendable {
    /// Whether the item can paint a pixel of `rows`.
    func reaches(rows: Range<Int>) -> Bool
    /// Paints the item over the band's rows by the fast path (`CPURenderer.shortcuts`): the
    /// coverage twin of its GLSL, with the shortcuts (solid spans, rows certainly covered) around it.
    func paint(_ band: Band)
    /// Paints it by the reference path: its coverage function at every pixel centre it can reach.
    func paintReference(_ band: Band)
    /// For an item of the same identity with a different value: whether the two paint `rows` alike
    /// (boxes: the same boxes reach them; a wave: both curves lie above them). False unless a kind
    /// knows better, which only costs a band painted again.
    func paintsTheSame(rows: Range<Int>, as other: any CPUItem) -> Bool
}

extension CPUItem {
    func paintsTheSame(rows: Range<Int>, as other: any CPUItem) -> Bool { false }
}

/// A primitive the CPU renderer paints: its row in ThrobberCPU/Primitives.
protocol CPUPrimitive: Primitive {
    /// What painting this primitive needs, worked out once.
    ///
    /// - Parameters:
    ///   - shortcuts: whether the fast path will paint it (`CPURenderer.shortcuts`).
    ///   - resources: what the draw list's items read by identity (glyphs: their atlas).
    func prepare(shortcuts: Bool, resources: DrawResources) -> any CPUItem
}

/// Something painted over the pixel centres of a rectangle and an annulus (disc, wave, arc).
protocol AreaItem: CPUItem {
    var bounds: PixelRect { get }
}

extension AreaItem {
    func reaches(rows: Range<Int>) -> Bool { bounds.reaches(rows: rows) }
}
