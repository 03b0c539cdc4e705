// bare_osmesa — the one-pass floor for Throbber's GL renderer.
//
// Draws the default `wave-ball` frame of SPEC §1 (canvas N × N px, scale N / 300, time t) through
// OSMesa (llvmpipe) in ONE full-canvas draw of ONE fragment shader: every pixel computes the water
// disc, the front and back waves clipped to it, the background ticks, the thin circle and the lit
// ticks, blends them in registers (premultiplied source-over, SPEC §0) and quantises once into an
// RGBA8 renderbuffer; glReadPixels brings the frame back. Render + readback is timed per frame.
// No Swift, no Shaders/ directory: the GLSL is below. Whatever a one-pass GL renderer costs above
// these numbers is its own overhead over a lean way to draw the picture with this driver.
//
// With --batch K, K consecutive frames are drawn as tiles of one target (K·N tall, or in columns
// of at most GL_MAX_RENDERBUFFER_SIZE / N tiles) by one draw, and read back with one
// glReadPixels: the floor for batched small frames.
//
// What the shader's shape owes to llvmpipe (Mesa 22.3; measured on the JIT code, see
// bench/README.md): every read of a uniform in a fragment shader is a per-pixel gather (about 50
// instructions per 8 pixels for two floats), so the canvas geometry is compiled in as constants and
// the per-frame state arrives as flat varyings (free); a GLSL loop stays a real loop, so the two
// nearest ticks are written out; `if` and `discard` skip no work (both sides run under a mask), so
// there are no early-outs: only the instruction count per pixel matters.
//
// Build: bench/build.sh   (gcc -O2 … -lOSMesa -lm)
// Run:   bench/bare_osmesa [--size N] [--frames F] [--warmup W] [--time T | --animate] [--batch K]
//                          [--dump out.rgba]
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE 1  // M_PI
#define GL_GLEXT_PROTOTYPES 1
#include <GL/osmesa.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// ---------------------------------------------------------------------------------------------
// The shaders. Both get, after their #version line, #defines from the host (make_program):
// FRAMES, SIDE (the canvas side in px), ROWS and COLUMNS (the tiles of the target), EXTRA (ticks
// beyond the two nearest, per side) and this canvas's geometry in px as float constants.

static const char *vertex_source =
    "#version 330 core\n"
    "// One quad (two triangles) per frame tile, all in one draw: vertex 6·f + i is corner i of frame\n"
    "// f's tile. The tile's frame state goes to the fragment shader as flat varyings (on llvmpipe a\n"
    "// flat input costs nothing per pixel, while every uniform read is a per-pixel gather).\n"
    "uniform vec4 u_state[FRAMES];   // per frame: wave amplitude a·A (px), front phase φF (rad, reduced), baseline (px), lit count\n"
    "uniform vec2 u_turn[FRAMES];    // per frame: (cos, sin) of (φB + π/2) − φF, the back wave's phase lead over the front's\n"
    "flat out vec4 v_state;\n"
    "flat out vec2 v_turn;\n"
    "flat out vec2 v_origin;         // the tile's first pixel in the target (GL window coordinates)\n"
    "const vec2 CORNERS[6] = vec2[6](vec2(0, 0), vec2(1, 0), vec2(0, 1), vec2(0, 1), vec2(1, 0), vec2(1, 1));\n"
    "\n"
    "void main() {\n"
    "    int frame = gl_VertexID / 6;\n"
    "    // Tile (column, row) holds frame column·ROWS + row.\n"
    "    v_origin = vec2(float(frame / ROWS), float(frame % ROWS)) * float(SIDE);\n"
    "    v_state = u_state[frame];\n"
    "    v_turn = u_turn[frame];\n"
    "    vec2 p = (v_origin + CORNERS[gl_VertexID % 6] * float(SIDE)) / vec2(float(COLUMNS * SIDE), float(ROWS * SIDE));\n"
    "    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);\n"
    "}\n";

static const char *fragment_source =
    "#version 330 core\n"
    "// SPEC §1 wave-ball at default parameters, one pixel per invocation. Pixel convention as the\n"
    "// product's shaders: GL row j holds image row j (y down), so gl_FragCoord.xy − the tile's origin\n"
    "// is the pixel centre (x + 0.5, y + 0.5) in image coordinates and glReadPixels returns the rows\n"
    "// top-down. The geometry (px, for this canvas size) comes as constants in front of this text.\n"
    "const float TWO_PI = 6.28318530717958647692;\n"
    "const float TICKS = 100.0;                   // tickCount N\n"
    "const float BOTTOM = 25.0;                   // the tick at θ = π/2 (N / 4)\n"
    "const float STEP = TWO_PI / TICKS;           // 2π / N between ticks\n"
    "const float COS_STEP = cos(STEP), SIN_STEP = sin(STEP);\n"
    "// SPEC §1 colours, straight alpha.\n"
    "const vec4 WATER_BACKGROUND = vec4(0.259, 0.329, 0.506, 1.0);\n"
    "const vec4 FRONT_WATER = vec4(0.325, 0.392, 0.729, 1.0);\n"
    "const vec4 BACK_WATER = vec4(0.322, 0.514, 0.831, 1.0);\n"
    "const vec4 TICK_BACKGROUND = vec4(0.694, 0.745, 0.867, 1.0);\n"
    "const vec4 TICK_LIT = vec4(0.969, 0.937, 0.227, 1.0);\n"
    "\n"
    "flat in vec4 v_state;  // wave amplitude a·A (px), front phase φF (rad, reduced), baseline (px), lit count\n"
    "flat in vec2 v_turn;   // (cos, sin) of the back wave's phase lead over the front's\n"
    "flat in vec2 v_origin; // the tile's first pixel in the target\n"
    "out vec4 o_color;\n"
    "\n"
    "// SPEC §0 coverage: d the signed distance in px (negative inside); δ to a stroke's centre line.\n"
    "float fillCoverage(float d) { return clamp(0.5 - d, 0.0, 1.0); }\n"
    "float strokeCoverage(float delta, float w) {\n"
    "    return clamp(min(w * 0.5, 0.5 + delta) + min(w * 0.5, 0.5 - delta), 0.0, 1.0);\n"
    "}\n"
    "// SPEC §0 rounded box, q in the box's own frame (the ticks have corner radius 0).\n"
    "float roundedBoxDistance(vec2 q, vec2 h, float rho) {\n"
    "    vec2 k = abs(q) - (h - vec2(rho));\n"
    "    return length(max(k, 0.0)) + min(max(k.x, k.y), 0.0) - rho;\n"
    "}\n"
    "// SPEC §1 lit ticks: θ = π/2 ± n·step for n < count, each tick once (the top one, n = N/2,\n"
    "// too). Tick k lies in [−50 − EXTRA, 50 + EXTRA] here, so n = |k − 25| needs one fold.\n"
    "bool isLit(float k) {\n"
    "    float n = abs(k - BOTTOM);\n"
    "    return min(n, abs(TICKS - n)) < v_state.w;\n"
    "}\n"
    "// SPEC §0 premultiplied source-over: s = (rgb·a·c, a·c), dst = s + dst·(1 − s.a).\n"
    "vec4 over(vec4 dst, vec4 color, float coverage) {\n"
    "    float a = color.a * coverage;\n"
    "    return vec4(color.rgb * a, a) + dst * (1.0 - a);\n"
    "}\n"
    "\n"
    "void main() {\n"
    "    vec2 p = gl_FragCoord.xy - v_origin;\n"
    "    vec2 v = p - vec2(CENTER);\n"
    "    float dist = length(v);\n"
    "\n"
    "    // 1–3: the disc, disc ∩ below the front wave, disc ∩ below the back wave. SPEC §0 wave\n"
    "    // distance (f(x) − y) / sqrt(1 + f′(x)²) for f = a·A·sin(k·(x − left) + φ) + baseline;\n"
    "    // the back wave's sin and cos are the front's turned by its phase lead (no more trig).\n"
    "    float disc = fillCoverage(dist - DISC_R);\n"
    "    float arg = WAVE_K * (p.x - DISC_LEFT) + v_state.y;\n"
    "    float sinF = sin(arg), cosF = cos(arg);\n"
    "    float sinB = sinF * v_turn.x + cosF * v_turn.y, cosB = cosF * v_turn.x - sinF * v_turn.y;\n"
    "    float slope = v_state.x * WAVE_K;\n"
    "    float front = fillCoverage((v_state.x * sinF + v_state.z - p.y) * inversesqrt(1.0 + slope * slope * cosF * cosF));\n"
    "    float back = fillCoverage((v_state.x * sinB + v_state.z - p.y) * inversesqrt(1.0 + slope * slope * cosB * cosB));\n"
    "    vec4 acc = over(vec4(0.0), WATER_BACKGROUND, disc);\n"
    "    acc = over(acc, FRONT_WATER, front * disc);\n"
    "    acc = over(acc, BACK_WATER, back * disc);\n"
    "\n"
    "    // 4–6: background ticks, thin circle, lit ticks. The ticks that can reach the pixel are the\n"
    "    // two either side of its angle α (EXTRA more each side on canvases too small for two):\n"
    "    // tick k0 = floor(α / step) lies δ = α − k0·step ∈ [0, step) behind it, so in that tick's\n"
    "    // frame the pixel is ρ·(cos δ, sin δ) − (R, 0); the others are turned by whole steps.\n"
    "    float alpha = atan(v.y, v.x);\n"
    "    float k0 = floor(alpha * (TICKS / TWO_PI));\n"
    "    float d = alpha - k0 * STEP, d2 = d * d;\n"
    "    vec2 r0 = dist * vec2(1.0 - d2 * (1.0 / 2.0) * (1.0 - d2 * (1.0 / 12.0) * (1.0 - d2 * (1.0 / 30.0))),\n"
    "                          d * (1.0 - d2 * (1.0 / 6.0) * (1.0 - d2 * (1.0 / 20.0))));\n"
    "    // (Written out for the usual two ticks: llvmpipe runs a GLSL loop as a real loop.)\n"
    "#if EXTRA == 0\n"
    "    vec2 q0 = vec2(r0.x - TICK_R, r0.y);                                  // tick k0\n"
    "    vec2 q1 = vec2(r0.x * COS_STEP + r0.y * SIN_STEP - TICK_R, r0.y * COS_STEP - r0.x * SIN_STEP);  // k0 + 1\n"
    "    float cover0 = fillCoverage(roundedBoxDistance(q0, vec2(TICK_HX, TICK_HY), 0.0));\n"
    "    float cover1 = fillCoverage(roundedBoxDistance(q1, vec2(TICK_HX, TICK_HY), 0.0));\n"
    "    acc = over(acc, TICK_BACKGROUND, cover0);\n"
    "    acc = over(acc, TICK_BACKGROUND, cover1);\n"
    "    acc = over(acc, TICK_BACKGROUND, strokeCoverage(dist - CIRCLE_R, CIRCLE_W));\n"
    "    acc = over(acc, TICK_LIT, isLit(k0) ? cover0 : 0.0);\n"
    "    acc = over(acc, TICK_LIT, isLit(k0 + 1.0) ? cover1 : 0.0);\n"
    "#else\n"
    "    float cover[2 * EXTRA + 2];\n"
    "    for (int j = 0; j < 2 * EXTRA + 2; j++) {\n"
    "        float m = float(j - EXTRA);                                      // tick k0 + m\n"
    "        float c = cos(m * STEP), s = sin(m * STEP);\n"
    "        vec2 q = vec2(r0.x * c + r0.y * s - TICK_R, r0.y * c - r0.x * s);\n"
    "        cover[j] = fillCoverage(roundedBoxDistance(q, vec2(TICK_HX, TICK_HY), 0.0));\n"
    "        acc = over(acc, TICK_BACKGROUND, cover[j]);\n"
    "    }\n"
    "    acc = over(acc, TICK_BACKGROUND, strokeCoverage(dist - CIRCLE_R, CIRCLE_W));\n"
    "    for (int j = 0; j < 2 * EXTRA + 2; j++)\n"
    "        acc = over(acc, TICK_LIT, isLit(k0 + float(j - EXTRA)) ? cover[j] : 0.0);\n"
    "#endif\n"
    "\n"
    "    // The one quantisation (SPEC §0): straight alpha with the unquantised alpha,\n"
    "    // v8 = floor(clamp(v, 0, 1)·255 + 0.5); quantised alpha 0 is written as (0, 0, 0, 0).\n"
    "    vec4 straight = vec4(acc.rgb * (1.0 / acc.a), acc.a);\n"
    "    vec4 q8 = floor(clamp(straight, 0.0, 1.0) * 255.0 + 0.5) * (1.0 / 255.0);\n"
    "    o_color = q8.a == 0.0 ? vec4(0.0) : q8;\n"
    "}\n";

// ---------------------------------------------------------------------------------------------
// Small helpers

static void die(const char *fmt, const char *arg) {
    fprintf(stderr, "bare_osmesa: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    exit(1);
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// CPU time of the whole process (every thread: llvmpipe's rasterisers too), in ms.
static double cpu_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// Compiles `source` with `defines` inserted after its first (#version) line.
static GLuint compile_shader(GLenum type, const char *source, const char *defines) {
    const char *body = strchr(source, '\n') + 1;
    char version[64];
    snprintf(version, sizeof version, "%.*s", (int)(body - source), source);
    const GLchar *sources[3] = {version, defines, body};
    GLuint shader = glCreateShader(type);
    glShaderSource(shader, 3, sources, NULL);
    glCompileShader(shader);
    GLint status = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &status);
    if (!status) {
        char log[4096];
        glGetShaderInfoLog(shader, sizeof log, NULL, log);
        fprintf(stderr, "bare_osmesa: the %s shader failed to compile:\n%s\n",
                type == GL_VERTEX_SHADER ? "vertex" : "fragment", log);
        exit(1);
    }
    return shader;
}

static GLuint make_program(const char *defines) {
    GLuint vs = compile_shader(GL_VERTEX_SHADER, vertex_source, defines);
    GLuint fs = compile_shader(GL_FRAGMENT_SHADER, fragment_source, defines);
    GLuint program = glCreateProgram();
    glAttachShader(program, vs);
    glAttachShader(program, fs);
    glLinkProgram(program);
    GLint status = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &status);
    if (!status) {
        char log[4096];
        glGetProgramInfoLog(program, sizeof log, NULL, log);
        fprintf(stderr, "bare_osmesa: the program failed to link:\n%s\n", log);
        exit(1);
    }
    glDeleteShader(vs);
    glDeleteShader(fs);
    return program;
}

// ---------------------------------------------------------------------------------------------
// SPEC §1 at default parameters (size 300 pt, N = 100 ticks, L = 10, tickWidth 2, scaleMargin 30,
// waveMargin 18, λ = 180, A = 10, p = 0.45, p0 = 0), in double like WaveBall.swift; values reach
// the shader as float.

static const double S = 300, L = 10, TICK_WIDTH = 2, SCALE_MARGIN = 30, WAVE_MARGIN = 18;
static const double WAVE_LENGTH = 180, AMPLITUDE = 10, PROGRESS = 0.45, FILL_FROM = 0;
static const int TICK_COUNT = 100;

// Phases are reduced modulo 2π in double before they become float (SPEC §0 "Time").
static double reduced_phase(double angle) {
    const double twoPi = 2 * M_PI;
    double r = angle - twoPi * floor(angle / twoPi);
    return r >= twoPi ? 0 : r;
}

static double disc_diameter(void) { return S - 2 * (SCALE_MARGIN + WAVE_MARGIN + L); }  // D = 184

// One frame's state as the shader's u_state and u_turn.
static void frame_state(double t, double s, float state[4], float turn[2]) {
    double n = 50 * t;
    double a = 1 + 0.01 * fabs(fmod(n, 100) - 50);                    // 1.5 → 1.0 → 1.5, period 2 s
    double frontPhase = 0.4 * 50 * t / M_PI;                          // φF = 0.4·n/π
    double backPhase = 0.3 * 50 * t / M_PI;                           // φB = 0.3·n/π
    double d = disc_diameter();
    double startLevel = d * (1 - FILL_FROM), targetLevel = d * (1 - PROGRESS);
    double level = startLevel + fmin(fmax(targetLevel - startLevel, -n), n);  // 50 pt/s towards yT
    double filled = (d - level) / d;                                  // q(t)
    double count = floor(((double)TICK_COUNT / 2 + 1) * filled + 1e-9);
    double boxTop = S / 2 - d / 2;
    float front = (float)reduced_phase(frontPhase);
    float back = (float)reduced_phase(backPhase + M_PI / 2);          // cos x = sin(x + π/2)
    state[0] = (float)(a * AMPLITUDE * s);
    state[1] = front;
    state[2] = (float)((boxTop + level) * s);
    state[3] = (float)fmax(0, count);
    // The back wave's argument is the front's plus (back − front) of the float phases the
    // reference renderers use.
    turn[0] = (float)cos((double)back - (double)front);
    turn[1] = (float)sin((double)back - (double)front);
}

// How many ticks beyond the two either side of a pixel's angle can still reach it. A tick
// m steps (m ≥ 1) further round is at least m·2π/N away in angle; it covers nothing where
// ρ·sin(m·2π/N) ≥ hy + ½, with ρ ≥ R − hx − ½ wherever any tick covers (all in px).
static int extra_ticks(double s) {
    double step = 2 * M_PI / TICK_COUNT;
    double rhoMin = (S / 2 - SCALE_MARGIN - L) * s - 0.5;  // inner end of the ticks, less ½ px
    double hy = TICK_WIDTH / 2 * s;
    for (int m = 1; m < TICK_COUNT / 2; m++) {
        double angle = fmin(m * step, M_PI / 2);
        if (rhoMin > 0 && rhoMin * sin(angle) >= hy + 0.5) return m - 1;
    }
    return TICK_COUNT / 2 - 1;  // a canvas of a few px: every tick
}

// ---------------------------------------------------------------------------------------------

static void usage(void) {
    fprintf(stderr,
            "usage: bare_osmesa [--size N] [--frames F] [--warmup W] [--time T | --animate] [--batch K] [--dump out.rgba]\n"
            "  --size N     canvas side in px (scale N/300; default 512)\n"
            "  --frames F   measured frames (default 200; rounded up to a multiple of K)\n"
            "  --warmup W   unmeasured frames first (default 20; rounded up to a multiple of K)\n"
            "  --time T     animation time in seconds (default 1.0); every frame is this one\n"
            "  --animate    frame i at t = i/60; warm-up on frames 0 … W − 1\n"
            "  --batch K    K consecutive frames per draw and per glReadPixels (default 1)\n"
            "  --dump FILE  write the last frame as raw top-down straight-alpha RGBA8\n");
    exit(2);
}

int main(int argc, char **argv) {
    int size = 512, frames = 200, warmup = 20, animate = 0, batch = 1;
    double t = 1.0;
    const char *dumpPath = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--animate") == 0) { animate = 1; continue; }
        if (i + 1 >= argc) usage();
        const char *v = argv[++i];
        char *end;
        if (strcmp(a, "--size") == 0) { size = (int)strtol(v, &end, 10); if (*end || size < 1) usage(); }
        else if (strcmp(a, "--frames") == 0) { frames = (int)strtol(v, &end, 10); if (*end || frames < 1) usage(); }
        else if (strcmp(a, "--warmup") == 0) { warmup = (int)strtol(v, &end, 10); if (*end || warmup < 0) usage(); }
        else if (strcmp(a, "--batch") == 0) { batch = (int)strtol(v, &end, 10); if (*end || batch < 1 || batch > 1024) usage(); }
        else if (strcmp(a, "--time") == 0) { t = strtod(v, &end); if (*end || !(t >= 0) || !isfinite(t)) usage(); }
        else if (strcmp(a, "--dump") == 0) dumpPath = v;
        else usage();
    }
    int batches = (frames + batch - 1) / batch, warmupBatches = (warmup + batch - 1) / batch;

    // A core-profile context (no depth, no stencil), current on a 1×1 dummy buffer; the frame
    // goes to an FBO.
    const int attributes[] = {
        OSMESA_FORMAT, GL_RGBA,
        OSMESA_DEPTH_BITS, 0,
        OSMESA_STENCIL_BITS, 0,
        OSMESA_PROFILE, OSMESA_CORE_PROFILE,
        OSMESA_CONTEXT_MAJOR_VERSION, 3,
        OSMESA_CONTEXT_MINOR_VERSION, 3,
        0,
    };
    OSMesaContext context = OSMesaCreateContextAttribs(attributes, NULL);
    if (!context) die("%s", "OSMesaCreateContextAttribs could not create an OpenGL 3.3 core context");
    static unsigned char dummy[4];
    if (!OSMesaMakeCurrent(context, dummy, GL_UNSIGNED_BYTE, 1, 1)) die("%s", "OSMesaMakeCurrent failed");

    // The target: the batch's tiles in columns of at most maxSide / N.
    GLint maxRenderbuffer = 0, maxViewport[2] = {0, 0};
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &maxRenderbuffer);
    glGetIntegerv(GL_MAX_VIEWPORT_DIMS, maxViewport);
    int maxSide = maxRenderbuffer;
    if (maxViewport[0] < maxSide) maxSide = maxViewport[0];
    if (maxViewport[1] < maxSide) maxSide = maxViewport[1];
    char limit[32];
    snprintf(limit, sizeof limit, "%d", maxSide);
    if (size > maxSide) die("--size is above this driver's largest target side, %s px", limit);
    int rows = batch < maxSide / size ? batch : maxSide / size;
    int columns = (batch + rows - 1) / rows;
    rows = (batch + columns - 1) / columns;
    if ((long)columns * size > maxSide) die("--batch K × --size N does not fit in one target of at most %s px a side", limit);
    int width = columns * size, height = rows * size;

    double scale = (double)size / 300.0;
    int extra = extra_ticks(scale);
    // This canvas's geometry (SPEC §1) in px, computed in double and written as float constants.
    double c = S / 2, r = disc_diameter() / 2, ringWidth = S - 2 * SCALE_MARGIN;
    char defines[1024];
    snprintf(defines, sizeof defines,
             "#define FRAMES %d\n#define SIDE %d\n#define ROWS %d\n#define COLUMNS %d\n#define EXTRA %d\n"
             "const float CENTER = %.9e;    // disc, ring and circle centre (x and y)\n"
             "const float DISC_R = %.9e;    // water disc radius\n"
             "const float DISC_LEFT = %.9e; // the disc box's left edge, where the waves' x starts\n"
             "const float WAVE_K = %.9e;    // 2π/λ (rad/px)\n"
             "const float TICK_R = %.9e;    // tick centre-line radius\n"
             "const float TICK_HX = %.9e;   // tick half extent along the radius\n"
             "const float TICK_HY = %.9e;   // tick half extent across\n"
             "const float CIRCLE_R = %.9e;  // thin circle radius\n"
             "const float CIRCLE_W = %.9e;  // thin circle stroke width\n",
             batch, size, rows, columns, extra, (float)(c * scale), (float)(r * scale), (float)((c - r) * scale),
             (float)(2 * M_PI / (WAVE_LENGTH * scale)), (float)((ringWidth / 2 - L / 2) * scale), (float)(L / 2 * scale),
             (float)(TICK_WIDTH / 2 * scale), (float)(fmax(0, ringWidth / 2 - L - 3) * scale), (float)(0.5 * scale));
    GLuint program = make_program(defines);
    glUseProgram(program);
    GLint stateLocation = glGetUniformLocation(program, "u_state"), turnLocation = glGetUniformLocation(program, "u_turn");

    GLuint vertexArray, renderbuffer, framebuffer;
    glGenVertexArrays(1, &vertexArray);
    glBindVertexArray(vertexArray);
    glGenRenderbuffers(1, &renderbuffer);
    glBindRenderbuffer(GL_RENDERBUFFER, renderbuffer);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glGenFramebuffers(1, &framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, renderbuffer);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) die("%s", "the RGBA8 framebuffer is incomplete");
    glViewport(0, 0, width, height);
    glDisable(GL_BLEND);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);

    size_t bytes = (size_t)width * height * 4;
    unsigned char *pixels = malloc(bytes);
    float *state = malloc(sizeof(float) * 4 * batch), *turn = malloc(sizeof(float) * 2 * batch);
    double *ms = malloc(sizeof(double) * batches);
    if (!pixels || !state || !turn || !ms) die("%s", "out of memory");

    // One batch: the frames' state (t = i / 60 for frame i with --animate, else T), one draw, one
    // readback (which waits for llvmpipe to finish).
    int lastFrame = 0;
#define DRAW_BATCH(first)                                                                          \
    do {                                                                                           \
        for (int f = 0; f < batch; f++)                                                            \
            frame_state(animate ? (double)((first) + f) / 60 : t, scale, state + 4 * f, turn + 2 * f); \
        glUniform4fv(stateLocation, batch, state);                                                 \
        glUniform2fv(turnLocation, batch, turn);                                                   \
        glDrawArrays(GL_TRIANGLES, 0, 6 * batch);                                                  \
        glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels);                      \
        lastFrame = (first) + batch - 1;                                                           \
    } while (0)

    for (int b = 0; b < warmupBatches; b++) DRAW_BATCH(b * batch);
    double total0 = now_ms(), cpu0 = cpu_ms();
    for (int b = 0; b < batches; b++) {
        double t0 = now_ms();
        DRAW_BATCH(b * batch);
        ms[b] = (now_ms() - t0) / batch;
    }
    double total = now_ms() - total0, cpu = cpu_ms() - cpu0;
#undef DRAW_BATCH
    GLenum error = glGetError();
    if (error != GL_NO_ERROR) {
        fprintf(stderr, "bare_osmesa: OpenGL error 0x%04X while rendering\n", error);
        exit(1);
    }

    // The last frame (tile batch − 1), top-down rows.
    size_t frameBytes = (size_t)size * size * 4, rowBytes = (size_t)size * 4;
    unsigned char *last = malloc(frameBytes);
    int lastColumn = (batch - 1) / rows, lastRow = (batch - 1) % rows;
    for (int y = 0; y < size; y++)
        memcpy(last + y * rowBytes, pixels + ((size_t)(lastRow * size + y) * width + (size_t)lastColumn * size) * 4, rowBytes);
    uint64_t hash = 0xcbf29ce484222325ULL;  // FNV-1a 64
    for (size_t i = 0; i < frameBytes; i++) {
        hash ^= last[i];
        hash *= 0x100000001b3ULL;
    }
    if (dumpPath) {
        FILE *out = fopen(dumpPath, "wb");
        if (!out || fwrite(last, 1, frameBytes, out) != frameBytes || fclose(out) != 0) die("cannot write %s", dumpPath);
    }

    qsort(ms, batches, sizeof(double), compare_double);
    double median = batches % 2 ? ms[batches / 2] : 0.5 * (ms[batches / 2 - 1] + ms[batches / 2]);
    const char *threads = getenv("LP_NUM_THREADS");
    int measured = batches * batch;
    printf("renderer     %s (%s)\n", (const char *)glGetString(GL_RENDERER), (const char *)glGetString(GL_VERSION));
    if (animate)
        printf("scene        wave-ball t=i/60, i=0..%d, %d x %d px (scale %.17g), LP_NUM_THREADS=%s\n", measured - 1, size,
               size, scale, threads ? threads : "(unset)");
    else
        printf("scene        wave-ball t=%g s, %d x %d px (scale %.17g), LP_NUM_THREADS=%s\n", t, size, size, scale,
               threads ? threads : "(unset)");
    printf("pass         one draw of one fragment shader over %d x %d px (%d frame%s: %d column%s of %d), %d ticks per pixel\n",
           width, height, batch, batch == 1 ? "" : "s", columns, columns == 1 ? "" : "s", rows, 2 + 2 * extra);
    printf("frames       %d measured after %d warm-up, in draws of %d\n", measured, warmupBatches * batch, batch);
    printf("ms/frame     min %.4f  median %.4f  max %.4f  (render + readback%s)\n", ms[0], median, ms[batches - 1],
           batch > 1 ? ", per draw / K" : "");
    printf("frames/s     %.1f (median), %.1f (total wall)\n", 1000.0 / median, measured * 1000.0 / total);
    printf("Mpix/s       %.1f (median)\n", (double)size * size / (median * 1000.0));
    printf("CPU ms/frame %.4f (user + system, every thread, over the measured frames)\n", cpu / measured);
    printf("checksum     %016llx (FNV-1a 64 of frame %d's RGBA8)\n", (unsigned long long)hash, lastFrame);
    printf("floor size=%d batch=%d median_ms=%.4f min_ms=%.4f max_ms=%.4f cpu_ms=%.4f frames=%d threads=%s\n", size, batch,
           median, ms[0], ms[batches - 1], cpu / measured, measured, threads ? threads : "unset");

    free(last);
    free(ms);
    free(turn);
    free(state);
    free(pixels);
    OSMesaDestroyContext(context);
    return 0;
}
