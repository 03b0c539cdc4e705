#version 330 core
// The one quantisation (SPEC §0 "Colour"): premultiplied float accumulators → straight-alpha 8-bit.
// Twin of resolvePixel in Sources/Throbber/Image/Image.swift: un-premultiply with the unquantised
// alpha (one reciprocal, as there), then v8 = floor(clamp(v, 0, 1)·255 + 0.5); a pixel whose
// quantised alpha is 0 becomes (0, 0, 0, 0).
uniform sampler2D u_accum;
out vec4 o_color;

vec4 resolvePixel(vec4 c) {
    vec4 straight = vec4(c.rgb * (1.0 / c.a), c.a);
    vec4 q = floor(clamp(straight, 0.0, 1.0) * 255.0 + 0.5) * (1.0 / 255.0);
    return q.a == 0.0 ? vec4(0.0) : q;
}

void main() {
    o_color = resolvePixel(texelFetch(u_accum, ivec2(gl_FragCoord.xy), 0));
}
