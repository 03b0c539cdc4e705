#version 330 core
// The layers pass's geometry: one instance per tile of a frame of the stack, for every tile of
// every frame whose layers have this program's shape. The tile's rectangle (px, in its frame's
// image coordinates), its frame's top row and where its numbers start in u_values are instance
// attributes. Image coordinates map to GL rows unflipped (see common.glsl), so no y flip here.
//
// The numbers reach the fragment shader as flat varyings, fetched here once per vertex:
// llvmpipe reads a uniform or a texel in a fragment shader anew for every pixel, a flat varying
// once per triangle (bench/README.md). A run of layers with more numbers than the driver has
// varyings for (LAYERS_FROM_TEXTURE) leaves the fetching to the fragment shader.
layout(location = 0) in vec4 i_rect;   // x0, y0, x1, y1
layout(location = 1) in ivec2 i_frame; // the frame's top row; the first texel of the numbers
uniform vec2 u_resolution;             // the stack in px
uniform sampler2D u_values;            // every tile's numbers: rows of 1024 texels
#ifdef LAYERS_FROM_TEXTURE
flat out int v_first;
#else
flat out vec4 v_v[LAYER_VECTORS];
#endif
flat out float v_frameTop;

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    vec2 p = mix(i_rect.xy, i_rect.zw, corner) + vec2(0.0, float(i_frame.x));
    gl_Position = vec4(p / u_resolution * 2.0 - 1.0, 0.0, 1.0);
    v_frameTop = float(i_frame.x);
#ifdef LAYERS_FROM_TEXTURE
    v_first = i_frame.y;
#else
    for (int i = 0; i < LAYER_VECTORS; ++i) {
        int t = i_frame.y + i;
        v_v[i] = texelFetch(u_values, ivec2(t & 1023, t >> 10), 0);
    }
#endif
}
