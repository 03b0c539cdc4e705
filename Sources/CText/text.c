#include "CText.h"
#include <dlfcn.h>
#include <pthread.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <harfbuzz/hb.h>

// The HarfBuzz functions used, resolved once by CText_load.
#define CTEXT_FUNCTIONS(X) X(blob_create_or_fail) X(blob_destroy) X(face_create) X(face_count) X(face_destroy) \
    X(font_create) X(font_destroy) X(face_get_upem) X(font_get_nominal_glyph) X(buffer_create) X(buffer_destroy) \
    X(buffer_add_codepoints) X(buffer_set_direction) X(buffer_guess_segment_properties) X(buffer_set_language) X(shape) \
    X(buffer_get_glyph_infos) X(buffer_get_glyph_positions)
#define CTEXT_POINTER(name) static __typeof__(&hb_##name) p_##name;
CTEXT_FUNCTIONS(CTEXT_POINTER)

struct CText_Face {
    hb_face_t *face;
    hb_font_t *font;
};

// One lock for loading either library: two shapers or rasterizers made on two threads at once
// must not both write the function pointers.
static pthread_mutex_t loading = PTHREAD_MUTEX_INITIALIZER;

/// Opens `path`, or the library's usual `soname`; NULL with the reason, naming the Debian
/// `package` to install, in `error`.
static void *open_library(const char *path, const char *soname, const char *name, const char *package, char *error,
                          size_t errorSize) {
    void *opened = dlopen(path != NULL ? path : soname, RTLD_NOW | RTLD_LOCAL);
    if (opened == NULL) {
        const char *reason = dlerror();
        snprintf(error, errorSize, "cannot load %s (%s); install the Debian package %s (apt-get install -y %s) to draw text",
                 name, reason ? reason : "not found", package, package);
    }
    return opened;
}

/// Resolves `pointer` as `symbol` from `opened`, or closes it, says which is missing and fails the load.
#define CTEXT_RESOLVE_INTO(pointer, symbol, name, package) \
    if ((pointer = (__typeof__(pointer))dlsym(opened, symbol)) == NULL) { \
        snprintf(error, errorSize, "%s lacks %s; install a newer %s", name, symbol, package); \
        dlclose(opened); \
        pthread_mutex_unlock(&loading); \
        return 0; \
    }

int CText_load(const char *path, char *error, size_t errorSize) {
    static void *library = NULL;
    pthread_mutex_lock(&loading);
    if (library != NULL) { pthread_mutex_unlock(&loading); return 1; }
    void *opened = open_library(path, "libharfbuzz.so.0", "libharfbuzz", "libharfbuzz0b", error, errorSize);
    if (opened == NULL) { pthread_mutex_unlock(&loading); return 0; }
#define CTEXT_RESOLVE(name) CTEXT_RESOLVE_INTO(p_##name, "hb_" #name, "libharfbuzz", "libharfbuzz0b (HarfBuzz ≥ 6)")
    CTEXT_FUNCTIONS(CTEXT_RESOLVE)
    library = opened;
    pthread_mutex_unlock(&loading);
    return 1;
}

CText_Face *CText_openFace(const void *data, size_t size, const char *path, unsigned index, char *error, size_t errorSize) {
    if (size > UINT_MAX) {
        snprintf(error, errorSize, "%s is larger than HarfBuzz reads", path);
        return NULL;
    }
    // READONLY: HarfBuzz neither copies nor frees the bytes; the caller keeps them alive.
    hb_blob_t *blob = p_blob_create_or_fail((const char *)data, (unsigned)size, HB_MEMORY_MODE_READONLY, NULL, NULL);
    if (blob == NULL) {
        snprintf(error, errorSize, "out of memory opening %s", path);
        return NULL;
    }
    unsigned faces = p_face_count(blob);
    if (faces == 0) {
        snprintf(error, errorSize, "%s is not a font file (HarfBuzz finds no face in it)", path);
        p_blob_destroy(blob);
        return NULL;
    }
    if (index >= faces) {
        snprintf(error, errorSize, "%s has %u face%s; face %u does not exist", path, faces, faces == 1 ? "" : "s", index);
        p_blob_destroy(blob);
        return NULL;
    }
    CText_Face *face = calloc(1, sizeof *face);
    if (face == NULL) {
        p_blob_destroy(blob);
        snprintf(error, errorSize, "out of memory opening %s", path);
        return NULL;
    }
    face->face = p_face_create(blob, index);
    p_blob_destroy(blob);
    face->font = p_font_create(face->face);
    return face;
}

void CText_closeFace(CText_Face *face) {
    if (face == NULL) return;
    p_font_destroy(face->font);
    p_face_destroy(face->face);
    free(face);
}

unsigned CText_unitsPerEm(const CText_Face *face) { return p_face_get_upem(face->face); }

int CText_covers(const CText_Face *face, uint32_t codepoint) {
    hb_codepoint_t glyph = 0;
    return p_font_get_nominal_glyph(face->font, codepoint, &glyph) != 0;
}

int CText_shape(const CText_Face *face, const uint32_t *codepoints, int count, CText_Glyph *out, int capacity) {
    hb_buffer_t *buffer = p_buffer_create();
    p_buffer_add_codepoints(buffer, codepoints, count, 0, count);
    p_buffer_set_direction(buffer, HB_DIRECTION_LTR);
    p_buffer_guess_segment_properties(buffer);
    // guess_segment_properties fills an unset language from the process locale, which changes
    // CJK glyph choices: unset it again (SPEC §6).
    p_buffer_set_language(buffer, HB_LANGUAGE_INVALID);
    p_shape(face->font, buffer, NULL, 0);
    unsigned length = 0;
    const hb_glyph_info_t *info = p_buffer_get_glyph_infos(buffer, &length);
    const hb_glyph_position_t *position = p_buffer_get_glyph_positions(buffer, &length);
    for (unsigned i = 0; i < length && (int)i < capacity; i++) {
        out[i] = (CText_Glyph){info[i].codepoint, info[i].cluster, position[i].x_advance, position[i].y_advance,
                               position[i].x_offset, position[i].y_offset};
    }
    p_buffer_destroy(buffer);
    return (int)length;
}

// FreeType.
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_MODULE_H
#include FT_OUTLINE_H
#include <string.h>

#define CTEXT_FT_FUNCTIONS(X) X(Init_FreeType) X(Done_FreeType) X(Property_Set) X(New_Memory_Face) X(Done_Face) \
    X(Set_Char_Size) X(Load_Glyph) X(Outline_Translate) X(Render_Glyph) X(Outline_Decompose)
#define CTEXT_FT_POINTER(name) static __typeof__(&FT_##name) f_##name;
CTEXT_FT_FUNCTIONS(CTEXT_FT_POINTER)

struct CText_Rasterizer {
    FT_Library library;
    FT_Face face;
};

int CText_loadFreeType(const char *path, char *error, size_t errorSize) {
    static void *library = NULL;
    pthread_mutex_lock(&loading);
    if (library != NULL) { pthread_mutex_unlock(&loading); return 1; }
    void *opened = open_library(path, "libfreetype.so.6", "libfreetype", "libfreetype6", error, errorSize);
    if (opened == NULL) { pthread_mutex_unlock(&loading); return 0; }
#define CTEXT_FT_RESOLVE(name) CTEXT_RESOLVE_INTO(f_##name, "FT_" #name, "libfreetype", "libfreetype6")
    CTEXT_FT_FUNCTIONS(CTEXT_FT_RESOLVE)
    library = opened;
    pthread_mutex_unlock(&loading);
    return 1;
}

CText_Rasterizer *CText_newRasterizer(const void *data, size_t size, const char *path, unsigned index, char *error,
                                      size_t errorSize) {
    CText_Rasterizer *r = calloc(1, sizeof *r);
    if (r == NULL) { snprintf(error, errorSize, "out of memory"); return NULL; }
    FT_Error status = f_Init_FreeType(&r->library);
    if (status != 0) { free(r); snprintf(error, errorSize, "FT_Init_FreeType failed (%d)", status); return NULL; }
    // After FT_Init_FreeType, which read FREETYPE_PROPERTIES: no module darkens stems (SPEC §6).
    FT_Bool on = 1;
    const char *modules[] = {"cff", "type1", "t1cid", "autofitter"};
    for (size_t i = 0; i < sizeof modules / sizeof modules[0]; i++) f_Property_Set(r->library, modules[i], "no-stem-darkening", &on);
    status = f_New_Memory_Face(r->library, (const FT_Byte *)data, (FT_Long)size, (FT_Long)index, &r->face);
    if (status != 0) {
        f_Done_FreeType(r->library);
        free(r);
        snprintf(error, errorSize, "FreeType cannot open face %u of %s (error %d)", index, path, status);
        return NULL;
    }
    return r;
}

void CText_freeRasterizer(CText_Rasterizer *r) {
    if (r == NULL) return;
    f_Done_Face(r->face);
    f_Done_FreeType(r->library);
    free(r);
}

/// Loads `glyph` into the face's slot at `size64`, unhinted, its outline moved `quarter` quarter
/// pixels right (SPEC §6): the one place the bitmap and the outline are loaded, so they cannot
/// differ. NULL with a reason in `error`.
static FT_GlyphSlot load_glyph(CText_Rasterizer *r, uint32_t glyph, long size64, int quarter, char *error, size_t errorSize) {
    FT_Error status = f_Set_Char_Size(r->face, (FT_F26Dot6)size64, 0, 72, 72);
    if (status == 0) status = f_Load_Glyph(r->face, glyph, FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP);
    if (status != 0) { snprintf(error, errorSize, "FreeType cannot load glyph %u (error %d)", glyph, status); return NULL; }
    FT_GlyphSlot slot = r->face->glyph;
    if (slot->format == FT_GLYPH_FORMAT_OUTLINE) f_Outline_Translate(&slot->outline, 16 * quarter, 0);
    return slot;
}

long CText_renderGlyph(CText_Rasterizer *r, uint32_t glyph, long size64, int quarter, uint8_t *out, size_t capacity,
                       CText_Bitmap *bitmap, char *error, size_t errorSize) {
    FT_GlyphSlot slot = load_glyph(r, glyph, size64, quarter, error, errorSize);
    if (slot == NULL) return -1;
    FT_Error status = f_Render_Glyph(slot, FT_RENDER_MODE_NORMAL);
    if (status != 0) { snprintf(error, errorSize, "FreeType cannot render glyph %u (error %d)", glyph, status); return -1; }
    const FT_Bitmap *b = &slot->bitmap;
    *bitmap = (CText_Bitmap){(int)b->width, (int)b->rows, slot->bitmap_left, slot->bitmap_top};
    long size = (long)b->width * (long)b->rows;
    if (out != NULL && (size_t)size <= capacity) {
        for (unsigned y = 0; y < b->rows; y++) {
            const unsigned char *row = b->pitch >= 0 ? b->buffer + (long)y * b->pitch : b->buffer + (long)(b->rows - 1 - y) * -b->pitch;
            memcpy(out + (size_t)y * b->width, row, b->width);
        }
    }
    return size;
}

/// Where FT_Outline_Decompose's callbacks write: as much as the buffers hold, counting all of it.
typedef struct OutlineSink {
    uint8_t *commands;
    size_t commandCapacity;
    int32_t *coordinates;
    size_t coordinateCapacity;
    CText_OutlineSize size;
} OutlineSink;

static void sink_command(OutlineSink *sink, uint8_t command, const FT_Vector *const *points, int count) {
    if (sink->commands != NULL && (size_t)sink->size.commands < sink->commandCapacity) sink->commands[sink->size.commands] = command;
    sink->size.commands++;
    for (int i = 0; i < count; i++) {
        // 26.6 coordinates of an unhinted glyph at ≤ 4096 px fit 32 bits with room to spare.
        if (sink->coordinates != NULL && (size_t)sink->size.coordinates + 2 <= sink->coordinateCapacity) {
            sink->coordinates[sink->size.coordinates] = (int32_t)points[i]->x;
            sink->coordinates[sink->size.coordinates + 1] = (int32_t)points[i]->y;
        }
        sink->size.coordinates += 2;
    }
}

static int sink_move(const FT_Vector *to, void *user) {
    sink_command(user, CText_outlineMove, (const FT_Vector *[]){to}, 1);
    return 0;
}
static int sink_line(const FT_Vector *to, void *user) {
    sink_command(user, CText_outlineLine, (const FT_Vector *[]){to}, 1);
    return 0;
}
static int sink_conic(const FT_Vector *control, const FT_Vector *to, void *user) {
    sink_command(user, CText_outlineConic, (const FT_Vector *[]){control, to}, 2);
    return 0;
}
static int sink_cubic(const FT_Vector *control1, const FT_Vector *control2, const FT_Vector *to, void *user) {
    sink_command(user, CText_outlineCubic, (const FT_Vector *[]){control1, control2, to}, 3);
    return 0;
}

int CText_glyphOutline(CText_Rasterizer *r, uint32_t glyph, long size64, int quarter, const CText_Bitmap *bitmap, uint8_t *commands,
                       size_t commandCapacity, int32_t *coordinates, size_t coordinateCapacity, CText_OutlineSize *size, char *error,
                       size_t errorSize) {
    FT_GlyphSlot slot = load_glyph(r, glyph, size64, quarter, error, errorSize);
    if (slot == NULL) return 0;
    if (slot->format != FT_GLYPH_FORMAT_OUTLINE) {
        snprintf(error, errorSize, "FreeType has no outline of glyph %u (format %lx)", glyph, (unsigned long)slot->format);
        return 0;
    }
    // Moved as FT_Render_Glyph moves it into the bitmap before rasterising: FT_Outline_Decompose
    // puts the on-curve point between two conic controls at their midpoint rounded toward zero,
    // so below the baseline (negative y) the pen's frame would round it the other way.
    f_Outline_Translate(&slot->outline, -64 * bitmap->left, 64 * (bitmap->rows - bitmap->top));
    OutlineSink sink = {commands, commandCapacity, coordinates, coordinateCapacity, {0, 0}};
    // shift 0, delta 0: the points as they are, in 26.6 px.
    const FT_Outline_Funcs funcs = {sink_move, sink_line, sink_conic, sink_cubic, 0, 0};
    FT_Error status = f_Outline_Decompose(&slot->outline, &funcs, &sink);
    if (status != 0) { snprintf(error, errorSize, "FreeType cannot decompose glyph %u (error %d)", glyph, status); return 0; }
    *size = sink.size;
    return 1;
}
