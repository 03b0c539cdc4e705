#ifndef CTEXT_H
#define CTEXT_H
// HarfBuzz, loaded at run time (dlopen, like libOSMesa): a machine without libharfbuzz still runs
// every scene without text, and a scene with text hears which package to install. The headers
// come from libharfbuzz-dev through vendor/harfbuzz (a link to /usr/include/harfbuzz, this
// target's header search path); nothing here links the library (a systemLibrary with pkgConfig
// would put it in the binary's DT_NEEDED).
#include <stddef.h>
#include <stdint.h>

/// One shaped glyph: HarfBuzz's glyph id and cluster, its advance and offset in font units.
typedef struct CText_Glyph {
    uint32_t glyph;
    uint32_t cluster;
    int32_t xAdvance;
    int32_t yAdvance;
    int32_t xOffset;
    int32_t yOffset;
} CText_Glyph;

/// An opened font face: HarfBuzz's face and font at the face's own units.
typedef struct CText_Face CText_Face;

/// Loads libharfbuzz and resolves the functions used. 1 on success; 0 with a one-line reason in
/// `error`. `path`, when not NULL, names the library file instead of the usual soname.
int CText_load(const char *_Nullable path, char *_Nonnull error, size_t errorSize);

/// Opens face `index` of the font file at `path`; NULL with a one-line reason in `error` when the
/// file cannot be read or has no such face. Requires CText_load.
CText_Face *_Nullable CText_openFace(const char *_Nonnull path, unsigned index, char *_Nonnull error, size_t errorSize);
void CText_closeFace(CText_Face *_Nullable face);
/// Font units per em.
unsigned CText_unitsPerEm(const CText_Face *_Nonnull face);
/// Whether the face's cmap maps `codepoint` to a glyph.
int CText_covers(const CText_Face *_Nonnull face, uint32_t codepoint);
/// Shapes `count` code points left to right with default features, the script guessed from
/// them and the language unset (never the process locale). Writes at most `capacity` glyphs
/// and returns how many the run has.
int CText_shape(const CText_Face *_Nonnull face, const uint32_t *_Nonnull codepoints, int count, CText_Glyph *_Nonnull out,
                int capacity);

#endif
