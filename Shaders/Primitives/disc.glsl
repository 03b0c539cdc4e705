// The disc row's coverage (Throbber/DrawList/Primitives/Disc.swift). Each function has a
// Swift twin of the same name, in the same order, in Sources/ThrobberCPU/Primitives/Disc+CPU.swift.

// SPEC §0 filled circle (Disc): circle = (cx, cy, r).
float discCoverage(vec2 p, vec3 circle) { return fillCoverage(circleDistance(p, circle.xy, circle.z)); }
