// The arc row's coverage (Throbber/DrawList/Primitives/Arc.swift). Each function has a
// Swift twin of the same name, in the same order, in Sources/ThrobberCPU/Primitives/Arc+CPU.swift.

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

// SPEC §0 full circle stroke (an arc whose sweep is ≥ 2π): δ = |p − c| − R.
float circleStrokeCoverage(vec2 p, vec2 c, float radius, float lineWidth) {
    return strokeCoverage(circleDistance(p, c, radius), lineWidth);
}

// SPEC §0 arc with round caps (Arc), under SPEC §5's angle mask when maskRotation ≥ 0
// (its seam's direction maskDirection).
float arcCoverage(vec2 p, vec2 c, float radius, float lineWidth, float start, float sweep, float maskRotation,
                  vec2 maskDirection) {
    float coverage = strokeCoverage(arcDistance(p, c, radius, start, sweep), lineWidth);
    if (maskRotation >= 0.0 && coverage > 0.0) coverage *= ringMask(p - c, maskDirection);
    return coverage;
}
