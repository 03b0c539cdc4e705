#version 330 core
#include "common.glsl"
// One frame's layers — discs, waves, arcs, single boxes and rings of boxes — in one pass: each
// evaluated per pixel in paint order, blended source-over in registers and quantised once
// (SPEC §0 "Colour"); no float target, no separate resolve.
//
// GLRenderer compiles this file once per *shape* of a run of layers: it defines LAYERS as the
// statements that paint each layer in order (`dst = paint(dst, colour, coverage)` with the
// coverage functions of common.glsl) and LAYER_VECTORS as the length of v_v, which holds the
// background and every layer's numbers at fixed places (LayerPlan.swift). So the shader is
// straight-line code whose every value is the same for the whole tile: no loop over items, no
// branch on a kind, nothing read from a texture. Rounded boxes that are not a ring are drawn by
// boxes.frag over this pass's output.
#ifdef LAYERS_FROM_UNIFORMS
uniform vec4 v_v[LAYER_VECTORS];  // v_v[0]: the background, straight alpha
#else
flat in vec4 v_v[LAYER_VECTORS];
#endif
uniform float u_frameTop;
out vec4 o_color;

void main() {
    vec2 p = vec2(gl_FragCoord.x, gl_FragCoord.y - u_frameTop);
    vec4 dst = premultiplied(v_v[0], 1.0);
    float place;
    LAYERS
    o_color = resolvePixel(dst);
}
