#version 330 core
#include "common.glsl"
in vec2 v_local;
flat in vec2 v_half;
flat in float v_corner;
flat in vec4 v_color;
out vec4 o_color;

void main() {
    o_color = premultiplied(v_color, fillCoverage(roundedBoxDistance(v_local, v_half, v_corner)));
}
