#ifndef COSMESA_SHIM_H
#define COSMESA_SHIM_H
// OSMesa's own entry points, loaded at run time; the GL functions come from CGL's table, which
// ThrobberGL fills through COSMesa_resolve (OSMesaGetProcAddress).
//
// Why dlopen instead of linking: a binary linked against libOSMesa does not start at all where
// the library is missing ("error while loading shared libraries"), and then neither would
// `--backend cpu` (see CGL/shim.h).
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
// First, so that the GL headers are set up in one place (CGL/shim.h) before osmesa.h includes gl.h.
#include "../CGL/shim.h"
#include <GL/osmesa.h>

typedef OSMesaContext (GLAPIENTRY *COSMesa_PFNCREATECONTEXTATTRIBS)(const int *attribList, OSMesaContext sharelist);
typedef GLboolean (GLAPIENTRY *COSMesa_PFNMAKECURRENT)(OSMesaContext ctx, void *buffer, GLenum type, GLsizei width, GLsizei height);
typedef void (GLAPIENTRY *COSMesa_PFNDESTROYCONTEXT)(OSMesaContext ctx);
typedef OSMESAproc (GLAPIENTRY *COSMesa_PFNGETPROCADDRESS)(const char *funcName);

/// The loaded library: OSMesa's own entry points.
typedef struct COSMesa_API {
    void *_Nonnull library;
    COSMesa_PFNCREATECONTEXTATTRIBS _Nonnull CreateContextAttribs;
    COSMesa_PFNMAKECURRENT _Nonnull MakeCurrent;
    COSMesa_PFNDESTROYCONTEXT _Nonnull DestroyContext;
    COSMesa_PFNGETPROCADDRESS _Nonnull GetProcAddress;
} COSMesa_API;

/// GL entry points through OSMesaGetProcAddress, in CGL_Resolver's shape (`context` is the
/// COSMesa_API).
static inline void *_Nullable COSMesa_resolve(void *_Nullable context, const char *_Nonnull name) {
    return (void *)((COSMesa_API *)context)->GetProcAddress(name);
}

/// Opens libOSMesa and resolves OSMesa's entry points. Returns NULL and a one-line reason in
/// `error` when the library or any of them is missing. Free the result with COSMesa_unload.
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
    if (missing != NULL) {
        // ThrobberGL words a GL function missing the same way (OSMesaGLContext).
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
