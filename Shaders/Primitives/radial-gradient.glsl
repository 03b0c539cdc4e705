// The radial gradient row's coverage (Throbber/DrawList/Primitives/RadialGradient.swift). Its
// Swift twin of the same name is in Sources/ThrobberCPU/Primitives/RadialGradient+CPU.swift.

// SPEC §7 "Mask" (RadialGradient): c = min(1, |p − g| / reach), reach > 0.
float radialGradientCoverage(vec2 p, vec2 g, float reach) {
    vec2 d = p - g;
    return min(1.0, sqrt(d.x * d.x + d.y * d.y) / reach);
}
