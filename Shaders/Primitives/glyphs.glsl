// The glyphs' row's coverage (Throbber/DrawList/Primitives/Glyphs.swift). Swift twin of the same
// name: glyphCoverage in Sources/ThrobberCPU/Primitives/Glyphs+CPU.swift.

// The draw list's glyph atlas (8-bit coverage, one byte per texel), bound by the boxes pass.
uniform sampler2D u_atlas;

// SPEC §6 "Atlas and painting": the coverage of the pixel whose centre is p under a glyph whose
// atlas texels lie `offset` (whole texels) from its canvas pixels: the byte / 255 at that texel,
// read with texelFetch (no filtering), as the CPU renderer reads the same bytes.
float glyphCoverage(vec2 p, vec2 offset) {
    return texelFetch(u_atlas, ivec2(floor(p)) + ivec2(offset), 0).r;
}
