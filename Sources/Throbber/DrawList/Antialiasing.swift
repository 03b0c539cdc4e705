/// How far anti-aliasing reaches, named once for the core, both renderers and the GLSL (which
/// gets these as `#define`s: `GLRenderer`'s shader preamble).
///
/// SPEC §0: fill(d) = clamp(reach − d, 0, 1) ramps over one pixel centred on the edge, so
/// coverage is exactly 1 at d ≤ −reach and exactly 0 at d ≥ reach; stroke uses the same reach.
/// Bounds grow past an edge by the reach plus room for their own rounding.
public enum Antialiasing {
    /// Half a pixel: the 0.5 of fill(d) and stroke(δ, w) (`fillCoverage` in both renderers).
    @inlinable public static var reach: Float { 0.5 }
    /// What a primitive's bounds and annulus grow by past its edge (px): the reach, and as much
    /// again for the rounding of the bounds themselves.
    @inlinable public static var boundsMargin: Double { 1 }
    /// What a rounded box's bounds grow by past its rotated extent (px): `boundsMargin`, and as
    /// much again since the extent itself is rounded (cos and sin in single precision).
    @inlinable public static var boxBoundsMargin: Double { 2 }
    /// What a box's quad grows by along each of its axes in boxes.vert (px): twice the reach.
    @inlinable public static var boxQuadGrowth: Float { 2 * reach }
}
