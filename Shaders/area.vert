#version 330 core
// A bounding quad for a full-area primitive: only pixels the primitive can cover are shaded.
// Image coordinates map to GL rows unflipped (see common.glsl), so no y flip happens here.
uniform vec2 u_resolution;  // canvas in px
uniform vec4 u_rect;        // x0, y0, x1, y1 in px

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    vec2 p = mix(u_rect.xy, u_rect.zw, corner);
    gl_Position = vec4(p / u_resolution * 2.0 - 1.0, 0.0, 1.0);
}
