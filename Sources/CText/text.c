#include "CText.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <harfbuzz/hb.h>

// The HarfBuzz functions used, resolved once by CText_load.
#define CTEXT_FUNCTIONS(X) X(blob_create_from_file_or_fail) X(blob_destroy) X(face_create) X(face_count) X(face_destroy) \
    X(font_create) X(font_destroy) X(face_get_upem) X(font_get_nominal_glyph) X(buffer_create) X(buffer_destroy) \
    X(buffer_add_codepoints) X(buffer_set_direction) X(buffer_guess_segment_properties) X(buffer_set_language) X(shape) \
    X(buffer_get_glyph_infos) X(buffer_get_glyph_positions)
#define CTEXT_POINTER(name) static __typeof__(&hb_##name) p_##name;
CTEXT_FUNCTIONS(CTEXT_POINTER)

struct CText_Face {
    hb_face_t *face;
    hb_font_t *font;
};

int CText_load(const char *path, char *error, size_t errorSize) {
    static void *library = NULL;
    if (library != NULL) return 1;
    void *opened = dlopen(path != NULL ? path : "libharfbuzz.so.0", RTLD_NOW | RTLD_LOCAL);
    if (opened == NULL) {
        const char *reason = dlerror();
        snprintf(error, errorSize, "cannot load libharfbuzz (%s); install the Debian package libharfbuzz0b "
                 "(apt-get install -y libharfbuzz0b) to draw text", reason ? reason : "not found");
        return 0;
    }
#define CTEXT_RESOLVE(name) \
    if ((p_##name = (__typeof__(p_##name))dlsym(opened, "hb_" #name)) == NULL) { \
        snprintf(error, errorSize, "libharfbuzz lacks hb_" #name "; install a newer libharfbuzz0b (HarfBuzz ≥ 6)"); \
        dlclose(opened); \
        return 0; \
    }
    CTEXT_FUNCTIONS(CTEXT_RESOLVE)
    library = opened;
    return 1;
}

CText_Face *CText_openFace(const char *path, unsigned index, char *error, size_t errorSize) {
    hb_blob_t *blob = p_blob_create_from_file_or_fail(path);
    if (blob == NULL) {
        snprintf(error, errorSize, "cannot read the font file %s", path);
        return NULL;
    }
    unsigned faces = p_face_count(blob);
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
