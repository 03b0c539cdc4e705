#version 330 core
#include "common.glsl"
// One frame's layers — discs, waves, arcs, single boxes and rings of boxes — in one pass: each
// evaluated per pixel in paint order, blended source-over in registers and quantised once
// (SPEC §0 "Colour"); no float target, no separate resolve.
//
// GLRenderer compiles this file once per *shape* of a run of layers: it defines LAYERS as the
// statements that paint each layer in order (`dst = paint(dst, colour, coverage)` with the
// coverage functions of common.glsl) and LAYER_VECTORS as the number of vec4s they read — V(0)
// the background, then every layer's numbers at fixed places (LayerPlan.swift). So the shader
// is straight-line code whose every value is the same for the whole tile: no loop over items,
// no branch on a kind. Rounded boxes that are not a ring are drawn by boxes.frag over this
// pass's output.
#ifdef LAYERS_FROM_TEXTURE
uniform sampler2D u_values;
flat in int v_first;
#define V(i) texelFetch(u_values, ivec2((v_first + (i)) & 1023, (v_first + (i)) >> 10), 0)
#else
flat in vec4 v_v[LAYER_VECTORS];
#define V(i) v_v[i]
#endif
flat in float v_frameTop;
// Coverage textures of rings that do not change between frames (GLRenderer's ring coverage
// cache; LayerPlan.drawFromCoverage), each the frame's size, read at the pixel.
uniform sampler2D u_coverage0;
uniform sampler2D u_coverage1;
uniform sampler2D u_coverage2;
uniform sampler2D u_coverage3;
out vec4 o_color;

void main() {
    vec2 p = vec2(gl_FragCoord.x, gl_FragCoord.y - v_frameTop);
    vec4 dst = premultiplied(V(0), 1.0);
    float place;
    LAYERS
#ifdef RAW_OUTPUT
    // A coverage texture's pass: LAYERS wrote the coverage itself.
    o_color = dst;
#else
    o_color = resolvePixel(dst);
#endif
}
