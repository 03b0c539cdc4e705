// Shared shading formulas (SPEC §0), included by the fragment shaders.
// Each function has a Swift twin of the same name in Sources/ThrobberCPU/Shading.swift;
// the parity tests keep the two equal.
//
// Pixel convention: GL row j holds image row j (image y down), so gl_FragCoord.xy is the pixel
// centre (x + 0.5, y + 0.5) in image coordinates and the read-back rows come out top-down.

const float TWO_PI = 6.28318530717958647692;
const float HALF_PI = 1.57079632679489661923;

// SPEC §0: fill(d) = clamp(0.5 − d, 0, 1), d the signed distance in px (negative inside).
float fillCoverage(float d) { return clamp(0.5 - d, 0.0, 1.0); }

// SPEC §0: stroke(δ, w) = clamp(min(w/2, 0.5 + δ) + min(w/2, 0.5 − δ), 0, 1).
float strokeCoverage(float delta, float w) {
    return clamp(min(w * 0.5, 0.5 + delta) + min(w * 0.5, 0.5 - delta), 0.0, 1.0);
}

// SPEC §0: |p − c| − r.
float circleDistance(vec2 p, vec2 c, float r) { return length(p - c) - r; }

// SPEC §0 "below a curve" for f(x) = amplitude·sin(k·(x − originX) + phase) + baseline.
float waveDistance(vec2 p, float originX, float amplitude, float k, float phase, float baseline) {
    float arg = k * (p.x - originX) + phase;
    float f = amplitude * sin(arg) + baseline;
    float slope = amplitude * k * cos(arg);
    return (f - p.y) / sqrt(1.0 + slope * slope);
}

// SPEC §0 rounded box: q in the box's own frame, half extents h, corner radius rho.
float roundedBoxDistance(vec2 q, vec2 h, float rho) {
    vec2 k = abs(q) - (h - vec2(rho));
    return length(max(k, 0.0)) + min(max(k.x, k.y), 0.0) - rho;
}

// Clock angle of an offset: 0 at 12 o'clock, growing clockwise (y down).
float clockAngle(vec2 v) { return atan(v.y, v.x) + HALF_PI; }

// SPEC §0 arc with round caps; a sweep ≥ 2π is a full circle stroke.
float arcDistance(vec2 p, vec2 c, float radius, float start, float sweep) {
    vec2 v = p - c;
    float dist = length(v);
    if (sweep >= TWO_PI) return dist - radius;
    float relative = mod(clockAngle(v) - start, TWO_PI);
    if (relative <= sweep) return abs(dist - radius);
    float t0 = start - HALF_PI;
    float t1 = start + sweep - HALF_PI;
    vec2 e0 = c + radius * vec2(cos(t0), sin(t0)) - p;
    vec2 e1 = c + radius * vec2(cos(t1), sin(t1)) - p;
    return min(length(e0), length(e1));
}

// SPEC §5: SVProgressHUD's angle-mask profile m(x) = 0.5x + 1.5x² − x³.
float angleMask(float x) { return 0.5 * x + 1.5 * x * x - x * x * x; }

// SPEC §5: the mask at offset v from the ring centre, x = ((ψ − rotation) mod 2π) / 2π.
float ringMask(vec2 v, float rotation) { return angleMask(mod(clockAngle(v) - rotation, TWO_PI) / TWO_PI); }

// SPEC §0: the premultiplied source s = (r·a·c, g·a·c, b·a·c, a·c); blending adds dst·(1 − s.a).
vec4 premultiplied(vec4 color, float coverage) {
    float a = color.a * coverage;
    return vec4(color.rgb * a, a);
}
