#ifndef CEGL_SHIM_H
#define CEGL_SHIM_H
// EGL without a display: the device platform (EGL_EXT_platform_device: a GPU, or Mesa's
// software device) and Mesa's surfaceless platform. Like OSMesa, libEGL is opened with dlopen
// (see CGL/shim.h for why), and every entry point is resolved through eglGetProcAddress; the GL
// functions go into CGL's table through CEGL_resolve.
// EGL_NO_PROTOTYPES is not ours to set: the headers' prototypes are simply never called.
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>

// Macros Swift cannot import (casts), re-exported as constants.
static const EGLDisplay _Nullable CEGL_NO_DISPLAY = EGL_NO_DISPLAY;
static const EGLContext _Nullable CEGL_NO_CONTEXT = EGL_NO_CONTEXT;
static const EGLSurface _Nullable CEGL_NO_SURFACE = EGL_NO_SURFACE;
static const EGLConfig _Nullable CEGL_NO_CONFIG = (EGLConfig)0;

/// libEGL's entry points Throbber calls.
typedef struct CEGL_API {
    void *_Nonnull library;
    PFNEGLGETPROCADDRESSPROC _Nonnull GetProcAddress;
    PFNEGLGETERRORPROC _Nonnull GetError;
    PFNEGLQUERYSTRINGPROC _Nonnull QueryString;
    PFNEGLINITIALIZEPROC _Nonnull Initialize;
    PFNEGLTERMINATEPROC _Nonnull Terminate;
    PFNEGLBINDAPIPROC _Nonnull BindAPI;
    PFNEGLCHOOSECONFIGPROC _Nonnull ChooseConfig;
    PFNEGLCREATECONTEXTPROC _Nonnull CreateContext;
    PFNEGLDESTROYCONTEXTPROC _Nonnull DestroyContext;
    PFNEGLMAKECURRENTPROC _Nonnull MakeCurrent;
    PFNEGLRELEASETHREADPROC _Nonnull ReleaseThread;
    // Extensions: NULL when the library lacks them.
    PFNEGLGETPLATFORMDISPLAYEXTPROC _Nullable GetPlatformDisplayEXT;
    PFNEGLQUERYDEVICESEXTPROC _Nullable QueryDevicesEXT;
    PFNEGLQUERYDEVICESTRINGEXTPROC _Nullable QueryDeviceStringEXT;
} CEGL_API;

/// GL entry points through eglGetProcAddress, in CGL_Resolver's shape (`context` is the CEGL_API).
static inline void *_Nullable CEGL_resolve(void *_Nullable context, const char *_Nonnull name) {
    return (void *)((CEGL_API *)context)->GetProcAddress(name);
}

/// Opens libEGL and resolves its entry points; NULL with a one-line reason when it cannot.
static inline CEGL_API *_Nullable CEGL_load(const char *_Nullable path, char *_Nonnull error, size_t errorSize) {
    void *library = dlopen(path ? path : "libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(error, errorSize, "cannot load libEGL (%s); install the Debian packages libegl1 and libegl-mesa0",
                 reason ? reason : "not found");
        return NULL;
    }
    CEGL_API *api = (CEGL_API *)calloc(1, sizeof(CEGL_API));
    if (api == NULL) {
        dlclose(library);
        snprintf(error, errorSize, "out of memory loading libEGL");
        return NULL;
    }
    api->library = library;
    api->GetProcAddress = (PFNEGLGETPROCADDRESSPROC)dlsym(library, "eglGetProcAddress");
    if (api->GetProcAddress == NULL) {
        snprintf(error, errorSize, "libEGL lacks eglGetProcAddress");
        dlclose(library);
        free(api);
        return NULL;
    }
#define CEGL_REQUIRE(field, symbol) \
    api->field = (void *)api->GetProcAddress(symbol); \
    if (api->field == NULL) api->field = dlsym(library, symbol); \
    if (api->field == NULL) { \
        snprintf(error, errorSize, "libEGL lacks %s", symbol); \
        dlclose(library); free(api); return NULL; \
    }
    CEGL_REQUIRE(GetError, "eglGetError")
    CEGL_REQUIRE(QueryString, "eglQueryString")
    CEGL_REQUIRE(Initialize, "eglInitialize")
    CEGL_REQUIRE(Terminate, "eglTerminate")
    CEGL_REQUIRE(BindAPI, "eglBindAPI")
    CEGL_REQUIRE(ChooseConfig, "eglChooseConfig")
    CEGL_REQUIRE(CreateContext, "eglCreateContext")
    CEGL_REQUIRE(DestroyContext, "eglDestroyContext")
    CEGL_REQUIRE(MakeCurrent, "eglMakeCurrent")
    CEGL_REQUIRE(ReleaseThread, "eglReleaseThread")
#undef CEGL_REQUIRE
    api->GetPlatformDisplayEXT = (PFNEGLGETPLATFORMDISPLAYEXTPROC)api->GetProcAddress("eglGetPlatformDisplayEXT");
    api->QueryDevicesEXT = (PFNEGLQUERYDEVICESEXTPROC)api->GetProcAddress("eglQueryDevicesEXT");
    api->QueryDeviceStringEXT = (PFNEGLQUERYDEVICESTRINGEXTPROC)api->GetProcAddress("eglQueryDeviceStringEXT");
    return api;
}

static inline void CEGL_unload(CEGL_API *_Nonnull api) {
    dlclose(api->library);
    free(api);
}

#endif
