#ifndef COSMESA_SHIM_H
#define COSMESA_SHIM_H
// OSMesa and the GL entry points Throbber uses, loaded at run time. The GL function table
// (COSMesa_GL) is platform-neutral: CEGL fills the same table through eglGetProcAddress.
//
// Why dlopen instead of linking: a binary linked against libOSMesa does not start at all where
// the library is missing ("error while loading shared libraries"), and then neither would
// `--backend cpu`. So, the way glad and sokol load GL, we open the library ourselves and resolve
// every GL function through OSMesaGetProcAddress into one table of function pointers.
//
// GL_GLEXT_PROTOTYPES is deliberately NOT defined: prototypes would only invite direct calls,
// which would link libOSMesa again. glext.h still gives the PFN…PROC typedefs for GL ≥ 1.2; the
// few GL 1.0/1.1 functions have none, so they get prefixed typedefs here.
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <GL/osmesa.h>
#include <GL/glext.h>

typedef void (APIENTRYP COSMesa_PFNGLCLEARPROC)(GLbitfield mask);
typedef void (APIENTRYP COSMesa_PFNGLCLEARCOLORPROC)(GLfloat r, GLfloat g, GLfloat b, GLfloat a);
typedef void (APIENTRYP COSMesa_PFNGLVIEWPORTPROC)(GLint x, GLint y, GLsizei w, GLsizei h);
typedef void (APIENTRYP COSMesa_PFNGLREADPIXELSPROC)(GLint x, GLint y, GLsizei w, GLsizei h, GLenum format, GLenum type, void *pixels);
typedef void (APIENTRYP COSMesa_PFNGLDRAWARRAYSPROC)(GLenum mode, GLint first, GLsizei count);
typedef const GLubyte *(APIENTRYP COSMesa_PFNGLGETSTRINGPROC)(GLenum name);
typedef void (APIENTRYP COSMesa_PFNGLGETINTEGERVPROC)(GLenum pname, GLint *data);
typedef void (APIENTRYP COSMesa_PFNGLENABLEPROC)(GLenum cap);
typedef void (APIENTRYP COSMesa_PFNGLDISABLEPROC)(GLenum cap);
typedef void (APIENTRYP COSMesa_PFNGLBLENDFUNCPROC)(GLenum sfactor, GLenum dfactor);
typedef GLenum (APIENTRYP COSMesa_PFNGLGETERRORPROC)(void);
typedef void (APIENTRYP COSMesa_PFNGLFINISHPROC)(void);
typedef void (APIENTRYP COSMesa_PFNGLTEXIMAGE2DPROC)(GLenum target, GLint level, GLint internalformat, GLsizei w, GLsizei h, GLint border, GLenum format, GLenum type, const void *pixels);
typedef void (APIENTRYP COSMesa_PFNGLTEXPARAMETERIPROC)(GLenum target, GLenum pname, GLint param);
typedef void (APIENTRYP COSMesa_PFNGLBINDTEXTUREPROC)(GLenum target, GLuint texture);
typedef void (APIENTRYP COSMesa_PFNGLGENTEXTURESPROC)(GLsizei n, GLuint *textures);
typedef void (APIENTRYP COSMesa_PFNGLDELETETEXTURESPROC)(GLsizei n, const GLuint *textures);
typedef void (APIENTRYP COSMesa_PFNGLPIXELSTOREIPROC)(GLenum pname, GLint param);
typedef void (APIENTRYP COSMesa_PFNGLSCISSORPROC)(GLint x, GLint y, GLsizei w, GLsizei h);

typedef OSMesaContext (GLAPIENTRY *COSMesa_PFNCREATECONTEXTATTRIBS)(const int *attribList, OSMesaContext sharelist);
typedef GLboolean (GLAPIENTRY *COSMesa_PFNMAKECURRENT)(OSMesaContext ctx, void *buffer, GLenum type, GLsizei width, GLsizei height);
typedef void (GLAPIENTRY *COSMesa_PFNDESTROYCONTEXT)(OSMesaContext ctx);
typedef OSMESAproc (GLAPIENTRY *COSMesa_PFNGETPROCADDRESS)(const char *funcName);

// Every GL function Throbber calls: X(typedef, field, symbol).
#define COSMESA_GL_FUNCTIONS(X) \
    X(COSMesa_PFNGLCLEARPROC, Clear, "glClear") \
    X(COSMesa_PFNGLCLEARCOLORPROC, ClearColor, "glClearColor") \
    X(COSMesa_PFNGLVIEWPORTPROC, Viewport, "glViewport") \
    X(COSMesa_PFNGLREADPIXELSPROC, ReadPixels, "glReadPixels") \
    X(COSMesa_PFNGLDRAWARRAYSPROC, DrawArrays, "glDrawArrays") \
    X(COSMesa_PFNGLGETSTRINGPROC, GetString, "glGetString") \
    X(COSMesa_PFNGLGETINTEGERVPROC, GetIntegerv, "glGetIntegerv") \
    X(COSMesa_PFNGLENABLEPROC, Enable, "glEnable") \
    X(COSMesa_PFNGLDISABLEPROC, Disable, "glDisable") \
    X(COSMesa_PFNGLBLENDFUNCPROC, BlendFunc, "glBlendFunc") \
    X(COSMesa_PFNGLGETERRORPROC, GetError, "glGetError") \
    X(COSMesa_PFNGLFINISHPROC, Finish, "glFinish") \
    X(COSMesa_PFNGLTEXIMAGE2DPROC, TexImage2D, "glTexImage2D") \
    X(COSMesa_PFNGLTEXPARAMETERIPROC, TexParameteri, "glTexParameteri") \
    X(COSMesa_PFNGLBINDTEXTUREPROC, BindTexture, "glBindTexture") \
    X(COSMesa_PFNGLGENTEXTURESPROC, GenTextures, "glGenTextures") \
    X(COSMesa_PFNGLDELETETEXTURESPROC, DeleteTextures, "glDeleteTextures") \
    X(COSMesa_PFNGLPIXELSTOREIPROC, PixelStorei, "glPixelStorei") \
    X(COSMesa_PFNGLSCISSORPROC, Scissor, "glScissor") \
    X(PFNGLACTIVETEXTUREPROC, ActiveTexture, "glActiveTexture") \
    X(PFNGLCREATESHADERPROC, CreateShader, "glCreateShader") \
    X(PFNGLSHADERSOURCEPROC, ShaderSource, "glShaderSource") \
    X(PFNGLCOMPILESHADERPROC, CompileShader, "glCompileShader") \
    X(PFNGLGETSHADERIVPROC, GetShaderiv, "glGetShaderiv") \
    X(PFNGLGETSHADERINFOLOGPROC, GetShaderInfoLog, "glGetShaderInfoLog") \
    X(PFNGLDELETESHADERPROC, DeleteShader, "glDeleteShader") \
    X(PFNGLCREATEPROGRAMPROC, CreateProgram, "glCreateProgram") \
    X(PFNGLATTACHSHADERPROC, AttachShader, "glAttachShader") \
    X(PFNGLLINKPROGRAMPROC, LinkProgram, "glLinkProgram") \
    X(PFNGLGETPROGRAMIVPROC, GetProgramiv, "glGetProgramiv") \
    X(PFNGLGETPROGRAMINFOLOGPROC, GetProgramInfoLog, "glGetProgramInfoLog") \
    X(PFNGLDELETEPROGRAMPROC, DeleteProgram, "glDeleteProgram") \
    X(PFNGLUSEPROGRAMPROC, UseProgram, "glUseProgram") \
    X(PFNGLGETUNIFORMLOCATIONPROC, GetUniformLocation, "glGetUniformLocation") \
    X(PFNGLUNIFORM1IPROC, Uniform1i, "glUniform1i") \
    X(PFNGLUNIFORM1FPROC, Uniform1f, "glUniform1f") \
    X(PFNGLUNIFORM2FPROC, Uniform2f, "glUniform2f") \
    X(PFNGLUNIFORM3FPROC, Uniform3f, "glUniform3f") \
    X(PFNGLUNIFORM4FPROC, Uniform4f, "glUniform4f") \
    X(PFNGLUNIFORM4FVPROC, Uniform4fv, "glUniform4fv") \
    X(PFNGLENABLEVERTEXATTRIBARRAYPROC, EnableVertexAttribArray, "glEnableVertexAttribArray") \
    X(PFNGLVERTEXATTRIBPOINTERPROC, VertexAttribPointer, "glVertexAttribPointer") \
    X(PFNGLVERTEXATTRIBDIVISORPROC, VertexAttribDivisor, "glVertexAttribDivisor") \
    X(PFNGLVERTEXATTRIBIPOINTERPROC, VertexAttribIPointer, "glVertexAttribIPointer") \
    X(PFNGLBLENDFUNCSEPARATEPROC, BlendFuncSeparate, "glBlendFuncSeparate") \
    X(PFNGLGENBUFFERSPROC, GenBuffers, "glGenBuffers") \
    X(PFNGLBINDBUFFERPROC, BindBuffer, "glBindBuffer") \
    X(PFNGLBUFFERDATAPROC, BufferData, "glBufferData") \
    X(PFNGLBUFFERSUBDATAPROC, BufferSubData, "glBufferSubData") \
    X(PFNGLDELETEBUFFERSPROC, DeleteBuffers, "glDeleteBuffers") \
    X(PFNGLGENVERTEXARRAYSPROC, GenVertexArrays, "glGenVertexArrays") \
    X(PFNGLBINDVERTEXARRAYPROC, BindVertexArray, "glBindVertexArray") \
    X(PFNGLDELETEVERTEXARRAYSPROC, DeleteVertexArrays, "glDeleteVertexArrays") \
    X(PFNGLGENFRAMEBUFFERSPROC, GenFramebuffers, "glGenFramebuffers") \
    X(PFNGLBINDFRAMEBUFFERPROC, BindFramebuffer, "glBindFramebuffer") \
    X(PFNGLDELETEFRAMEBUFFERSPROC, DeleteFramebuffers, "glDeleteFramebuffers") \
    X(PFNGLFRAMEBUFFERTEXTURE2DPROC, FramebufferTexture2D, "glFramebufferTexture2D") \
    X(PFNGLFRAMEBUFFERRENDERBUFFERPROC, FramebufferRenderbuffer, "glFramebufferRenderbuffer") \
    X(PFNGLCHECKFRAMEBUFFERSTATUSPROC, CheckFramebufferStatus, "glCheckFramebufferStatus") \
    X(PFNGLGENRENDERBUFFERSPROC, GenRenderbuffers, "glGenRenderbuffers") \
    X(PFNGLBINDRENDERBUFFERPROC, BindRenderbuffer, "glBindRenderbuffer") \
    X(PFNGLDELETERENDERBUFFERSPROC, DeleteRenderbuffers, "glDeleteRenderbuffers") \
    X(PFNGLRENDERBUFFERSTORAGEPROC, RenderbufferStorage, "glRenderbufferStorage") \
    X(PFNGLDRAWARRAYSINSTANCEDPROC, DrawArraysInstanced, "glDrawArraysInstanced") \
    X(PFNGLMAPBUFFERRANGEPROC, MapBufferRange, "glMapBufferRange") \
    X(PFNGLUNMAPBUFFERPROC, UnmapBuffer, "glUnmapBuffer") \
    X(PFNGLFENCESYNCPROC, FenceSync, "glFenceSync") \
    X(PFNGLCLIENTWAITSYNCPROC, ClientWaitSync, "glClientWaitSync") \
    X(PFNGLDELETESYNCPROC, DeleteSync, "glDeleteSync")

/// The GL function table, filled through any platform's GetProcAddress (OSMesa or EGL).
typedef struct COSMesa_GL {
#define COSMESA_FIELD(type, field, symbol) type _Nonnull field;
    COSMESA_GL_FUNCTIONS(COSMESA_FIELD)
#undef COSMESA_FIELD
} COSMesa_GL;

/// Resolves a GL entry point by name: a platform's GetProcAddress behind one signature.
typedef void *_Nullable (*COSMesa_Resolver)(void *_Nullable context, const char *_Nonnull name);

/// Fills `gl` through `resolve`. Returns NULL, or the name of the first function missing.
static inline const char *_Nullable COSMesa_loadGL(COSMesa_GL *_Nonnull gl, COSMesa_Resolver _Nonnull resolve,
                                                   void *_Nullable context) {
#define COSMESA_RESOLVE(type, field, symbol) \
    gl->field = (type)resolve(context, symbol); \
    if (gl->field == NULL) return symbol;
    COSMESA_GL_FUNCTIONS(COSMESA_RESOLVE)
#undef COSMESA_RESOLVE
    return NULL;
}

/// The loaded library: OSMesa's own entry points and the GL function table.
typedef struct COSMesa_API {
    void *_Nonnull library;
    COSMesa_PFNCREATECONTEXTATTRIBS _Nonnull CreateContextAttribs;
    COSMesa_PFNMAKECURRENT _Nonnull MakeCurrent;
    COSMesa_PFNDESTROYCONTEXT _Nonnull DestroyContext;
    COSMesa_PFNGETPROCADDRESS _Nonnull GetProcAddress;
    COSMesa_GL gl;
} COSMesa_API;

static inline void *_Nullable COSMesa_resolveOSMesa(void *_Nullable context, const char *_Nonnull name) {
    return (void *)((COSMesa_API *)context)->GetProcAddress(name);
}

/// Opens libOSMesa and resolves every entry point. Returns NULL and a one-line reason in
/// `error` when the library or any function is missing. Free the result with COSMesa_unload.
/// `path`, when not NULL, names the library file to open instead of searching the usual sonames.
static inline COSMesa_API *_Nullable COSMesa_load(const char *_Nullable path, char *_Nonnull error, size_t errorSize) {
    static const char *const names[] = {"libOSMesa.so.8", "libOSMesa.so.6", "libOSMesa.so"};
    void *library = NULL;
    if (path != NULL) {
        library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    }
    for (size_t i = 0; path == NULL && i < sizeof names / sizeof names[0] && library == NULL; i++) {
        library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(error, errorSize, "cannot load libOSMesa (%s); install the Debian package libosmesa6 "
                 "(apt-get install -y libosmesa6), or use --backend cpu", reason ? reason : "not found");
        return NULL;
    }
    COSMesa_API *api = (COSMesa_API *)calloc(1, sizeof(COSMesa_API));
    if (api == NULL) {
        dlclose(library);
        snprintf(error, errorSize, "out of memory loading libOSMesa");
        return NULL;
    }
    api->library = library;
    api->CreateContextAttribs = (COSMesa_PFNCREATECONTEXTATTRIBS)dlsym(library, "OSMesaCreateContextAttribs");
    api->MakeCurrent = (COSMesa_PFNMAKECURRENT)dlsym(library, "OSMesaMakeCurrent");
    api->DestroyContext = (COSMesa_PFNDESTROYCONTEXT)dlsym(library, "OSMesaDestroyContext");
    api->GetProcAddress = (COSMesa_PFNGETPROCADDRESS)dlsym(library, "OSMesaGetProcAddress");
    const char *missing = NULL;
    if (!api->CreateContextAttribs) missing = "OSMesaCreateContextAttribs";
    else if (!api->MakeCurrent) missing = "OSMesaMakeCurrent";
    else if (!api->DestroyContext) missing = "OSMesaDestroyContext";
    else if (!api->GetProcAddress) missing = "OSMesaGetProcAddress";
    else missing = COSMesa_loadGL(&api->gl, COSMesa_resolveOSMesa, api);
    if (missing != NULL) {
        snprintf(error, errorSize, "libOSMesa lacks %s; install a newer libosmesa6 (Mesa ≥ 20)", missing);
        dlclose(library);
        free(api);
        return NULL;
    }
    return api;
}

static inline void COSMesa_unload(COSMesa_API *_Nonnull api) {
    dlclose(api->library);
    free(api);
}

#endif
