// The box ring's row (Throbber/DrawList/Primitives/BoxRing.swift): its layer's coverage, which
// finds the boxes near a pixel from its angle (Sources/ThrobberGL/Primitives/BoxRing+GL.swift).

// SPEC §0 instanced rounded box, for a ring of boxes (BoxRing): box k is the base box turned
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
