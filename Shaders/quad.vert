#version 330 core
// Instanced rounded boxes (tick marks, spinner leaves, HUDs): one instance per box.
layout(location = 0) in vec2 i_center;    // px
layout(location = 1) in vec2 i_half;      // half extents along the box's x and y axes (px)
layout(location = 2) in float i_rotation; // θ the box's x axis points at (y down, clockwise)
layout(location = 3) in float i_corner;   // corner radius (px)
layout(location = 4) in vec4 i_color;     // straight alpha
uniform vec2 u_resolution;
out vec2 v_local;                         // the fragment in the box's own frame (px)
flat out vec2 v_half;
flat out float v_corner;
flat out vec4 v_color;

void main() {
    // Enlarged by 1 px beyond the box for the anti-aliased edge (SPEC §0).
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;
    vec2 local = corner * (i_half + 1.0);
    vec2 axis = vec2(cos(i_rotation), sin(i_rotation));
    vec2 p = i_center + vec2(local.x * axis.x - local.y * axis.y, local.x * axis.y + local.y * axis.x);
    gl_Position = vec4(p / u_resolution * 2.0 - 1.0, 0.0, 1.0);
    v_local = local;
    v_half = i_half;
    v_corner = i_corner;
    v_color = i_color;
}
