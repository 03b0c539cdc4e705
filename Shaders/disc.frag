#version 330 core
#include "common.glsl"
// A filled circle.
uniform vec3 u_circle;  // centre x, centre y, radius (px)
uniform vec4 u_color;   // straight alpha
out vec4 o_color;

void main() {
    float coverage = fillCoverage(circleDistance(gl_FragCoord.xy, u_circle.xy, u_circle.z));
    o_color = premultiplied(u_color, coverage);
}
