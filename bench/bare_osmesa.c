// bare_osmesa — the performance floor for Throbber's GL renderer.
//
// Draws exactly the frame `throbber render wave-ball --backend gl` draws (default parameters,
// time t, canvas N × N px with scale N / 300), with the same GLSL files and the same GL call
// sequence as Sources/ThrobberGL/GLRenderer.swift, through OSMesa (llvmpipe), and times
// render + readback per frame. Nothing of Swift is involved: whatever the Swift renderer costs
// above these numbers is overhead of the Swift side.
//
// References replicated here (keep in step with them):
//   Sources/ThrobberGL/ShaderLibrary.swift  `#include` expansion with #line directives
//   Sources/ThrobberGL/OSMesaGLContext.swift core 3.3 context, current on a 1×1 dummy buffer
//   Sources/ThrobberGL/GLRenderer.swift      FBOs, blending, draw calls, resolve, readback
//   Sources/ThrobberGL/GLProgram.swift       compile / link / uniform look-up
//   Sources/Throbber/Scenes/WaveBall.swift   frame state and primitives (SPEC §1)
//   Sources/Throbber/DrawList/DrawList.swift single-precision values, PixelRect bounds, phases
//
// Build: bench/build.sh   (gcc -O2 … -lOSMesa -lm)
// Run:   bench/bare_osmesa [--size N] [--frames F] [--warmup W] [--time T]
//                          [--shader-dir DIR] [--dump out.rgba]
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE 1  // M_PI
#define GL_GLEXT_PROTOTYPES 1
#include <GL/osmesa.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// ---------------------------------------------------------------------------------------------
// Shader library: every .vert/.frag/.glsl of a directory, with ShaderLibrary.swift's expansion.

#define MAX_SHADERS 64

typedef struct {
    char *name;
    char *text;
} ShaderFile;

static ShaderFile shader_files[MAX_SHADERS];
static int shader_count;

static int has_suffix(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static char *read_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    size_t got;
    while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len - 1 == 0) buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    buf[len] = 0;
    return buf;
}

static void load_shader_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) die("cannot read shader directory %s", dir);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!(has_suffix(e->d_name, ".vert") || has_suffix(e->d_name, ".frag") || has_suffix(e->d_name, ".glsl")))
            continue;
        if (shader_count == MAX_SHADERS) die("too many shaders in %s", dir);
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *text = read_text(path);
        if (!text) die("cannot read shader %s", path);
        shader_files[shader_count].name = strdup(e->d_name);
        shader_files[shader_count].text = text;
        shader_count++;
    }
    closedir(d);
}

static const char *shader_text(const char *name) {
    for (int i = 0; i < shader_count; i++)
        if (strcmp(shader_files[i].name, name) == 0) return shader_files[i].text;
    return NULL;
}

// Growable string.
typedef struct {
    char *p;
    size_t len, cap;
} Str;

static void str_append(Str *s, const char *text, size_t n) {
    if (s->len + n + 1 > s->cap) {
        while (s->len + n + 1 > s->cap) s->cap = s->cap ? s->cap * 2 : 4096;
        s->p = realloc(s->p, s->cap);
    }
    memcpy(s->p + s->len, text, n);
    s->len += n;
    s->p[s->len] = 0;
}

static void str_appends(Str *s, const char *text) { str_append(s, text, strlen(text)); }

// ShaderLibrary.source(_:): split on "\n" (empty pieces kept), replace each line whose
// space/tab-trimmed form starts with "#include" by "#line 1 1", the included file's body and
// "#line <index + 2> 0"; join with "\n". One level only, like the Swift loader.
static char *expanded_source(const char *name) {
    const char *text = shader_text(name);
    if (!text) die("shader %s is missing from the shader directory", name);
    Str out = {0};
    const char *line = text;
    int index = 0;
    for (;;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (index > 0) str_appends(&out, "\n");
        const char *t = line, *te = line + len;
        while (t < te && (*t == ' ' || *t == '\t')) t++;
        while (te > t && (te[-1] == ' ' || te[-1] == '\t')) te--;
        if ((size_t)(te - t) >= 8 && strncmp(t, "#include", 8) == 0) {
            const char *a = t + 8, *b = te;
            while (a < b && (*a == ' ' || *a == '"')) a++;
            while (b > a && (b[-1] == ' ' || b[-1] == '"')) b--;
            char included[256];
            size_t n = (size_t)(b - a) < sizeof included - 1 ? (size_t)(b - a) : sizeof included - 1;
            memcpy(included, a, n);
            included[n] = 0;
            const char *body = shader_text(included);
            if (!body) die("an included shader is missing: %s", included);
            char directive[64];
            str_appends(&out, "#line 1 1\n");
            str_appends(&out, body);
            snprintf(directive, sizeof directive, "\n#line %d 0", index + 2);
            str_appends(&out, directive);
        } else {
            str_append(&out, line, len);
        }
        if (!end) break;
        line = end + 1;
        index++;
    }
    return out.p;
}

// ---------------------------------------------------------------------------------------------
// GL programs (GLProgram.swift)

static GLuint compile_shader(GLenum type, const char *name) {
    char *source = expanded_source(name);
    GLuint shader = glCreateShader(type);
    const GLchar *pointer = source;
    glShaderSource(shader, 1, &pointer, NULL);
    glCompileShader(shader);
    GLint status = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &status);
    if (!status) {
        char log[4096];
        glGetShaderInfoLog(shader, sizeof log, NULL, log);
        fprintf(stderr, "bare_osmesa: shader %s failed to compile:\n%s\n", name, log);
        exit(1);
    }
    free(source);
    return shader;
}

static GLuint link_program(const char *vertex, const char *fragment) {
    GLuint vs = compile_shader(GL_VERTEX_SHADER, vertex);
    GLuint fs = compile_shader(GL_FRAGMENT_SHADER, fragment);
    GLuint program = glCreateProgram();
    glAttachShader(program, vs);
    glAttachShader(program, fs);
    glLinkProgram(program);
    GLint status = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &status);
    if (!status) {
        char log[4096];
        glGetProgramInfoLog(program, sizeof log, NULL, log);
        fprintf(stderr, "bare_osmesa: %s + %s failed to link:\n%s\n", vertex, fragment, log);
        exit(1);
    }
    glDeleteShader(vs);
    glDeleteShader(fs);
    return program;
}

// Uniform locations, looked up once at creation like GLProgram.
typedef struct {
    GLuint id;
    GLint u_resolution, u_rect, u_color;
    GLint u_circle;                                  // disc
    GLint u_wave, u_baseline, u_clip, u_bottom;      // wave
    GLint u_arc, u_sweep, u_maskRotation;            // arc
    GLint u_accum;                                   // resolve
} Program;

static Program make_program(const char *vertex, const char *fragment) {
    Program p;
    p.id = link_program(vertex, fragment);
#define LOC(field) p.field = glGetUniformLocation(p.id, #field)
    LOC(u_resolution); LOC(u_rect); LOC(u_color); LOC(u_circle);
    LOC(u_wave); LOC(u_baseline); LOC(u_clip); LOC(u_bottom);
    LOC(u_arc); LOC(u_sweep); LOC(u_maskRotation); LOC(u_accum);
#undef LOC
    return p;
}

// ---------------------------------------------------------------------------------------------
// Draw list (DrawList.swift), single-precision values computed in double

typedef struct { float r, g, b, a; } PaintColor;
typedef struct { int x0, y0, x1, y1; } PixelRect;

typedef struct { float centerX, centerY, radius; PaintColor color; PixelRect bounds; } Disc;
typedef struct {
    float originX, amplitude, k, phase, baseline, clipCenterX, clipCenterY, clipRadius, bottom;
    PaintColor color;
    PixelRect bounds;
} Wave;
typedef struct {
    float centerX, centerY, radius, lineWidth, start, sweep, maskRotation;
    PaintColor color;
    PixelRect bounds;
} Arc;
typedef struct { float centerX, centerY, halfX, halfY, rotation, cornerRadius; PaintColor color; } QuadInstance;

#define MAX_QUADS 256

typedef struct {
    int width, height;
    PaintColor background;
    Disc disc;
    Wave front, back;
    QuadInstance backgroundTicks[MAX_QUADS];
    int backgroundTickCount;
    Arc circle;
    QuadInstance litTicks[MAX_QUADS];
    int litTickCount;
} Frame;

static PaintColor paint(double r, double g, double b, double a) {
    return (PaintColor){(float)r, (float)g, (float)b, (float)a};
}

// PixelRect.init(minX:minY:maxX:maxY:margin:width:height:)
static PixelRect pixel_rect(double minX, double minY, double maxX, double maxY, double margin, int width, int height) {
#define CFLOOR(v, limit) (int)fmax(0, fmin((double)(limit), floor((v) - margin)))
#define CCEIL(v, limit) (int)fmax(0, fmin((double)(limit), ceil((v) + margin)))
    return (PixelRect){CFLOOR(minX, width), CFLOOR(minY, height), CCEIL(maxX, width), CCEIL(maxY, height)};
#undef CFLOOR
#undef CCEIL
}

static int rect_empty(PixelRect r) { return r.x1 <= r.x0 || r.y1 <= r.y0; }

// reducedPhase(_:)
static double reduced_phase(double angle) {
    const double twoPi = 2 * M_PI;
    double r = angle - twoPi * floor(angle / twoPi);
    return r >= twoPi ? 0 : r;
}

// Wave.init(… clipCenterX:clipCenterY:clipRadius: …): a wave clipped to a circle.
static Wave make_wave(double originX, double amplitude, double k, double phase, double baseline,
                      double ccx, double ccy, double cr, PaintColor color, int width, int height) {
    Wave w;
    w.originX = (float)originX;
    w.amplitude = (float)amplitude;
    w.k = (float)k;
    w.phase = (float)reduced_phase(phase);
    w.baseline = (float)baseline;
    w.clipCenterX = (float)ccx;
    w.clipCenterY = (float)ccy;
    w.clipRadius = (float)cr;
    w.bottom = 1e30f;  // Wave.noBottom
    w.color = color;
    double top = fmax(ccy - cr, baseline - fabs(amplitude));
    w.bounds = pixel_rect(ccx - cr, top, ccx + cr, ccy + cr, 1, width, height);
    return w;
}

// The wave-ball frame at t seconds, default parameters (WaveBall.swift, SPEC §1).
static Frame wave_ball_frame(double t, double s) {
    const double size = 300, tickLength = 10, tickWidth = 2, scaleMargin = 30, waveMargin = 18;
    const double waveLength = 180, amplitude = 10, progress = 0.45, fillFrom = 0;
    const int tickCount = 100;
    const PaintColor waterBackground = paint(0.259, 0.329, 0.506, 1);
    const PaintColor frontWater = paint(0.325, 0.392, 0.729, 1);
    const PaintColor backWater = paint(0.322, 0.514, 0.831, 1);
    const PaintColor tickBackground = paint(0.694, 0.745, 0.867, 1);
    const PaintColor tickLit = paint(0.969, 0.937, 0.227, 1);

    Frame f;
    memset(&f, 0, sizeof f);
    // Scene.pixels: ceil(points × scale − 1e-9).
    f.width = f.height = (int)ceil(size * s - 1e-9);
    f.background = paint(0, 0, 0, 0);  // defaultBackground: clear
    int width = f.width, height = f.height;

    // frameState(at:)
    double n = 50 * t;
    double amplitudeFactor = 1 + 0.01 * fabs(fmod(n, 100) - 50);
    double discInset = scaleMargin + waveMargin + tickLength;
    double d = size - 2 * discInset;
    double startLevel = d * (1 - fillFrom);
    double targetLevel = d * (1 - progress);
    double travelled = 50 * t;
    double level = startLevel + fmin(fmax(targetLevel - startLevel, -travelled), travelled);
    double filled = (d - level) / d;
    long litCount = (long)(((double)tickCount / 2 + 1) * filled + 1e-9);
    if (litCount < 0) litCount = 0;
    double frontPhase = 0.4 * n / M_PI, backPhase = 0.3 * n / M_PI;

    // drawItems(for:scale:width:height:)
    double c = size / 2;
    double r = d / 2;
    double ringWidth = size - 2 * scaleMargin;
    double boxLeft = c - r, boxTop = c - r;
    double waveAmplitude = amplitudeFactor * amplitude * s;
    double k = 2 * M_PI / (waveLength * s);
    double baseline = (boxTop + level) * s;

    f.disc.centerX = (float)(c * s);
    f.disc.centerY = (float)(c * s);
    f.disc.radius = (float)(r * s);
    f.disc.color = waterBackground;
    f.disc.bounds = pixel_rect(c * s - r * s, c * s - r * s, c * s + r * s, c * s + r * s, 1, width, height);

    f.front = make_wave(boxLeft * s, waveAmplitude, k, frontPhase, baseline, c * s, c * s, r * s, frontWater, width, height);
    // cos(x) = sin(x + π/2): the back wave is the same primitive a quarter period on.
    f.back = make_wave(boxLeft * s, waveAmplitude, k, backPhase + M_PI / 2, baseline, c * s, c * s, r * s, backWater,
                       width, height);

    double step = 2 * M_PI / (double)tickCount;
    double tickRadius = (ringWidth / 2 - tickLength / 2) * s;
#define TICK(dst, theta, paintColor)                                       \
    do {                                                                   \
        double th_ = (theta);                                              \
        (dst).centerX = (float)(c * s + tickRadius * cos(th_));            \
        (dst).centerY = (float)(c * s + tickRadius * sin(th_));            \
        (dst).halfX = (float)(tickLength / 2 * s);                         \
        (dst).halfY = (float)(tickWidth / 2 * s);                          \
        (dst).rotation = (float)reduced_phase(th_);                        \
        (dst).cornerRadius = 0.0f;                                         \
        (dst).color = (paintColor);                                        \
    } while (0)
    for (int i = 0; i < tickCount; i++) TICK(f.backgroundTicks[i], (double)i * step, tickBackground);
    f.backgroundTickCount = tickCount;

    // Thin full circle: start 0, sweep 2π → 2·Float.pi. Swift's Float.pi is π rounded toward
    // zero (0x1.921fb4p+1), so the sweep is 0x1.921fb4p+2, one ulp below GLSL's TWO_PI.
    double arcRadius = fmax(0, ringWidth / 2 - tickLength - 3) * s;
    double lineWidth = 0.5 * s;
    f.circle.centerX = (float)(c * s);
    f.circle.centerY = (float)(c * s);
    f.circle.radius = (float)arcRadius;
    f.circle.lineWidth = (float)lineWidth;
    f.circle.start = (float)reduced_phase(0);
    f.circle.sweep = 2 * 0x1.921fb4p+1f;
    f.circle.maskRotation = -1;
    f.circle.color = tickBackground;
    double reach = arcRadius + lineWidth / 2;
    f.circle.bounds = pixel_rect(c * s - reach, c * s - reach, c * s + reach, c * s + reach, 1, width, height);

    // litTickAngles(count:): bottom first, alternating sides, each once.
    int lit = 0;
    for (long j = 0; j < litCount && lit + 2 <= MAX_QUADS; j++) {
        TICK(f.litTicks[lit], M_PI / 2 + (double)j * step, tickLit);
        lit++;
        if (j > 0 && 2 * j != tickCount) {
            TICK(f.litTicks[lit], M_PI / 2 - (double)j * step, tickLit);
            lit++;
        }
    }
    f.litTickCount = lit;
#undef TICK
    return f;
}

// ---------------------------------------------------------------------------------------------
// Renderer (GLRenderer.swift)

typedef struct {
    Program disc, wave, arc, quad, resolve;
    GLuint vertexArray, instanceBuffer;
    GLuint accumTexture, accumFramebuffer, outputRenderbuffer, outputFramebuffer;
    int width, height;
    float instanceData[MAX_QUADS * 10];
} Renderer;

static void set_up_instancing(Renderer *R) {
    glGenVertexArrays(1, &R->vertexArray);
    glBindVertexArray(R->vertexArray);
    glGenBuffers(1, &R->instanceBuffer);
    glBindBuffer(GL_ARRAY_BUFFER, R->instanceBuffer);
    // Per instance: centre (2), half extents (2), rotation, corner radius, colour (4).
    const GLsizei stride = 10 * sizeof(float);
    const int layout[5][3] = {{0, 2, 0}, {1, 2, 2}, {2, 1, 4}, {3, 1, 5}, {4, 4, 6}};
    for (int i = 0; i < 5; i++) {
        glEnableVertexAttribArray(layout[i][0]);
        glVertexAttribPointer(layout[i][0], layout[i][1], GL_FLOAT, GL_FALSE, stride,
                              (const void *)(uintptr_t)(layout[i][2] * sizeof(float)));
        glVertexAttribDivisor(layout[i][0], 1);
    }
}

static void check_framebuffer(const char *what) {
    GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE) die("the %s framebuffer is incomplete", what);
}

static void prepare_target(Renderer *R, int width, int height) {
    if (R->accumFramebuffer && R->width == width && R->height == height) return;
    R->width = width;
    R->height = height;
    glGenTextures(1, &R->accumTexture);
    glBindTexture(GL_TEXTURE_2D, R->accumTexture);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, width, height, 0, GL_RGBA, GL_FLOAT, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGenFramebuffers(1, &R->accumFramebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, R->accumFramebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, R->accumTexture, 0);
    check_framebuffer("accumulation (RGBA32F)");
    glGenRenderbuffers(1, &R->outputRenderbuffer);
    glBindRenderbuffer(GL_RENDERBUFFER, R->outputRenderbuffer);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glGenFramebuffers(1, &R->outputFramebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, R->outputFramebuffer);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, R->outputRenderbuffer);
    check_framebuffer("output (RGBA8)");
}

static void use_program(const Program *p, float width, float height, PixelRect rect, PaintColor color) {
    glUseProgram(p->id);
    glUniform2f(p->u_resolution, width, height);
    glUniform4f(p->u_rect, (float)rect.x0, (float)rect.y0, (float)rect.x1, (float)rect.y1);
    glUniform4f(p->u_color, color.r, color.g, color.b, color.a);
}

static void draw_area(void) { glDrawArrays(GL_TRIANGLE_STRIP, 0, 4); }

static void draw_disc(Renderer *R, const Disc *d, float width, float height) {
    if (rect_empty(d->bounds)) return;
    use_program(&R->disc, width, height, d->bounds, d->color);
    glUniform3f(R->disc.u_circle, d->centerX, d->centerY, d->radius);
    draw_area();
}

static void draw_wave(Renderer *R, const Wave *w, float width, float height) {
    if (rect_empty(w->bounds)) return;
    use_program(&R->wave, width, height, w->bounds, w->color);
    glUniform4f(R->wave.u_wave, w->originX, w->amplitude, w->k, w->phase);
    glUniform1f(R->wave.u_baseline, w->baseline);
    glUniform3f(R->wave.u_clip, w->clipCenterX, w->clipCenterY, w->clipRadius);
    glUniform1f(R->wave.u_bottom, w->bottom);
    draw_area();
}

static void draw_arc(Renderer *R, const Arc *a, float width, float height) {
    if (rect_empty(a->bounds)) return;
    use_program(&R->arc, width, height, a->bounds, a->color);
    glUniform4f(R->arc.u_arc, a->centerX, a->centerY, a->radius, a->lineWidth);
    glUniform2f(R->arc.u_sweep, a->start, a->sweep);
    glUniform1f(R->arc.u_maskRotation, a->maskRotation);
    draw_area();
}

// A quad batch. (The Swift path also skips a batch whose union bounds are empty; for the
// wave-ball ring they never are, so the union is not computed here.)
static void draw_quads(Renderer *R, const QuadInstance *q, int count, float width, float height) {
    if (count == 0) return;
    float *data = R->instanceData;
    for (int i = 0; i < count; i++) {
        float *v = data + 10 * i;
        v[0] = q[i].centerX; v[1] = q[i].centerY; v[2] = q[i].halfX; v[3] = q[i].halfY;
        v[4] = q[i].rotation; v[5] = q[i].cornerRadius;
        v[6] = q[i].color.r; v[7] = q[i].color.g; v[8] = q[i].color.b; v[9] = q[i].color.a;
    }
    glUseProgram(R->quad.id);
    glUniform2f(R->quad.u_resolution, width, height);
    glBindBuffer(GL_ARRAY_BUFFER, R->instanceBuffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(count * 10 * sizeof(float)), data, GL_STREAM_DRAW);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, count);
}

// GLRenderer.draw(_:): paint in SPEC §1 order, then resolve.
static void draw_frame(Renderer *R, const Frame *f) {
    prepare_target(R, f->width, f->height);
    float width = (float)f->width, height = (float)f->height;
    glBindFramebuffer(GL_FRAMEBUFFER, R->accumFramebuffer);
    glViewport(0, 0, f->width, f->height);
    PaintColor bg = f->background;
    glClearColor(bg.r * bg.a, bg.g * bg.a, bg.b * bg.a, bg.a);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_BLEND);
    // Premultiplied source-over: dst = s + dst·(1 − s.a) (SPEC §0).
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glBindVertexArray(R->vertexArray);
    draw_disc(R, &f->disc, width, height);
    draw_wave(R, &f->front, width, height);
    draw_wave(R, &f->back, width, height);
    draw_quads(R, f->backgroundTicks, f->backgroundTickCount, width, height);
    draw_arc(R, &f->circle, width, height);
    draw_quads(R, f->litTicks, f->litTickCount, width, height);
    // Resolve: the one quantisation, into the RGBA8 target.
    glDisable(GL_BLEND);
    glBindFramebuffer(GL_FRAMEBUFFER, R->outputFramebuffer);
    glUseProgram(R->resolve.id);
    glUniform2f(R->resolve.u_resolution, width, height);
    glUniform4f(R->resolve.u_rect, 0, 0, width, height);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, R->accumTexture);
    glUniform1i(R->resolve.u_accum, 0);
    draw_area();
}

// GLRenderer.readBack(into:) + the error check of render(_:into:).
static void read_back(Renderer *R, unsigned char *pixels) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, R->outputFramebuffer);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, R->width, R->height, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    GLenum error = glGetError();
    if (error != GL_NO_ERROR) {
        fprintf(stderr, "bare_osmesa: OpenGL error 0x%04X while rendering\n", error);
        exit(1);
    }
}

// ---------------------------------------------------------------------------------------------

static void usage(void) {
    fprintf(stderr,
            "usage: bare_osmesa [--size N] [--frames F] [--warmup W] [--time T] [--shader-dir DIR] [--dump out.rgba]\n"
            "  --size N        canvas side in px (scale N/300; default 512)\n"
            "  --frames F      measured frames (default 200)\n"
            "  --warmup W      unmeasured frames first (default 20)\n"
            "  --time T        animation time in seconds (default 1.0)\n"
            "  --shader-dir D  directory of the GLSL files (default Shaders)\n"
            "  --dump FILE     write the last frame as raw top-down RGBA8\n");
    exit(2);
}

int main(int argc, char **argv) {
    int size = 512, frames = 200, warmup = 20;
    double t = 1.0;
    const char *shaderDir = "Shaders", *dumpPath = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (i + 1 >= argc) usage();
        const char *v = argv[++i];
        char *end;
        if (strcmp(a, "--size") == 0) { size = (int)strtol(v, &end, 10); if (*end || size < 1) usage(); }
        else if (strcmp(a, "--frames") == 0) { frames = (int)strtol(v, &end, 10); if (*end || frames < 1) usage(); }
        else if (strcmp(a, "--warmup") == 0) { warmup = (int)strtol(v, &end, 10); if (*end || warmup < 0) usage(); }
        else if (strcmp(a, "--time") == 0) { t = strtod(v, &end); if (*end || !(t >= 0) || !isfinite(t)) usage(); }
        else if (strcmp(a, "--shader-dir") == 0) shaderDir = v;
        else if (strcmp(a, "--dump") == 0) dumpPath = v;
        else usage();
    }

    // OSMesaGLContext.init: core 3.3, current on a 1×1 dummy buffer.
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

    load_shader_dir(shaderDir);
    static Renderer R;
    R.disc = make_program("area.vert", "disc.frag");
    R.wave = make_program("area.vert", "wave.frag");
    R.arc = make_program("area.vert", "arc.frag");
    R.quad = make_program("quad.vert", "quad.frag");
    R.resolve = make_program("area.vert", "resolve.frag");
    set_up_instancing(&R);

    // The draw list is built once, as the Swift benchmark hands one list to the renderer;
    // each frame below repeats every GL call of GLRenderer.render(_:into:).
    double scale = (double)size / 300.0;
    Frame frame = wave_ball_frame(t, scale);
    size_t bytes = (size_t)frame.width * frame.height * 4;
    unsigned char *pixels = malloc(bytes);
    if (!pixels) die("%s", "out of memory");

    for (int i = 0; i < warmup; i++) {
        draw_frame(&R, &frame);
        read_back(&R, pixels);
    }
    double *ms = malloc(sizeof(double) * frames);
    double total0 = now_ms();
    for (int i = 0; i < frames; i++) {
        double t0 = now_ms();
        draw_frame(&R, &frame);
        read_back(&R, pixels);
        ms[i] = now_ms() - t0;
    }
    double total = now_ms() - total0;

    uint64_t hash = 0xcbf29ce484222325ULL;  // FNV-1a 64
    for (size_t i = 0; i < bytes; i++) {
        hash ^= pixels[i];
        hash *= 0x100000001b3ULL;
    }
    if (dumpPath) {
        FILE *out = fopen(dumpPath, "wb");
        if (!out || fwrite(pixels, 1, bytes, out) != bytes || fclose(out) != 0) die("cannot write %s", dumpPath);
    }

    qsort(ms, frames, sizeof(double), compare_double);
    double median = frames % 2 ? ms[frames / 2] : 0.5 * (ms[frames / 2 - 1] + ms[frames / 2]);
    const char *threads = getenv("LP_NUM_THREADS");
    printf("renderer     %s (%s)\n", (const char *)glGetString(GL_RENDERER), (const char *)glGetString(GL_VERSION));
    printf("scene        wave-ball t=%g s, %d x %d px (scale %.17g), LP_NUM_THREADS=%s\n", t, frame.width,
           frame.height, scale, threads ? threads : "(unset)");
    printf("frames       %d measured after %d warm-up\n", frames, warmup);
    printf("ms/frame     min %.3f  median %.3f  max %.3f  (render + readback)\n", ms[0], median, ms[frames - 1]);
    printf("frames/s     %.1f (median), %.1f (total wall)\n", 1000.0 / median, frames * 1000.0 / total);
    printf("Mpix/s       %.1f (median)\n", (double)frame.width * frame.height / (median * 1000.0));
    printf("checksum     %016llx (FNV-1a 64 of the last frame's RGBA8)\n", (unsigned long long)hash);

    free(ms);
    free(pixels);
    OSMesaDestroyContext(context);
    return 0;
}
