// The layer row's formulas (Throbber/DrawList/Primitives/Layer.swift, SPEC §10). Each function has
// a Swift twin of the same name, in the same order, in Sources/ThrobberCPU/Primitives/Layer+CPU.swift.
// A layer is no coverage of its own: its records are the operations boxes.frag's LAYERED loop runs
// (Sources/ThrobberGL/Primitives/Layer+GL.swift) around its content's, masks' and matte's records.

// SPEC §10 "Masks": m after one mask of mode `mode` (0 add, 1 subtract, 2 intersect, 3 difference)
// whose path covers the pixel by c, inverted (c′ = 1 − c) when `inverted` is 1, at opacity k.
float layerMask(float m, float c, int mode, bool inverted, float k) {
    float cc = inverted ? 1.0 - c : c;
    if (mode == 0) return m + k * cc * (1.0 - m);
    if (mode == 1) return m * (1.0 - k * cc);
    if (mode == 2) return m * (1.0 - k * (1.0 - cc));
    return m + k * cc - 2.0 * m * k * cc;
}

// SPEC §10 "Mattes": q from the matte source's premultiplied pixel s by `mode` (0 alpha, 1 alpha
// inverted, 2 luma, 3 luma inverted); luma of the premultiplied colour is the straight colour's
// luma times its alpha.
float layerMatte(vec4 s, int mode) {
    float v = mode < 2 ? s.a : 0.2126 * s.r + 0.7152 * s.g + 0.0722 * s.b;
    return mode == 1 || mode == 3 ? 1.0 - v : v;
}
