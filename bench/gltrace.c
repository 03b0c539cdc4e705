// gltrace — a GL call tracer for checking bench/bare_osmesa against the Swift GL renderer.
//
// A stand-in libOSMesa: it forwards OSMesa to the real libOSMesa.so.8 and logs every GL call of
// the frame path (name, integer arguments, floats as %a, a hash of buffer data) to $GLTRACE_OUT.
// The Swift binary loads it through THROBBER_OSMESA_LIBRARY (its GL table is filled through
// OSMesaGetProcAddress, which returns the logging wrappers); bare_osmesa calls GL directly, so
// it gets them through LD_PRELOAD. See bench/README.md ("Checking it against the Swift renderer").
//
// Build: gcc -O1 -shared -fPIC -o /tmp/libgltrace.so bench/gltrace.c -ldl
#define _GNU_SOURCE
#define GL_GLEXT_PROTOTYPES 1
#include <GL/osmesa.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

static void *real_lib;
static FILE *out;
typedef void *(*GPA)(const char *);
static GPA real_gpa;

static void init(void) {
    if (real_lib) return;
    real_lib = dlopen("libOSMesa.so.8", RTLD_NOW | RTLD_LOCAL);
    if (!real_lib) { fprintf(stderr, "gltrace: %s\n", dlerror()); exit(1); }
    real_gpa = (GPA)dlsym(real_lib, "OSMesaGetProcAddress");
    const char *p = getenv("GLTRACE_OUT");
    out = fopen(p ? p : "/tmp/gltrace.log", "w");
    setvbuf(out, NULL, _IOFBF, 1 << 20);
}
static void *real(const char *name) { init(); return real_gpa(name); }
#define LOG(...) do { init(); fprintf(out, __VA_ARGS__); fputc('\n', out); } while (0)
#define REAL(name) static __typeof__(name) *fn; if (!fn) fn = (__typeof__(name) *)real(#name)

OSMesaContext OSMesaCreateContextAttribs(const int *a, OSMesaContext s) {
    init(); typedef OSMesaContext (*F)(const int *, OSMesaContext); return ((F)dlsym(real_lib, "OSMesaCreateContextAttribs"))(a, s);
}
GLboolean OSMesaMakeCurrent(OSMesaContext c, void *b, GLenum t, GLsizei w, GLsizei h) {
    init(); LOG("OSMesaMakeCurrent %d %d", w, h);
    typedef GLboolean (*F)(OSMesaContext, void *, GLenum, GLsizei, GLsizei); return ((F)dlsym(real_lib, "OSMesaMakeCurrent"))(c, b, t, w, h);
}
void OSMesaDestroyContext(OSMesaContext c) {
    init(); fflush(out); typedef void (*F)(OSMesaContext); ((F)dlsym(real_lib, "OSMesaDestroyContext"))(c);
}

#define W0(name) void name(void) { REAL(name); LOG(#name); fn(); }
#define W1E(name) void name(GLenum a) { REAL(name); LOG(#name " 0x%x", a); fn(a); }
#define W1U(name) void name(GLuint a) { REAL(name); LOG(#name " %u", a); fn(a); }
#define W2EU(name) void name(GLenum a, GLuint b) { REAL(name); LOG(#name " 0x%x %u", a, b); fn(a, b); }
#define WGEN(name) void name(GLsizei n, GLuint *ids) { REAL(name); fn(n, ids); LOG(#name " %d -> %u", n, ids[0]); }

W1E(glEnable) W1E(glDisable) W1E(glActiveTexture) W1U(glUseProgram) W1U(glBindVertexArray) W0(glFinish)
W2EU(glBindFramebuffer) W2EU(glBindTexture) W2EU(glBindBuffer) W2EU(glBindRenderbuffer)
WGEN(glGenTextures) WGEN(glGenFramebuffers) WGEN(glGenRenderbuffers) WGEN(glGenBuffers) WGEN(glGenVertexArrays)

void glClear(GLbitfield m) { REAL(glClear); LOG("glClear 0x%x", m); fn(m); }
void glClearColor(GLfloat r, GLfloat g, GLfloat b, GLfloat a) { REAL(glClearColor); LOG("glClearColor %a %a %a %a", r, g, b, a); fn(r, g, b, a); }
void glViewport(GLint x, GLint y, GLsizei w, GLsizei h) { REAL(glViewport); LOG("glViewport %d %d %d %d", x, y, w, h); fn(x, y, w, h); }
void glScissor(GLint x, GLint y, GLsizei w, GLsizei h) { REAL(glScissor); LOG("glScissor %d %d %d %d", x, y, w, h); fn(x, y, w, h); }
void glBlendFunc(GLenum a, GLenum b) { REAL(glBlendFunc); LOG("glBlendFunc 0x%x 0x%x", a, b); fn(a, b); }
void glUniform1f(GLint l, GLfloat a) { REAL(glUniform1f); LOG("glUniform1f %d %a", l, a); fn(l, a); }
void glUniform2f(GLint l, GLfloat a, GLfloat b) { REAL(glUniform2f); LOG("glUniform2f %d %a %a", l, a, b); fn(l, a, b); }
void glUniform3f(GLint l, GLfloat a, GLfloat b, GLfloat c) { REAL(glUniform3f); LOG("glUniform3f %d %a %a %a", l, a, b, c); fn(l, a, b, c); }
void glUniform4f(GLint l, GLfloat a, GLfloat b, GLfloat c, GLfloat d) { REAL(glUniform4f); LOG("glUniform4f %d %a %a %a %a", l, a, b, c, d); fn(l, a, b, c, d); }
void glUniform1i(GLint l, GLint a) { REAL(glUniform1i); LOG("glUniform1i %d %d", l, a); fn(l, a); }
void glDrawArrays(GLenum m, GLint f, GLsizei c) { REAL(glDrawArrays); LOG("glDrawArrays 0x%x %d %d", m, f, c); fn(m, f, c); }
void glDrawArraysInstanced(GLenum m, GLint f, GLsizei c, GLsizei n) { REAL(glDrawArraysInstanced); LOG("glDrawArraysInstanced 0x%x %d %d %d", m, f, c, n); fn(m, f, c, n); }
void glBufferData(GLenum t, GLsizeiptr s, const void *d, GLenum u) {
    REAL(glBufferData);
    uint64_t h = 0xcbf29ce484222325ULL; for (GLsizeiptr i = 0; d && i < s; i++) { h ^= ((const unsigned char *)d)[i]; h *= 0x100000001b3ULL; }
    LOG("glBufferData 0x%x %ld %016llx 0x%x", t, (long)s, (unsigned long long)h, u); fn(t, s, d, u);
}
void glPixelStorei(GLenum p, GLint v) { REAL(glPixelStorei); LOG("glPixelStorei 0x%x %d", p, v); fn(p, v); }
void glReadPixels(GLint x, GLint y, GLsizei w, GLsizei h, GLenum f, GLenum t, void *p) { REAL(glReadPixels); LOG("glReadPixels %d %d %d %d 0x%x 0x%x", x, y, w, h, f, t); fn(x, y, w, h, f, t, p); }
GLenum glGetError(void) { REAL(glGetError); GLenum e = fn(); LOG("glGetError -> 0x%x", e); return e; }
void glTexImage2D(GLenum t, GLint l, GLint i, GLsizei w, GLsizei h, GLint b, GLenum f, GLenum ty, const void *p) { REAL(glTexImage2D); LOG("glTexImage2D 0x%x %d 0x%x %d %d %d 0x%x 0x%x", t, l, i, w, h, b, f, ty); fn(t, l, i, w, h, b, f, ty, p); }
void glTexParameteri(GLenum t, GLenum p, GLint v) { REAL(glTexParameteri); LOG("glTexParameteri 0x%x 0x%x 0x%x", t, p, v); fn(t, p, v); }
void glFramebufferTexture2D(GLenum a, GLenum b, GLenum c, GLuint d, GLint e) { REAL(glFramebufferTexture2D); LOG("glFramebufferTexture2D 0x%x 0x%x 0x%x %u %d", a, b, c, d, e); fn(a, b, c, d, e); }
void glFramebufferRenderbuffer(GLenum a, GLenum b, GLenum c, GLuint d) { REAL(glFramebufferRenderbuffer); LOG("glFramebufferRenderbuffer 0x%x 0x%x 0x%x %u", a, b, c, d); fn(a, b, c, d); }
void glRenderbufferStorage(GLenum a, GLenum b, GLsizei w, GLsizei h) { REAL(glRenderbufferStorage); LOG("glRenderbufferStorage 0x%x 0x%x %d %d", a, b, w, h); fn(a, b, w, h); }
GLenum glCheckFramebufferStatus(GLenum t) { REAL(glCheckFramebufferStatus); GLenum r = fn(t); LOG("glCheckFramebufferStatus 0x%x -> 0x%x", t, r); return r; }
GLint glGetUniformLocation(GLuint p, const GLchar *n) { REAL(glGetUniformLocation); GLint r = fn(p, n); LOG("glGetUniformLocation %u %s -> %d", p, n, r); return r; }

// GetProcAddress: our wrapper when we have one (found in this library), else the real one.
OSMESAproc OSMesaGetProcAddress(const char *name) {
    init();
    static void *self;
    if (!self) { Dl_info info; dladdr((void *)OSMesaGetProcAddress, &info); self = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD); }
    void *mine = dlsym(self, name);
    if (mine) return (OSMESAproc)mine;
    return (OSMESAproc)real_gpa(name);
}
