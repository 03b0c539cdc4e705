#version 330 core
#include "common.glsl"
// The region below a sine wave, clipped to a circle (radius < 0: none) and above a bottom edge.
uniform vec4 u_wave;    // originX, amplitude, k (rad/px), phase (rad, reduced)
uniform float u_baseline;
uniform vec3 u_clip;    // centre x, centre y, radius (px); radius < 0 means no clip
uniform float u_bottom; // anti-aliased bottom edge in px; 1e30 means none
uniform vec4 u_color;
out vec4 o_color;

void main() {
    vec2 p = gl_FragCoord.xy;
    float coverage = fillCoverage(waveDistance(p, u_wave.x, u_wave.y, u_wave.z, u_wave.w, u_baseline));
    if (u_clip.z >= 0.0) coverage *= fillCoverage(circleDistance(p, u_clip.xy, u_clip.z));
    coverage *= fillCoverage(p.y - u_bottom);
    o_color = premultiplied(u_color, coverage);
}
