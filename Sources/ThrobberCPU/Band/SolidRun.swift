/// Columns [lo, hi) of a row that all hold one premultiplied value, kept as a run instead of
/// in the accumulators (which are not written there).
struct SolidRun {
    var lo: Int32
    var hi: Int32
    var value: SIMD4<Float>
}
