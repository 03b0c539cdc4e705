#version 330 core
// The layers pass's geometry: one instance per tile of the frame whose top row in the stack is
// u_frameTop, its rectangle (px, in the frame's image coordinates) an instance attribute. Image
// coordinates map to GL rows unflipped (see common.glsl), so no y flip happens here.
//
// The layers' numbers reach the fragment shader as flat varyings, copied here from uniforms:
// llvmpipe reads a uniform in a fragment shader anew for every pixel, a flat varying once per
// triangle (measured: bench/README.md). A run of layers with more numbers than the driver has
// varyings for (LAYERS_FROM_UNIFORMS) reads them as uniforms instead.
layout(location = 0) in vec4 i_rect;  // x0, y0, x1, y1
uniform vec2 u_resolution;            // the stack in px
uniform float u_frameTop;
#ifndef LAYERS_FROM_UNIFORMS
uniform vec4 u_v[LAYER_VECTORS];
flat out vec4 v_v[LAYER_VECTORS];
#endif

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    vec2 p = mix(i_rect.xy, i_rect.zw, corner) + vec2(0.0, u_frameTop);
    gl_Position = vec4(p / u_resolution * 2.0 - 1.0, 0.0, 1.0);
#ifndef LAYERS_FROM_UNIFORMS
    for (int i = 0; i < LAYER_VECTORS; ++i) v_v[i] = u_v[i];
#endif
}
