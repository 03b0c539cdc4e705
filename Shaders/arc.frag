#version 330 core
#include "common.glsl"
// A stroked arc with round caps (or a full circle), optionally under the ring's angle mask.
uniform vec4 u_arc;           // centre x, centre y, radius, line width (px)
uniform vec2 u_sweep;         // start clock angle, sweep (rad)
uniform float u_maskRotation; // clock angle the mask starts from; < 0 means no mask
uniform vec4 u_color;
out vec4 o_color;

void main() {
    vec2 p = gl_FragCoord.xy;
    float coverage = strokeCoverage(arcDistance(p, u_arc.xy, u_arc.z, u_sweep.x, u_sweep.y), u_arc.w);
    if (u_maskRotation >= 0.0) coverage *= ringMask(p - u_arc.xy, u_maskRotation);
    o_color = premultiplied(u_color, coverage);
}
