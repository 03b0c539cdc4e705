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
//   Sources/Throbber/DrawList/DrawList.swift single-precision values, PixelRect bounds, phases,
//                                            annuli (DrawItem.annulus, QuadBatch.annulus)
//   Sources/throbber/Bench/BenchCommand.swift --animate: the bench's lists, t = i / 60
//
// Build: bench/build.sh   (gcc -O2 … -lOSMesa -lm)
// Run:   bench/bare_osmesa [--size N] [--frames F] [--warmup W] [--time T | --animate]
//                          [--shader-dir DIR] [--dump out.rgba]
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE 1  // M_PI
#define GL_GLEXT_PROTOTYPES 1
#include <GL/osmesa.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
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
    GLint u_resolution, u_rect, u_annulus, u_segments, u_color;
    GLint u_circle;                                  // disc
    GLint u_wave, u_baseline, u_clip, u_bottom;      // wave
    GLint u_arc, u_sweep, u_maskRotation;            // arc
    GLint u_accum;                                   // resolve
} Program;

static Program make_program(const char *vertex, const char *fragment) {
    Program p;
    p.id = link_program(vertex, fragment);
#define LOC(field) p.field = glGetUniformLocation(p.id, #field)
    LOC(u_resolution); LOC(u_rect); LOC(u_annulus); LOC(u_segments); LOC(u_color); LOC(u_circle);
    LOC(u_wave); LOC(u_baseline); LOC(u_clip); LOC(u_bottom);
    LOC(u_arc); LOC(u_sweep); LOC(u_maskRotation); LOC(u_accum);
#undef LOC
    return p;
}

// ---------------------------------------------------------------------------------------------
// ---------------------------------------------------------------------------------------------
// Draw list (DrawList.swift), single-precision values computed in double

typedef struct { float r, g, b, a; } PaintColor;
typedef struct { int x0, y0, x1, y1; } PixelRect;

// Annulus: the ring outside which a round primitive's coverage is zero.
typedef struct { float centerX, centerY, inner, outer; } Annulus;

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
#define MAX_ITEMS 8

typedef struct {
    QuadInstance instances[MAX_QUADS];
    int count;
    PixelRect bounds;   // union of the instances' bounds
    int hasAnnulus;     // QuadBatch.annulus != nil
    Annulus annulus;
} QuadBatch;

typedef enum { ITEM_DISC, ITEM_WAVE, ITEM_ARC, ITEM_QUADS } ItemKind;

// DrawItem
typedef struct {
    ItemKind kind;
    union {
        Disc disc;
        Wave wave;
        Arc arc;
        QuadBatch *quads;
    } u;
} DrawItem;

typedef struct {
    int width, height;
    PaintColor background;
    DrawItem items[MAX_ITEMS];
    int itemCount;
    QuadBatch backgroundTicks, litTicks;  // storage of the .quads items
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

// PixelRect.union(_:): the smallest rectangle holding every non-empty rectangle (start with
// RECT_UNION_START, add each, then rect_union_finish: (0, 0, 0, 0) when none was non-empty).
#define RECT_UNION_START ((PixelRect){INT_MAX, INT_MAX, INT_MIN, INT_MIN})
static void rect_union_add(PixelRect *u, PixelRect r) {
    if (rect_empty(r)) return;
    if (r.x0 < u->x0) u->x0 = r.x0;
    if (r.y0 < u->y0) u->y0 = r.y0;
    if (r.x1 > u->x1) u->x1 = r.x1;
    if (r.y1 > u->y1) u->y1 = r.y1;
}
static PixelRect rect_union_finish(PixelRect u) { return rect_empty(u) ? (PixelRect){0, 0, 0, 0} : u; }

// Annulus.area (px², in double) and Annulus.contains(_:).
static double annulus_area(Annulus a) {
    return M_PI * ((double)a.outer * (double)a.outer - (double)a.inner * (double)a.inner);
}

static int annulus_contains(Annulus a, Annulus other) {
    return other.centerX == a.centerX && other.centerY == a.centerY && other.inner >= a.inner && other.outer <= a.outer;
}

// DrawItem.bounds
static PixelRect item_bounds(const DrawItem *item) {
    switch (item->kind) {
    case ITEM_DISC: return item->u.disc.bounds;
    case ITEM_WAVE: return item->u.wave.bounds;
    case ITEM_ARC: return item->u.arc.bounds;
    case ITEM_QUADS: return item->u.quads->bounds;
    }
    return (PixelRect){0, 0, 0, 0};
}

// DrawItem.annulus: 1 when the item has one (written to *out), 0 for nil. Float arithmetic,
// as in Swift.
static int item_annulus(const DrawItem *item, Annulus *out) {
    switch (item->kind) {
    case ITEM_DISC: {
        const Disc *d = &item->u.disc;
        *out = (Annulus){d->centerX, d->centerY, 0.0f, d->radius + 1.0f};
        return 1;
    }
    case ITEM_WAVE: {
        const Wave *w = &item->u.wave;
        if (!(w->clipRadius >= 0)) return 0;
        *out = (Annulus){w->clipCenterX, w->clipCenterY, 0.0f, w->clipRadius + 1.0f};
        return 1;
    }
    case ITEM_ARC: {
        const Arc *a = &item->u.arc;
        float reach = a->lineWidth / 2.0f + 1.0f;
        float inner = a->radius - reach;
        *out = (Annulus){a->centerX, a->centerY, inner > 0.0f ? inner : 0.0f, a->radius + reach};
        return 1;
    }
    case ITEM_QUADS:
        if (!item->u.quads->hasAnnulus) return 0;
        *out = item->u.quads->annulus;
        return 1;
    }
    return 0;
}

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

// QuadInstance.bounds(width:height:): the box grown by its rotation, margin 2. cos/sin of the
// Float rotation in single precision (Swift's cos(Float)), widened to double.
static PixelRect quad_bounds(const QuadInstance *q, int width, int height) {
    double c = fabs((double)cosf(q->rotation));
    double s = fabs((double)sinf(q->rotation));
    double hx = q->halfX, hy = q->halfY;
    double ex = hx * c + hy * s;
    double ey = hx * s + hy * c;
    return pixel_rect((double)q->centerX - ex, (double)q->centerY - ey, (double)q->centerX + ex,
                      (double)q->centerY + ey, 2, width, height);
}

// QuadBatch.init(_:width:height:): the union of the instances' bounds, and a ring around the
// instances' centroid holding every box when its area is below the union's.
static void finish_batch(QuadBatch *b, int width, int height) {
    PixelRect u = RECT_UNION_START;
    for (int i = 0; i < b->count; i++) rect_union_add(&u, quad_bounds(&b->instances[i], width, height));
    u = rect_union_finish(u);
    b->bounds = u;
    b->hasAnnulus = 0;
    if (b->count == 0) return;
    double sx = 0, sy = 0;
    for (int i = 0; i < b->count; i++) sx += (double)b->instances[i].centerX;
    for (int i = 0; i < b->count; i++) sy += (double)b->instances[i].centerY;
    double cx = sx / (double)b->count, cy = sy / (double)b->count;
    double inner = INFINITY, outer = 0.0;
    for (int i = 0; i < b->count; i++) {
        const QuadInstance *q = &b->instances[i];
        double dx = (double)q->centerX - cx, dy = (double)q->centerY - cy;
        double distance = sqrt(dx * dx + dy * dy);
        double reach = sqrt((double)q->halfX * (double)q->halfX + (double)q->halfY * (double)q->halfY) + 2;
        inner = fmin(inner, distance - reach);
        outer = fmax(outer, distance + reach);
    }
    Annulus ring = {(float)cx, (float)cy, (float)fmax(0, inner), (float)outer};
    double boundsArea = (double)((u.x1 - u.x0) * (u.y1 - u.y0));
    if (annulus_area(ring) < boundsArea) {
        b->annulus = ring;
        b->hasAnnulus = 1;
    }
}

// The wave-ball frame at t seconds, default parameters (WaveBall.swift, SPEC §1).
static void wave_ball_frame(Frame *f, double t, double s) {
    const double size = 300, tickLength = 10, tickWidth = 2, scaleMargin = 30, waveMargin = 18;
    const double waveLength = 180, amplitude = 10, progress = 0.45, fillFrom = 0;
    const int tickCount = 100;
    const PaintColor waterBackground = paint(0.259, 0.329, 0.506, 1);
    const PaintColor frontWater = paint(0.325, 0.392, 0.729, 1);
    const PaintColor backWater = paint(0.322, 0.514, 0.831, 1);
    const PaintColor tickBackground = paint(0.694, 0.745, 0.867, 1);
    const PaintColor tickLit = paint(0.969, 0.937, 0.227, 1);

    memset(f, 0, sizeof *f);
    // Scene.pixels: ceil(points × scale − 1e-9).
    f->width = f->height = (int)ceil(size * s - 1e-9);
    f->background = paint(0, 0, 0, 0);  // defaultBackground: clear
    int width = f->width, height = f->height;

    // frameState(at:), every part at speed 1 (PartSpeeds.time(_, t) = t). Evaluation order as
    // in Swift: (0.4 · 50 · t) / π, left to right.
    double amplitudeFactor = 1 + 0.01 * fabs(fmod(50 * t, 100) - 50);
    double discInset = scaleMargin + waveMargin + tickLength;
    double d = size - 2 * discInset;
    double startLevel = d * (1 - fillFrom);
    double targetLevel = d * (1 - progress);
    double travelled = 50 * t;
    double level = startLevel + fmin(fmax(targetLevel - startLevel, -travelled), travelled);
    double filled = (d - level) / d;
    long litCount = (long)(((double)tickCount / 2 + 1) * filled + 1e-9);
    if (litCount < 0) litCount = 0;
    double frontPhase = 0.4 * 50 * t / M_PI, backPhase = 0.3 * 50 * t / M_PI;

    // drawItems(for:scale:width:height:)
    double c = size / 2;
    double r = d / 2;
    double ringWidth = size - 2 * scaleMargin;
    double boxLeft = c - r, boxTop = c - r;
    double waveAmplitude = amplitudeFactor * amplitude * s;
    double k = 2 * M_PI / (waveLength * s);
    double baseline = (boxTop + level) * s;

    DrawItem *item = f->items;
    item->kind = ITEM_DISC;
    item->u.disc.centerX = (float)(c * s);
    item->u.disc.centerY = (float)(c * s);
    item->u.disc.radius = (float)(r * s);
    item->u.disc.color = waterBackground;
    item->u.disc.bounds = pixel_rect(c * s - r * s, c * s - r * s, c * s + r * s, c * s + r * s, 1, width, height);
    item++;

    item->kind = ITEM_WAVE;
    item->u.wave = make_wave(boxLeft * s, waveAmplitude, k, frontPhase, baseline, c * s, c * s, r * s, frontWater,
                             width, height);
    item++;
    // cos(x) = sin(x + π/2): the back wave is the same primitive a quarter period on.
    item->kind = ITEM_WAVE;
    item->u.wave = make_wave(boxLeft * s, waveAmplitude, k, backPhase + M_PI / 2, baseline, c * s, c * s, r * s,
                             backWater, width, height);
    item++;

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
    for (int i = 0; i < tickCount; i++) TICK(f->backgroundTicks.instances[i], (double)i * step, tickBackground);
    f->backgroundTicks.count = tickCount;
    finish_batch(&f->backgroundTicks, width, height);
    item->kind = ITEM_QUADS;
    item->u.quads = &f->backgroundTicks;
    item++;

    // Thin full circle: start 0, sweep 2π ≥ 2·Double.pi → Arc.fullCircleSweep = 8.
    double arcRadius = fmax(0, ringWidth / 2 - tickLength - 3) * s;
    double lineWidth = 0.5 * s;
    item->kind = ITEM_ARC;
    Arc *arc = &item->u.arc;
    arc->centerX = (float)(c * s);
    arc->centerY = (float)(c * s);
    arc->radius = (float)arcRadius;
    arc->lineWidth = (float)lineWidth;
    arc->start = (float)reduced_phase(0);
    arc->sweep = 8.0f;
    arc->maskRotation = -1;
    arc->color = tickBackground;
    double reach = arcRadius + lineWidth / 2;
    arc->bounds = pixel_rect(c * s - reach, c * s - reach, c * s + reach, c * s + reach, 1, width, height);
    item++;

    // litTickAngles(count:): bottom first, alternating sides, each once.
    int lit = 0;
    for (long j = 0; j < litCount && lit + 2 <= MAX_QUADS; j++) {
        TICK(f->litTicks.instances[lit], M_PI / 2 + (double)j * step, tickLit);
        lit++;
        if (j > 0 && 2 * j != tickCount) {
            TICK(f->litTicks.instances[lit], M_PI / 2 - (double)j * step, tickLit);
            lit++;
        }
    }
#undef TICK
    if (lit > 0) {
        f->litTicks.count = lit;
        finish_batch(&f->litTicks, width, height);
        item->kind = ITEM_QUADS;
        item->u.quads = &f->litTicks;
        item++;
    }
    f->itemCount = (int)(item - f->items);
}

// resolvePixel(_:_:_:_:) / quantise(_:) of Image.swift, for the background's final colour.
static unsigned char quantise(float v) {
    float clamped = v > 0 ? (v < 1 ? v : 1) : 0;
    return (unsigned char)(int32_t)(clamped * 255 + 0.5f);
}

static void resolve_pixel(float r, float g, float b, float a, unsigned char out[4]) {
    unsigned char a8 = quantise(a);
    if (a8 == 0) { out[0] = out[1] = out[2] = out[3] = 0; return; }
    float inverse = 1 / a;
    out[0] = quantise(r * inverse);
    out[1] = quantise(g * inverse);
    out[2] = quantise(b * inverse);
    out[3] = a8;
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

static void scissor(PixelRect r) { glScissor(r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0); }

// GLRenderer.use(_:_:_:_:_:) (u_rect is set by draw_area now).
static void use_program(const Program *p, float width, float height, PaintColor color) {
    glUseProgram(p->id);
    glUniform2f(p->u_resolution, width, height);
    glUniform4f(p->u_color, color.r, color.g, color.b, color.a);
}

// GLRenderer.drawArea(_:_:_:): the current program over rect, or over the annulus strip
// scissored to rect.
static void draw_area(const Program *p, PixelRect rect, const Annulus *annulus) {
    glUniform4f(p->u_rect, (float)rect.x0, (float)rect.y0, (float)rect.x1, (float)rect.y1);
    scissor(rect);
    if (!annulus) {
        glUniform1i(p->u_segments, 0);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
        return;
    }
    // min(256, max(12, (outer.squareRoot() * 2).rounded(.up))) in Float.
    float n = ceilf(sqrtf(annulus->outer) * 2.0f);
    n = n > 12.0f ? n : 12.0f;
    n = n < 256.0f ? n : 256.0f;
    GLint segments = (GLint)n;
    glUniform4f(p->u_annulus, annulus->centerX, annulus->centerY, annulus->inner, annulus->outer);
    glUniform1i(p->u_segments, segments);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 2 * (segments + 1));
}

static void draw_quads(Renderer *R, const QuadBatch *b, float width, float height) {
    if (b->count == 0) return;
    float *data = R->instanceData;
    for (int i = 0; i < b->count; i++) {
        const QuadInstance *q = &b->instances[i];
        float *v = data + 10 * i;
        v[0] = q->centerX; v[1] = q->centerY; v[2] = q->halfX; v[3] = q->halfY;
        v[4] = q->rotation; v[5] = q->cornerRadius;
        v[6] = q->color.r; v[7] = q->color.g; v[8] = q->color.b; v[9] = q->color.a;
    }
    glUseProgram(R->quad.id);
    glUniform2f(R->quad.u_resolution, width, height);
    glBindBuffer(GL_ARRAY_BUFFER, R->instanceBuffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(b->count * 10 * sizeof(float)), data, GL_STREAM_DRAW);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, b->count);
}

// GLRenderer.draw(_:): clear the output to the background, paint the union in SPEC §1 order,
// then resolve the painted rings.
static void draw_frame(Renderer *R, const Frame *f) {
    prepare_target(R, f->width, f->height);
    float width = (float)f->width, height = (float)f->height;
    PixelRect u = RECT_UNION_START;
    for (int i = 0; i < f->itemCount; i++) rect_union_add(&u, item_bounds(&f->items[i]));
    u = rect_union_finish(u);
    PaintColor bg = f->background;
    glViewport(0, 0, f->width, f->height);
    glBindFramebuffer(GL_FRAMEBUFFER, R->outputFramebuffer);
    glDisable(GL_SCISSOR_TEST);
    unsigned char final[4];
    resolve_pixel(bg.r * bg.a, bg.g * bg.a, bg.b * bg.a, bg.a, final);
    glClearColor((float)final[0] / 255, (float)final[1] / 255, (float)final[2] / 255, (float)final[3] / 255);
    glClear(GL_COLOR_BUFFER_BIT);
    if (rect_empty(u)) return;

    glBindFramebuffer(GL_FRAMEBUFFER, R->accumFramebuffer);
    glEnable(GL_SCISSOR_TEST);
    scissor(u);
    glClearColor(bg.r * bg.a, bg.g * bg.a, bg.b * bg.a, bg.a);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_BLEND);
    // Premultiplied source-over: dst = s + dst·(1 − s.a) (SPEC §0).
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glBindVertexArray(R->vertexArray);
    for (int i = 0; i < f->itemCount; i++) {
        const DrawItem *item = &f->items[i];
        PixelRect rect = item_bounds(item);
        if (rect_empty(rect)) continue;
        Annulus ring;
        int hasRing = item_annulus(item, &ring);
        switch (item->kind) {
        case ITEM_DISC: {
            const Disc *d = &item->u.disc;
            use_program(&R->disc, width, height, d->color);
            glUniform3f(R->disc.u_circle, d->centerX, d->centerY, d->radius);
            draw_area(&R->disc, rect, hasRing ? &ring : NULL);
            break;
        }
        case ITEM_WAVE: {
            const Wave *w = &item->u.wave;
            use_program(&R->wave, width, height, w->color);
            glUniform4f(R->wave.u_wave, w->originX, w->amplitude, w->k, w->phase);
            glUniform1f(R->wave.u_baseline, w->baseline);
            glUniform3f(R->wave.u_clip, w->clipCenterX, w->clipCenterY, w->clipRadius);
            glUniform1f(R->wave.u_bottom, w->bottom);
            draw_area(&R->wave, rect, hasRing ? &ring : NULL);
            break;
        }
        case ITEM_ARC: {
            const Arc *a = &item->u.arc;
            use_program(&R->arc, width, height, a->color);
            glUniform4f(R->arc.u_arc, a->centerX, a->centerY, a->radius, a->lineWidth);
            glUniform2f(R->arc.u_sweep, a->start, a->sweep);
            glUniform1f(R->arc.u_maskRotation, a->maskRotation);
            draw_area(&R->arc, rect, hasRing ? &ring : NULL);
            break;
        }
        case ITEM_QUADS:
            scissor(u);
            draw_quads(R, item->u.quads, width, height);
            break;
        }
    }
    // Resolve: the one quantisation, into the RGBA8 target, only where something was painted:
    // each item's ring (or bounds), skipping rings inside one already resolved.
    glDisable(GL_BLEND);
    glBindFramebuffer(GL_FRAMEBUFFER, R->outputFramebuffer);
    glUseProgram(R->resolve.id);
    glUniform2f(R->resolve.u_resolution, width, height);
    glUniform4f(R->resolve.u_color, 0, 0, 0, 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, R->accumTexture);
    glUniform1i(R->resolve.u_accum, 0);
    Annulus resolved[MAX_ITEMS];
    int resolvedCount = 0;
    for (int i = 0; i < f->itemCount; i++) {
        const DrawItem *item = &f->items[i];
        PixelRect rect = item_bounds(item);
        if (rect_empty(rect)) continue;
        Annulus ring;
        if (!item_annulus(item, &ring)) {
            draw_area(&R->resolve, rect, NULL);
            continue;
        }
        int inside = 0;
        for (int j = 0; j < resolvedCount && !inside; j++) inside = annulus_contains(resolved[j], ring);
        if (inside) continue;
        resolved[resolvedCount++] = ring;
        draw_area(&R->resolve, rect, &ring);
    }
    glDisable(GL_SCISSOR_TEST);
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
            "usage: bare_osmesa [--size N] [--frames F] [--warmup W] [--time T | --animate] [--shader-dir DIR]\n"
            "                   [--dump out.rgba]\n"
            "  --size N        canvas side in px (scale N/300; default 512)\n"
            "  --frames F      measured frames (default 200)\n"
            "  --warmup W      unmeasured frames first (default 20)\n"
            "  --time T        animation time in seconds (default 1.0); every frame is this one\n"
            "  --animate       frame i at t = i/60 (throbber bench's lists); warm-up on the first W\n"
            "  --shader-dir D  directory of the GLSL files (default Shaders)\n"
            "  --dump FILE     write the last frame as raw top-down RGBA8\n");
    exit(2);
}

int main(int argc, char **argv) {
    int size = 512, frames = 200, warmup = 20, animate = 0;
    double t = 1.0;
    const char *shaderDir = "Shaders", *dumpPath = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--animate") == 0) { animate = 1; continue; }
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

    // The draw lists are built before timing, as the Swift benchmark builds its lists first;
    // each frame below repeats every GL call of GLRenderer.render(_:into:). Without --animate
    // there is one list (time T), drawn every frame; with it, list i is t = i / 60 and the
    // warm-up draws the first W lists (BenchCommand.measure).
    double scale = (double)size / 300.0;
    int listCount = animate ? frames : 1;
    Frame *lists = malloc(sizeof(Frame) * (size_t)listCount);
    if (!lists) die("%s", "out of memory");
    for (int i = 0; i < listCount; i++) wave_ball_frame(&lists[i], animate ? (double)i / 60 : t, scale);
    // (Built in place: a .quads item points at a batch inside its own Frame.)
    size_t bytes = (size_t)lists[0].width * lists[0].height * 4;
    unsigned char *pixels = malloc(bytes);
    if (!pixels) die("%s", "out of memory");

    int warmupFrames = animate && warmup > listCount ? listCount : warmup;  // lists.prefix(warmup)
    for (int i = 0; i < warmupFrames; i++) {
        draw_frame(&R, &lists[animate ? i : 0]);
        read_back(&R, pixels);
    }
    double *ms = malloc(sizeof(double) * frames);
    double total0 = now_ms();
    for (int i = 0; i < frames; i++) {
        const Frame *f = &lists[animate ? i : 0];
        double t0 = now_ms();
        draw_frame(&R, f);
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
    if (animate)
        printf("scene        wave-ball t=i/60, i=0..%d, %d x %d px (scale %.17g), LP_NUM_THREADS=%s\n", frames - 1,
               lists[0].width, lists[0].height, scale, threads ? threads : "(unset)");
    else
        printf("scene        wave-ball t=%g s, %d x %d px (scale %.17g), LP_NUM_THREADS=%s\n", t, lists[0].width,
               lists[0].height, scale, threads ? threads : "(unset)");
    printf("frames       %d measured after %d warm-up\n", frames, warmupFrames);
    printf("ms/frame     min %.3f  median %.3f  max %.3f  (render + readback)\n", ms[0], median, ms[frames - 1]);
    printf("frames/s     %.1f (median), %.1f (total wall)\n", 1000.0 / median, frames * 1000.0 / total);
    printf("Mpix/s       %.1f (median)\n", (double)lists[0].width * lists[0].height / (median * 1000.0));
    printf("checksum     %016llx (FNV-1a 64 of the last frame's RGBA8)\n", (unsigned long long)hash);

    free(ms);
    free(pixels);
    free(lists);
    OSMesaDestroyContext(context);
    return 0;
}
