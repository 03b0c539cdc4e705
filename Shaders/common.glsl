// Shared shading formulas (SPEC §0), included by the fragment shaders.
// Each function has a Swift twin of the same name, in the same order, in
// Sources/ThrobberCPU/Shading.swift (a vec2 here is two Floats there); the parity tests keep the
// two equal.
//
// Pixel convention: GL row j holds image row j (image y down), so gl_FragCoord.xy is the pixel
// centre (x + 0.5, y + 0.5) in image coordinates and the read-back rows come out top-down.
// Frames of a stack lie one above the other in one target (GLRenderer): a frame whose top row is
// `top` sees its pixel centre at gl_FragCoord.xy − (0, top).

const float TWO_PI = 6.28318530717958647692;
const float HALF_PI = 1.57079632679489661923;

// SPEC §0: fill(d) = clamp(0.5 − d, 0, 1), d the signed distance in px (negative inside).
// 0.5 (here and in strokeCoverage) is the anti-aliasing reach, `antialiasReach` in Shading.swift.
float fillCoverage(float d) { return clamp(0.5 - d, 0.0, 1.0); }

// SPEC §0: stroke(δ, w) = clamp(min(w/2, 0.5 + δ) + min(w/2, 0.5 − δ), 0, 1).
float strokeCoverage(float delta, float w) {
    return clamp(min(w * 0.5, 0.5 + delta) + min(w * 0.5, 0.5 - delta), 0.0, 1.0);
}

// SPEC §0: |p − c| − r.
float circleDistance(vec2 p, vec2 c, float r) { return length(p - c) - r; }

// SPEC §0 "below a curve" for f(x) = amplitude·sin(k·(x − originX) + phase) + baseline.
// The Swift twin is the composition of two named pieces, waveColumn (arg, f, slope: x only, which
// the CPU renderer caches per column) and curveDistance (the last line), the same expressions.
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

// SPEC §5: the mask at offset v from the ring centre, x = ((ψ − rotation) mod 2π) / 2π, with
// the seam (x jumping from 1 to 0) given as its direction (Arc.maskDirectionX/Y). The side of
// the seam is decided by comparing two products, which round the same way everywhere (an angle
// from atan would put pixels on the seam on either side); the centre itself has x = 0.
float ringMask(vec2 v, vec2 direction) {
    bool ahead = direction.x * v.y >= direction.y * v.x;
    float along = dot(direction, v);
    float across = abs(direction.x * v.y - direction.y * v.x);
    float turn = (along == 0.0 && across == 0.0) ? 0.0 : atan(across, along) / TWO_PI;
    return angleMask(ahead ? turn : 1.0 - turn);
}

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

// Coverage of one primitive at pixel centre p, per DrawItem case. Their Swift twins, of the same
// names, are in Shading.swift; Band.paint (Band+Paint.swift) calls them.

// SPEC §0 filled circle (DrawItem.disc): circle = (cx, cy, r).
float discCoverage(vec2 p, vec3 circle) { return fillCoverage(circleDistance(p, circle.xy, circle.z)); }

// SPEC §0 "below a curve" (DrawItem.wave) and above an anti-aliased bottom edge (Wave.noBottom
// = 1e30: none), with no clip circle.
float waveBandCoverage(vec2 p, float originX, float amplitude, float k, float phase, float baseline, float bottom) {
    return fillCoverage(waveDistance(p, originX, amplitude, k, phase, baseline)) * fillCoverage(p.y - bottom);
}

// The same clipped to a circle (clip.z < 0: none).
float waveCoverage(vec2 p, float originX, float amplitude, float k, float phase, float baseline, float bottom, vec3 clip) {
    float coverage = waveBandCoverage(p, originX, amplitude, k, phase, baseline, bottom);
    if (clip.z >= 0.0) coverage *= fillCoverage(circleDistance(p, clip.xy, clip.z));
    return coverage;
}

// SPEC §0 full circle stroke (an arc whose sweep is ≥ 2π): δ = |p − c| − R.
float circleStrokeCoverage(vec2 p, vec2 c, float radius, float lineWidth) {
    return strokeCoverage(circleDistance(p, c, radius), lineWidth);
}

// SPEC §0 arc with round caps (DrawItem.arc), under SPEC §5's angle mask when maskRotation ≥ 0
// (its seam's direction maskDirection).
float arcCoverage(vec2 p, vec2 c, float radius, float lineWidth, float start, float sweep, float maskRotation,
                  vec2 maskDirection) {
    float coverage = strokeCoverage(arcDistance(p, c, radius, start, sweep), lineWidth);
    if (maskRotation >= 0.0 && coverage > 0.0) coverage *= ringMask(p - c, maskDirection);
    return coverage;
}

// SPEC §0 instanced rounded box (a QuadInstance): the pixel in the box's own frame is
// q = R(−θ)·(p − c), with (cos θ, sin θ) computed once per box in Swift, as the CPU renderer does.
float boxCoverage(vec2 p, vec2 c, vec2 halfExtents, vec2 axis, float corner) {
    vec2 d = p - c;
    vec2 q = vec2(d.x * axis.x + d.y * axis.y, -d.x * axis.y + d.y * axis.x);
    return fillCoverage(roundedBoxDistance(q, halfExtents, corner));
}

// SPEC §0 instanced rounded box, for a ring of boxes (QuadRing): box k is the base box turned
// by k steps about c. Of the boxes near the pixel's angle — k = the nearest step + j — the
// coverage of box k, or 0 when k is not in the batch: its steps run from `first` through
// `first + span` (mod `steps`, a full turn). `place` is k's place in that run, for per-box colours.
// No Swift twin: the CPU renderer paints the batch's instances one by one with boxCoverage.
float ringBoxCoverage(vec2 p, vec2 c, float baseAngle, float stepAngle, vec2 baseOffset, vec2 halfExtents, vec2 axis,
                      float corner, float steps, float first, float span, float j, out float place) {
    vec2 v = p - c;
    float k = floor((atan(v.y, v.x) - baseAngle) / stepAngle + 0.5) + j;
    place = k - first;
    place -= steps * floor(place / steps);
    float angle = k * stepAngle;
    float cs = cos(angle), sn = sin(angle);
    // The pixel turned back by k steps, seen from the base box's centre, in the base box's frame.
    vec2 w = vec2(v.x * cs + v.y * sn, -v.x * sn + v.y * cs) - baseOffset;
    vec2 q = vec2(w.x * axis.x + w.y * axis.y, -w.x * axis.y + w.y * axis.x);
    return place <= span + 0.5 ? fillCoverage(roundedBoxDistance(q, halfExtents, corner)) : 0.0;
}

// 1 when the pixel centre lies strictly inside bounds (x0, y0, x1, y1), else 0: an item shades
// only its bounds (DrawItem.bounds).
float inside(vec2 p, vec4 bounds) {
    return step(bounds.x, p.x) * step(bounds.y, p.y) * step(p.x, bounds.z) * step(p.y, bounds.w);
}

// dst with `color` (straight alpha) painted over it at `coverage` (SPEC §0). Swift twin: Band.blend.
vec4 paint(vec4 dst, vec4 color, float coverage) { return sourceOver(premultiplied(color, coverage), dst); }

// One item of a draw list (a record: GLRenderer's `FrameStack`), in 5 vec4s:
//   bounds = (x0, y0, x1, y1): the item shades only pixel centres strictly inside;
//   head = (kind, …), a, b: its parameters; then its colour (straight alpha).
// kind 0 disc:  head = (0, cx, cy, r)
// kind 1 wave:  head = (1, originX, amplitude, k), a = (phase, baseline, bottom, clipRadius), b = (clipX, clipY, 0, 0)
// kind 2 arc:   head = (2, cx, cy, radius), a = (lineWidth, start, sweep, maskRotation), b = (mask direction, 0, 0)
// kind 3 box:   head = (3, cx, cy, cornerRadius), a = (halfX, halfY, cos θ, sin θ)
const int KIND_DISC = 0;
const int KIND_WAVE = 1;
const int KIND_ARC = 2;
const int KIND_BOX = 3;

float itemCoverage(vec2 p, vec4 bounds, vec4 head, vec4 a, vec4 b) {
    if (p.x < bounds.x || p.y < bounds.y || p.x > bounds.z || p.y > bounds.w) return 0.0;
    int kind = int(head.x);
    if (kind == KIND_DISC) return discCoverage(p, head.yzw);
    if (kind == KIND_WAVE) return waveCoverage(p, head.y, head.z, head.w, a.x, a.y, a.z, vec3(b.xy, a.w));
    if (kind == KIND_ARC) return arcCoverage(p, head.yz, head.w, a.x, a.y, a.z, a.w, b.xy);
    return boxCoverage(p, head.yz, a.xy, a.zw, head.w);
}
