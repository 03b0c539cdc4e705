#ifndef CGL_SHIM_H
#define CGL_SHIM_H
// The GL headers and the GL function table, once, for every platform: COSMesa fills the table
// through OSMesaGetProcAddress, CEGL through eglGetProcAddress (each shim declares only its own
// platform and a resolver in CGL_Resolver's shape).
//
// Why a table instead of linking: a binary linked against libOSMesa or libGL does not start at
// all where the library is missing ("error while loading shared libraries"), and then neither
// would `--backend cpu`. So, the way glad and sokol load GL, the platform library is opened with
// dlopen and every GL function is resolved into one table of function pointers.
//
// GL_GLEXT_PROTOTYPES is deliberately NOT defined: prototypes would only invite direct calls,
// which would link a GL library again (gl.h's own GL 1.x prototypes are never called). glext.h still
// gives the PFN…PROC typedefs for GL ≥ 1.2; the few GL 1.0/1.1 functions have none, so they get
// prefixed typedefs here. COSMesa's shim includes this header before <GL/osmesa.h>, so that this
// is the one place the GL headers are set up.
#include <stddef.h>
#include <GL/gl.h>
#include <GL/glext.h>

typedef void (APIENTRYP CGL_PFNGLCLEARPROC)(GLbitfield mask);
typedef void (APIENTRYP CGL_PFNGLCLEARCOLORPROC)(GLfloat r, GLfloat g, GLfloat b, GLfloat a);
typedef void (APIENTRYP CGL_PFNGLVIEWPORTPROC)(GLint x, GLint y, GLsizei w, GLsizei h);
typedef void (APIENTRYP CGL_PFNGLREADPIXELSPROC)(GLint x, GLint y, GLsizei w, GLsizei h, GLenum format, GLenum type, void *pixels);
typedef const GLubyte *(APIENTRYP CGL_PFNGLGETSTRINGPROC)(GLenum name);
typedef void (APIENTRYP CGL_PFNGLGETINTEGERVPROC)(GLenum pname, GLint *data);
typedef GLenum (APIENTRYP CGL_PFNGLGETERRORPROC)(void);
typedef void (APIENTRYP CGL_PFNGLFINISHPROC)(void);
typedef void (APIENTRYP CGL_PFNGLTEXIMAGE2DPROC)(GLenum target, GLint level, GLint internalformat, GLsizei w, GLsizei h, GLint border, GLenum format, GLenum type, const void *pixels);
typedef void (APIENTRYP CGL_PFNGLTEXSUBIMAGE2DPROC)(GLenum target, GLint level, GLint x, GLint y, GLsizei w, GLsizei h, GLenum format, GLenum type, const void *pixels);
typedef void (APIENTRYP CGL_PFNGLTEXPARAMETERIPROC)(GLenum target, GLenum pname, GLint param);
typedef void (APIENTRYP CGL_PFNGLBINDTEXTUREPROC)(GLenum target, GLuint texture);
typedef void (APIENTRYP CGL_PFNGLGENTEXTURESPROC)(GLsizei n, GLuint *textures);
typedef void (APIENTRYP CGL_PFNGLDELETETEXTURESPROC)(GLsizei n, const GLuint *textures);
typedef void (APIENTRYP CGL_PFNGLPIXELSTOREIPROC)(GLenum pname, GLint param);

// Every GL function Throbber calls and cannot do without: X(typedef, field, symbol). A platform
// that lacks one cannot render; loading fails and names it.
#define CGL_REQUIRED_FUNCTIONS(X) \
    X(CGL_PFNGLCLEARPROC, Clear, "glClear") \
    X(CGL_PFNGLCLEARCOLORPROC, ClearColor, "glClearColor") \
    X(CGL_PFNGLVIEWPORTPROC, Viewport, "glViewport") \
    X(CGL_PFNGLREADPIXELSPROC, ReadPixels, "glReadPixels") \
    X(CGL_PFNGLGETSTRINGPROC, GetString, "glGetString") \
    X(CGL_PFNGLGETINTEGERVPROC, GetIntegerv, "glGetIntegerv") \
    X(CGL_PFNGLGETERRORPROC, GetError, "glGetError") \
    X(CGL_PFNGLFINISHPROC, Finish, "glFinish") \
    X(CGL_PFNGLTEXIMAGE2DPROC, TexImage2D, "glTexImage2D") \
    X(CGL_PFNGLTEXSUBIMAGE2DPROC, TexSubImage2D, "glTexSubImage2D") \
    X(CGL_PFNGLTEXPARAMETERIPROC, TexParameteri, "glTexParameteri") \
    X(CGL_PFNGLBINDTEXTUREPROC, BindTexture, "glBindTexture") \
    X(CGL_PFNGLGENTEXTURESPROC, GenTextures, "glGenTextures") \
    X(CGL_PFNGLDELETETEXTURESPROC, DeleteTextures, "glDeleteTextures") \
    X(CGL_PFNGLPIXELSTOREIPROC, PixelStorei, "glPixelStorei") \
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
    X(PFNGLUNIFORM2FPROC, Uniform2f, "glUniform2f") \
    X(PFNGLENABLEVERTEXATTRIBARRAYPROC, EnableVertexAttribArray, "glEnableVertexAttribArray") \
    X(PFNGLVERTEXATTRIBPOINTERPROC, VertexAttribPointer, "glVertexAttribPointer") \
    X(PFNGLVERTEXATTRIBDIVISORPROC, VertexAttribDivisor, "glVertexAttribDivisor") \
    X(PFNGLVERTEXATTRIBIPOINTERPROC, VertexAttribIPointer, "glVertexAttribIPointer") \
    X(PFNGLGENBUFFERSPROC, GenBuffers, "glGenBuffers") \
    X(PFNGLBINDBUFFERPROC, BindBuffer, "glBindBuffer") \
    X(PFNGLBUFFERDATAPROC, BufferData, "glBufferData") \
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
    X(PFNGLUNMAPBUFFERPROC, UnmapBuffer, "glUnmapBuffer")

// GL functions Throbber can do without: NULL in the table where the platform lacks them. The
// readback ring fences each frame's readback so that it waits only for that frame; without sync
// objects glMapBufferRange waits for the same commands itself. The three come together
// (ARB_sync): where one is missing, none is used.
#define CGL_OPTIONAL_FUNCTIONS(X) \
    X(PFNGLFENCESYNCPROC, FenceSync, "glFenceSync") \
    X(PFNGLCLIENTWAITSYNCPROC, ClientWaitSync, "glClientWaitSync") \
    X(PFNGLDELETESYNCPROC, DeleteSync, "glDeleteSync")

/// The GL function table, filled through any platform's GetProcAddress (OSMesa or EGL).
typedef struct CGL_Functions {
#define CGL_REQUIRED_FIELD(type, field, symbol) type _Nonnull field;
#define CGL_OPTIONAL_FIELD(type, field, symbol) type _Nullable field;
    CGL_REQUIRED_FUNCTIONS(CGL_REQUIRED_FIELD)
    CGL_OPTIONAL_FUNCTIONS(CGL_OPTIONAL_FIELD)
#undef CGL_REQUIRED_FIELD
#undef CGL_OPTIONAL_FIELD
} CGL_Functions;

/// Resolves a GL entry point by name: a platform's GetProcAddress behind one signature.
typedef void *_Nullable (*CGL_Resolver)(void *_Nullable context, const char *_Nonnull name);

/// Fills `gl` through `resolve`. Returns NULL, or the name of the first required function
/// missing; an optional one missing is left NULL (with the rest of its group).
static inline const char *_Nullable CGL_load(CGL_Functions *_Nonnull gl, CGL_Resolver _Nonnull resolve,
                                             void *_Nullable context) {
#define CGL_RESOLVE_REQUIRED(type, field, symbol) \
    gl->field = (type)resolve(context, symbol); \
    if (gl->field == NULL) return symbol;
#define CGL_RESOLVE_OPTIONAL(type, field, symbol) gl->field = (type)resolve(context, symbol);
    CGL_REQUIRED_FUNCTIONS(CGL_RESOLVE_REQUIRED)
    CGL_OPTIONAL_FUNCTIONS(CGL_RESOLVE_OPTIONAL)
#undef CGL_RESOLVE_REQUIRED
#undef CGL_RESOLVE_OPTIONAL
    if (gl->FenceSync == NULL || gl->ClientWaitSync == NULL || gl->DeleteSync == NULL) {
        gl->FenceSync = NULL;
        gl->ClientWaitSync = NULL;
        gl->DeleteSync = NULL;
    }
    return NULL;
}

#endif
