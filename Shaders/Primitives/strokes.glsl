// The strokes row's coverage (Throbber/DrawList/Primitives/Strokes.swift). Each function has a
// Swift twin of the same name, in the same order, in Sources/ThrobberCPU/Primitives/Strokes+CPU.swift.

// The distance from p to the segment a–b, clamped to its end points (round caps):
// h = clamp(dot(p − a, b − a) / dot(b − a, b − a), 0, 1), |p − a − h·(b − a)|; a segment of no
// length (dot = 0) is its point a, |p − a|.
float segmentDistance(vec2 p, vec2 a, vec2 b) {
    vec2 pa = p - a;
    vec2 ba = b - a;
    float along = ba.x * ba.x + ba.y * ba.y;
    float h = along == 0.0 ? 0.0 : clamp((pa.x * ba.x + pa.y * ba.y) / along, 0.0, 1.0);
    vec2 d = pa - ba * h;
    return sqrt(d.x * d.x + d.y * d.y);
}

// SPEC §7 "Glyphs" (Strokes): one or two segments (first.xy–first.zw, second.xy–second.zw) as one
// shape, δ the nearer segment's distance (round caps and joins), coverage stroke(δ, lineWidth).
float strokesCoverage(vec2 p, vec4 first, vec4 second, float segments, float lineWidth) {
    float delta = segmentDistance(p, first.xy, first.zw);
    if (segments > 1.5) delta = min(delta, segmentDistance(p, second.xy, second.zw));
    return strokeCoverage(delta, lineWidth);
}
