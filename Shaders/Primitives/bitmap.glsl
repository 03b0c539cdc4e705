// The image row's colour (Throbber/DrawList/Primitives/Bitmap.swift, SPEC §11). Swift twins of the
// same names, same formulas: Sources/ThrobberCPU/Primitives/Bitmap+CPU.swift.
//
// Every image a stack reads lies in u_bitmaps (RGBA8, straight alpha, 1024 texels a row, bound by
// the boxes pass: BitmapTextures), its texels in order from the first texel of a row of its own:
// texel (i, j) of an image `w` wide starting at row `row` is texel row·1024 + j·w + i, at
// (k mod 1024, k / 1024). The bytes are read with texelFetch and mixed here, in float: the
// sampler's own filtering (GL_LINEAR) is never used, its weights being coarser than the 2/255
// parity bound allows on some drivers. An image record's map px → image space lies in u_paths
// (path.glsl's `pathTexel`) from the texel head.w: (a, b, c, d), (tx, ty, 0, 0); its
// b = (first row, opacity, width, height).
uniform sampler2D u_bitmaps;

// SPEC §11: texel (i, j) of the `w` × `h` image from row `row`, premultiplied (r·a, g·a, b·a, a);
// outside the image vec4(0).
vec4 bitmapTexel(int row, int w, int h, int i, int j) {
    if (i < 0 || j < 0 || i >= w || j >= h) return vec4(0.0);
    int k = row * 1024 + j * w + i;
    vec4 t = texelFetch(u_bitmaps, ivec2(k & 1023, k >> 10), 0);
    return vec4(t.r * t.a, t.g * t.a, t.b * t.a, t.a);
}

// SPEC §11: the straight colour (its alpha times the opacity) an image record paints at p, at
// coverage 1: q = T⁻¹(p) − (0.5, 0.5), clamped to [−2, w + 1] × [−2, h + 1] (no colour changes:
// all four texels are outside there), the four premultiplied texels around it mixed bilinearly by
// its fractions; clear where that alpha is 0.
vec4 bitmapColor(vec2 p, float first, vec4 b) {
    int d = int(first);
    vec4 m = pathTexel(d), t = pathTexel(d + 1);
    int row = int(b.x), w = int(b.z), h = int(b.w);
    float qx = clamp(m.x * p.x + m.z * p.y + t.x - 0.5, -2.0, b.z + 1.0);
    float qy = clamp(m.y * p.x + m.w * p.y + t.y - 0.5, -2.0, b.w + 1.0);
    float fx = floor(qx), fy = floor(qy);
    float u = qx - fx, v = qy - fy;
    int i = int(fx), j = int(fy);
    vec4 t00 = bitmapTexel(row, w, h, i, j), t10 = bitmapTexel(row, w, h, i + 1, j);
    vec4 t01 = bitmapTexel(row, w, h, i, j + 1), t11 = bitmapTexel(row, w, h, i + 1, j + 1);
    vec4 c = (t00 * (1.0 - u) + t10 * u) * (1.0 - v) + (t01 * (1.0 - u) + t11 * u) * v;
    if (c.a <= 0.0) return vec4(0.0);
    return vec4(c.r / c.a, c.g / c.a, c.b / c.a, c.a * b.y);
}
