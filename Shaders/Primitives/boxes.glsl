// The boxes' row's coverage (Throbber/DrawList/Primitives/Boxes.swift); a ring's boxes use it too.
// Swift twins of the same names: roundedBoxDistance in Sources/ThrobberCPU/Shading.swift,
// boxCoverage in Sources/ThrobberCPU/Primitives/Boxes+CPU.swift.

// SPEC §0 rounded box: q in the box's own frame, half extents h, corner radius rho.
float roundedBoxDistance(vec2 q, vec2 h, float rho) {
    vec2 k = abs(q) - (h - vec2(rho));
    return length(max(k, 0.0)) + min(max(k.x, k.y), 0.0) - rho;
}

// SPEC §0 instanced rounded box (one box of Boxes or BoxRing): the pixel in the box's own frame is
// q = R(−θ)·(p − c), with (cos θ, sin θ) computed once per box in Swift, as the CPU renderer does.
float boxCoverage(vec2 p, vec2 c, vec2 halfExtents, vec2 axis, float corner) {
    vec2 d = p - c;
    vec2 q = vec2(d.x * axis.x + d.y * axis.y, -d.x * axis.y + d.y * axis.x);
    return fillCoverage(roundedBoxDistance(q, halfExtents, corner));
}
