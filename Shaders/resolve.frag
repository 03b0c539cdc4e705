#version 330 core
// The one quantisation (SPEC §0 "Colour"): premultiplied float accumulators → straight-alpha 8-bit.
// Twin of resolvePixel in Sources/Throbber/Image/Image.swift.
uniform sampler2D u_accum;
out vec4 o_color;

float quantise(float v) { return floor(clamp(v, 0.0, 1.0) * 255.0 + 0.5) / 255.0; }

vec4 resolvePixel(vec4 c) {
    float a8 = quantise(c.a);
    if (a8 == 0.0) return vec4(0.0);
    return vec4(quantise(c.r / c.a), quantise(c.g / c.a), quantise(c.b / c.a), a8);
}

void main() {
    o_color = resolvePixel(texelFetch(u_accum, ivec2(gl_FragCoord.xy), 0));
}
