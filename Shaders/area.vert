#version 330 core
// The geometry of a full-area primitive: only pixels the primitive can cover are shaded.
// Either the bounding rectangle u_rect as a quad (u_segments == 0), or, for round primitives, a
// strip of 2·(u_segments + 1) vertices around the annulus u_annulus (inner polygon inscribed in
// the inner circle, outer polygon circumscribing the outer one, so every pixel of the ring is
// covered); the renderer scissors it to u_rect.
// Image coordinates map to GL rows unflipped (see common.glsl), so no y flip happens here.
uniform vec2 u_resolution;  // canvas in px
uniform vec4 u_rect;        // x0, y0, x1, y1 in px
uniform vec4 u_annulus;     // centre x, centre y, inner radius, outer radius in px
uniform int u_segments;

const float TWO_PI = 6.28318530717958647692;

void main() {
    vec2 p;
    if (u_segments == 0) {
        vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
        p = mix(u_rect.xy, u_rect.zw, corner);
    } else {
        float n = float(u_segments);
        float angle = float(gl_VertexID >> 1) * TWO_PI / n;
        float radius = (gl_VertexID & 1) == 0 ? u_annulus.z : u_annulus.w / cos(0.5 * TWO_PI / n);
        p = u_annulus.xy + radius * vec2(cos(angle), sin(angle));
    }
    gl_Position = vec4(p / u_resolution * 2.0 - 1.0, 0.0, 1.0);
}
