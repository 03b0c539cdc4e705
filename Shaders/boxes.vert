#version 330 core
#include "constants.glsl"
// Instanced rounded boxes (tick marks, spinner leaves, HUDs): one instance per box, of every
// frame of the stack. The quad is the box enlarged by BOX_QUAD_GROWTH (1 px) for its anti-aliased
// edge (SPEC §0): twice the anti-aliasing reach, room for rounding too (Antialiasing.boxQuadGrowth).
layout(location = 0) in vec2 i_center;      // px, in the frame's image coordinates
layout(location = 1) in vec2 i_half;        // half extents along the box's x and y axes (px)
layout(location = 2) in vec2 i_axis;        // (cos θ, sin θ): the box's x axis (y down, clockwise)
layout(location = 3) in ivec4 i_list;       // first entry in u_lists, entry count, frame's top row, frame's height
layout(location = 4) in vec4 i_background;  // the frame's background, straight alpha
uniform vec2 u_resolution;                  // the stack in px
flat out ivec2 v_list;
flat out float v_frameTop;
flat out float v_frameHeight;
flat out vec4 v_background;
flat out vec4 v_quad;                       // the quad (x0, y0, x1, y1) when the box is not turned

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;
    vec2 local = corner * (i_half + BOX_QUAD_GROWTH);
    vec2 p = i_center + vec2(local.x * i_axis.x - local.y * i_axis.y, local.x * i_axis.y + local.y * i_axis.x);
    gl_Position = vec4((p + vec2(0.0, float(i_list.z))) / u_resolution * 2.0 - 1.0, 0.0, 1.0);
    v_list = i_list.xy;
    v_frameTop = float(i_list.z);
    v_frameHeight = float(i_list.w);
    v_background = i_background;
    vec2 reach = i_half + BOX_QUAD_GROWTH;
    v_quad = vec4(i_center - reach, i_center + reach);
}
