// The wave row's coverage (Throbber/DrawList/Primitives/Wave.swift). Each function has a
// Swift twin of the same name, in the same order, in Sources/ThrobberCPU/Primitives/Wave+CPU.swift.

// SPEC §0 "below a curve" for f(x) = amplitude·sin(k·(x − originX) + phase) + baseline.
// The Swift twin is the composition of two named pieces, waveColumn (arg, f, slope: x only, which
// the CPU renderer caches per column) and curveDistance (the last line), the same expressions.
float waveDistance(vec2 p, float originX, float amplitude, float k, float phase, float baseline) {
    float arg = k * (p.x - originX) + phase;
    float f = amplitude * sin(arg) + baseline;
    float slope = amplitude * k * cos(arg);
    return (f - p.y) / sqrt(1.0 + slope * slope);
}

// SPEC §0 "below a curve" (Wave) and above an anti-aliased bottom edge (Wave.noBottom
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
