// The path row's coverage and paint (Throbber/DrawList/Primitives/Path.swift, SPEC §9). Swift
// twins of the same names, same formulas: Sources/ThrobberCPU/Primitives/Path+CPU.swift.
//
// A path's data lies in u_paths (RGBA32F, 1024 texels a row, texel i at (i mod 1024, i / 1024);
// bound by the boxes pass), from the texel its record names (head.w), as Path+GL.swift lays it
// out: a header (paint kind, stop count, opacity, 0); for a gradient, the map px → own space
// (a, b, c, d), (tx, ty, 0, 0), its geometry (p0, p1) or (c, r, 0), (f, 0, 0), then per stop
// (offset, 0, 0, 0), (r, g, b, a); the tile table, row by row, two texels per tile of
// PATH_TILE_WIDTH × PATH_TILE_HEIGHT px: (first chord's offset, chord count, 0, 0) and its
// backdrop, per pixel row of the tile the signed area every pixel there gets from the chords
// wholly left of the tile; then the chords (x0, y0, x1, y1), px relative to the item's bounds,
// clipped to them (a part left of them made vertical on their left edge, a part right of them
// dropped) and to the tile's rows, each listed in the tiles its x range crosses.
uniform sampler2D u_paths;
// PathGLItem.tileWidth and tileHeight (Path+GL.swift).
const int PATH_TILE_WIDTH = 8;
const int PATH_TILE_HEIGHT = 4;

vec4 pathTexel(int i) { return texelFetch(u_paths, ivec2(i & 1023, i >> 10), 0); }

// The average of clamp(u, 0, 1) for u running linearly from u0 to u1 (the core's
// PathCoverage.averageClamp): the integral of the clamp over [lo, hi] divided by hi − lo, written
// so that single precision loses nothing when hi − lo is small ((b − a)·(b + a)/2 is exact where
// neither end is clamped).
float averageClamp(float u0, float u1) {
    float lo = min(u0, u1), hi = max(u0, u1);
    if (hi <= lo) return clamp(lo, 0.0, 1.0);
    float a = clamp(lo, 0.0, 1.0), b = clamp(hi, 0.0, 1.0);
    return ((b - a) * (b + a) * 0.5 + max(0.0, hi - max(lo, 1.0))) / (hi - lo);
}

// SPEC §9 "Coverage of a fill": the chord from a to b adds to pixel (i, j) = `pixel`
// sign(b.y − a.y) · ∫ clamp(i + 1 − x(y), 0, 1) dy over y in [j, j + 1] ∩ [min y, max y];
// a horizontal chord adds nothing.
float pathSegmentArea(vec2 a, vec2 b, vec2 pixel) {
    if (a.y == b.y) return 0.0;
    vec2 top = a.y < b.y ? a : b, bottom = a.y < b.y ? b : a;
    float y0 = max(top.y, pixel.y), y1 = min(bottom.y, pixel.y + 1.0);
    if (y1 <= y0) return 0.0;
    float slope = (bottom.x - top.x) / (bottom.y - top.y);
    float x0 = top.x + (y0 - top.y) * slope, x1 = top.x + (y1 - top.y) * slope;
    float area = (y1 - y0) * averageClamp(pixel.x + 1.0 - x0, pixel.x + 1.0 - x1);
    return b.y > a.y ? area : -area;
}

// SPEC §9: nonzero c = min(1, |A|); evenodd a = |A| mod 2, c = min(a, 2 − a).
float pathFillCoverage(float area, bool evenOdd) {
    if (!evenOdd) return min(1.0, abs(area));
    float a = mod(abs(area), 2.0);
    return min(a, 2.0 - a);
}

// The coverage of the pixel whose centre is p: A, its tile's backdrop for its row plus the sum
// over the chords of its tile, read by the fill rule. `origin`: the item's bounds' top left (px);
// `data`: its first texel; b = (rule (1 evenodd), tiles across, tile table's offset, 0).
float pathCoverage(vec2 p, vec2 origin, float data, vec4 b) {
    vec2 pixel = floor(p) - origin;
    ivec2 cell = ivec2(pixel) / ivec2(PATH_TILE_WIDTH, PATH_TILE_HEIGHT);
    int first = int(data);
    int tile = first + int(b.z) + 2 * (cell.y * int(b.y) + cell.x);
    vec4 entry = pathTexel(tile);
    int start = first + int(entry.x), end = start + int(entry.y);
    float area = pathTexel(tile + 1)[int(pixel.y) - cell.y * PATH_TILE_HEIGHT];
    for (int k = start; k < end; ++k) {
        vec4 chord = pathTexel(k);
        area += pathSegmentArea(chord.xy, chord.zw, pixel);
    }
    return pathFillCoverage(area, b.x > 0.5);
}

// SPEC §9 "Paints", linear: t = clamp(((q − p0)·(p1 − p0)) / |p1 − p0|², 0, 1); p0 = p1 → 1.
float linearGradientT(vec2 q, vec2 p0, vec2 p1) {
    vec2 d = p1 - p0;
    float length2 = dot(d, d);
    if (length2 == 0.0) return 1.0;
    return clamp(dot(q - p0, d) / length2, 0.0, 1.0);
}

// SPEC §9 "Paints", radial around c with radius r and focal point f: the largest t ≥ 0 with
// |q − f − t·(c − f)| = t·r, clamped to [0, 1] (f = c: |q − c| / r); r = 0 → 1. With d = c − f,
// e = q − f: (d·d − r²)·t² − 2(e·d)·t + e·e = 0, whose leading coefficient is negative (|f − c| < r).
float radialGradientT(vec2 q, vec2 c, float r, vec2 f) {
    if (r <= 0.0) return 1.0;
    if (f == c) return clamp(length(q - c) / r, 0.0, 1.0);
    vec2 d = c - f, e = q - f;
    float a = dot(d, d) - r * r, ed = dot(e, d), cc = dot(e, e);
    float t = (ed - sqrt(max(0.0, ed * ed - a * cc))) / a;
    return clamp(t, 0.0, 1.0);
}

// SPEC §9 "Paints": the colour at t of the `count` stops from texel `first` (sorted by offset;
// (offset, 0, 0, 0), (r, g, b, a) each), interpolated in straight sRGB and alpha between the two
// around t; before the first stop the first colour, after the last the last; where several share
// an offset, the last of them holds at exactly that t. No stop at all is transparent.
vec4 gradientColor(float t, int first, int count) {
    if (count == 0) return vec4(0.0);
    int k = -1;
    for (int s = 0; s < count; ++s) {
        if (pathTexel(first + 2 * s).x <= t) k = s;
    }
    if (k < 0) return pathTexel(first + 1);
    if (k == count - 1) return pathTexel(first + 2 * k + 1);
    float o0 = pathTexel(first + 2 * k).x, o1 = pathTexel(first + 2 * k + 2).x;
    return mix(pathTexel(first + 2 * k + 1), pathTexel(first + 2 * k + 3), (t - o0) / (o1 - o0));
}

// The paint's colour at the pixel centre p (SPEC §9 "Paints"), alpha times the opacity: a solid
// path's record colour (its opacity already in it), or its gradient read at q = T⁻¹(p).
vec4 pathColor(vec2 p, float data, vec4 b, vec4 color) {
    int first = int(data);
    vec4 header = pathTexel(first);
    if (header.x == 0.0) return color;
    vec4 m = pathTexel(first + 1), shift = pathTexel(first + 2), g0 = pathTexel(first + 3), g1 = pathTexel(first + 4);
    vec2 q = vec2(m.x * p.x + m.z * p.y + shift.x, m.y * p.x + m.w * p.y + shift.y);
    float t = header.x == 1.0 ? linearGradientT(q, g0.xy, g0.zw) : radialGradientT(q, g0.xy, g0.z, g1.xy);
    vec4 paint = gradientColor(t, first + 5, int(header.y));
    return vec4(paint.rgb, paint.a * header.z);
}
