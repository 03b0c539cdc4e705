#version 330 core
#include "common.glsl"
// The whole stack of one pixel under a rounded box: every item that can reach the box (itself,
// overlapping boxes, and any disc, wave or arc there), in paint order, blended in registers and
// quantised once, overwriting what layers.frag wrote. Every box covering a pixel lists every
// item covering it, so each box writes the same value there.
//
// u_items holds the records (common.glsl's layout, 5 RGBA32F texels each), u_lists each box's
// record indices, u_paths the paths' chords and paints (path.glsl); all are 2D textures 1024
// texels wide (GLRenderer.textureWidth), texel i at (i mod 1024, i / 1024). With BOXES_ONLY
// defined (no list holds anything but boxes) the branch on the kind is left out. With PATHS
// defined (some list holds a path) a pixel is computed by one instance only, the first record in
// paint order whose quad is its bounds (quadIsBounds) and holds it: the other instances there
// would write the same value, and a pixel under many paths would compute its stack once per path.
// With LAYERED defined (GLRenderer's path for frames that hold a layer, SPEC §10) each instance is
// a whole frame listing every record of it, and the records of kind LAYER_RECORD are operations on
// a stack of LAYER_DEPTH premultiplied registers (Sources/ThrobberGL/Primitives/Layer+GL.swift).
uniform sampler2D u_items;
uniform isampler2D u_lists;
flat in ivec2 v_list;
flat in float v_frameTop;
flat in float v_frameHeight;
flat in vec4 v_background;
flat in vec4 v_quad;
out vec4 o_color;

ivec2 texel(int i) { return ivec2(i & 1023, i >> 10); }
vec4 record(int i) { return texelFetch(u_items, texel(i), 0); }

void main() {
    vec2 p = vec2(gl_FragCoord.x, gl_FragCoord.y - v_frameTop);
    // A box's quad (grown for its edge) may reach past its frame into the next one of the
    // stack, whose pixels are not this box's to write.
    if (p.y < 0.0 || p.y > v_frameHeight) discard;
#if defined(PATHS) && !defined(LAYERED)
    for (int i = 0; i < v_list.y; ++i) {
        int base = 5 * texelFetch(u_lists, texel(v_list.x + i), 0).x;
        vec4 bounds = record(base);
        if (p.x < bounds.x || p.y < bounds.y || p.x > bounds.z || p.y > bounds.w || !quadIsBounds(int(record(base + 1).x))) continue;
        if (bounds != v_quad) discard;
        break;
    }
#endif
    vec4 dst = premultiplied(v_background, 1.0);
#ifdef LAYERED
    vec4 below[LAYER_DEPTH];
    int depth = 0;
    float m = 1.0;
    // The mask the next record's coverage is read as (-1: none), inverted, opacity.
    int maskMode = -1;
    bool maskInverted = false;
    float maskOpacity = 1.0;
    for (int i = 0; i < v_list.y; ++i) {
        int base = 5 * texelFetch(u_lists, texel(v_list.x + i), 0).x;
        vec4 bounds = record(base);
        vec4 head = record(base + 1);
        vec4 a = record(base + 2);
        if (int(head.x) == LAYER_RECORD) {
            int operation = int(head.y);
            if (operation == 0) {
                below[depth] = dst;
                depth += 1;
                dst = vec4(0.0);
            } else if (operation == 1) {
                m = head.z;
            } else if (operation == 2) {
                if (a.y == 1.0) {
                    maskMode = int(head.z);
                    maskInverted = head.w == 1.0;
                    maskOpacity = a.x;
                } else {
                    m = layerMask(m, 0.0, int(head.z), head.w == 1.0, a.x);
                }
            } else if (operation == 3) {
                dst *= m;
            } else {
                depth -= 1;
                vec4 s = dst * head.z;
                dst = operation == 4 ? sourceOver(s, below[depth]) : below[depth] * layerMatte(s, int(head.w));
            }
            continue;
        }
        vec4 b = record(base + 3);
        float coverage = itemCoverage(p, bounds, head, a, b);
        if (maskMode >= 0) {
            m = layerMask(m, coverage, maskMode, maskInverted, maskOpacity);
            maskMode = -1;
        } else if (coverage > 0.0) {
            dst = sourceOver(premultiplied(itemColor(p, head, a, b, record(base + 4)), coverage), dst);
        }
    }
#else
    for (int i = 0; i < v_list.y; ++i) {
        int base = 5 * texelFetch(u_lists, texel(v_list.x + i), 0).x;
        vec4 bounds = record(base);
        if (p.x < bounds.x || p.y < bounds.y || p.x > bounds.z || p.y > bounds.w) continue;
        vec4 head = record(base + 1);
        vec4 a = record(base + 2);
#ifdef BOXES_ONLY
        float coverage = boxCoverage(p, head.yz, a.xy, a.zw, head.w);
        if (coverage > 0.0) dst = sourceOver(premultiplied(record(base + 4), coverage), dst);
#else
        vec4 b = record(base + 3);
        float coverage = itemCoverage(p, bounds, head, a, b);
        if (coverage > 0.0) dst = sourceOver(premultiplied(itemColor(p, head, a, b, record(base + 4)), coverage), dst);
#endif
    }
#endif
    o_color = resolvePixel(dst);
}
