// Shared shading formulas (SPEC §0), included by the fragment shaders; then every primitive's
// own (Shaders/Primitives/, one file per kind, and boxes.frag's itemCoverage, which
// ThrobberGL's GLPrimitiveRows puts together as "primitives.glsl"). Each function has a Swift twin
// of the same name, in the same order, in Sources/ThrobberCPU/Shading.swift or the kind's row
// (a vec2 here is two Floats there); the parity tests keep the two equal.
#include "constants.glsl"
//
// Pixel convention: GL row j holds image row j (image y down), so gl_FragCoord.xy is the pixel
// centre (x + 0.5, y + 0.5) in image coordinates and the read-back rows come out top-down.
// Frames of a stack lie one above the other in one target (GLRenderer): a frame whose top row is
// `top` sees its pixel centre at gl_FragCoord.xy − (0, top).

const float TWO_PI = 6.28318530717958647692;
const float HALF_PI = 1.57079632679489661923;

// SPEC §0: fill(d) = clamp(0.5 − d, 0, 1), d the signed distance in px (negative inside).
// 0.5 (here and in strokeCoverage) is the anti-aliasing reach, the core's Antialiasing.reach.
float fillCoverage(float d) { return clamp(ANTIALIAS_REACH - d, 0.0, 1.0); }

// SPEC §0: stroke(δ, w) = clamp(min(w/2, 0.5 + δ) + min(w/2, 0.5 − δ), 0, 1).
float strokeCoverage(float delta, float w) {
    return clamp(min(w * 0.5, ANTIALIAS_REACH + delta) + min(w * 0.5, ANTIALIAS_REACH - delta), 0.0, 1.0);
}

// SPEC §0: |p − c| − r.
float circleDistance(vec2 p, vec2 c, float r) { return length(p - c) - r; }

// SPEC §0: the premultiplied source s = (r·a·c, g·a·c, b·a·c, a·c); blending adds dst·(1 − s.a).
vec4 premultiplied(vec4 color, float coverage) {
    float a = color.a * coverage;
    return vec4(color.rgb * a, a);
}

// SPEC §0: source-over on premultiplied colour, dst = s + dst·(1 − s.a).
vec4 sourceOver(vec4 s, vec4 dst) { return s + dst * (1.0 - s.a); }

// The one quantisation (SPEC §0 "Colour"): premultiplied float → straight-alpha 8-bit steps.
// Twin of resolvePixel in Sources/Throbber/Image/Image.swift: un-premultiply with the unquantised
// alpha (one reciprocal, as there), then v8 = floor(clamp(v, 0, 1)·255 + 0.5); a pixel whose
// quantised alpha is 0 becomes (0, 0, 0, 0). The RGBA8 target stores n/255 as n exactly.
vec4 resolvePixel(vec4 c) {
    vec4 straight = vec4(c.rgb * (1.0 / c.a), c.a);
    vec4 q = floor(clamp(straight, 0.0, 1.0) * 255.0 + 0.5) * (1.0 / 255.0);
    return q.a == 0.0 ? vec4(0.0) : q;
}

// 1 when the pixel centre lies strictly inside bounds (x0, y0, x1, y1), else 0: an item shades
// only its bounds (Primitive.bounds).
float inside(vec2 p, vec4 bounds) {
    return step(bounds.x, p.x) * step(bounds.y, p.y) * step(p.x, bounds.z) * step(p.y, bounds.w);
}

// dst with `color` (straight alpha) painted over it at `coverage` (SPEC §0). Swift twin: Band.blend.
vec4 paint(vec4 dst, vec4 color, float coverage) { return sourceOver(premultiplied(color, coverage), dst); }

#include "primitives.glsl"
