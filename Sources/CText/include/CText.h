#ifndef CTEXT_H
#define CTEXT_H
// HarfBuzz and FreeType, loaded at run time (dlopen, like libOSMesa): a machine without them still
// runs every scene without text, and a scene with text hears which package to install. The
// headers come from libharfbuzz-dev and libfreetype-dev through vendor/ (links to
// /usr/include/harfbuzz and /usr/include/freetype2, this target's header search path); nothing
// here links either library (a systemLibrary with pkgConfig would put them in DT_NEEDED).
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

/// Opens face `index` of the font file whose `size` bytes are at `data` (read by the caller, by the
/// one rule every input is opened by; HarfBuzz never opens a path, which could be a FIFO);
/// `name` names it in messages. The bytes must outlive the face. NULL with a one-line reason in
/// `error` when they hold no such face. Requires CText_load.
CText_Face *_Nullable CText_openFace(const void *_Nonnull data, size_t size, const char *_Nonnull name, unsigned index,
                                     char *_Nonnull error, size_t errorSize);
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

// FreeType, loaded at run time the same way (headers through vendor/ft2build.h and
// vendor/freetype, links to libfreetype-dev's): glyphs rasterised unhinted (SPEC §6).

/// Loads libfreetype and resolves the functions used. 1 on success; 0 with a reason in `error`.
int CText_loadFreeType(const char *_Nullable path, char *_Nonnull error, size_t errorSize);

/// A FreeType library instance with stem darkening switched off for cff, type1, t1cid and the
/// autofitter (overriding FREETYPE_PROPERTIES), and one face of a font file.
typedef struct CText_Rasterizer CText_Rasterizer;
/// The face is read from `size` bytes at `data`, as CText_openFace's; they must outlive the rasterizer.
CText_Rasterizer *_Nullable CText_newRasterizer(const void *_Nonnull data, size_t size, const char *_Nonnull name, unsigned index,
                                                char *_Nonnull error, size_t errorSize);
void CText_freeRasterizer(CText_Rasterizer *_Nullable rasterizer);

/// A rendered glyph's bitmap: its size and where its top-left pixel lies from the pen.
typedef struct CText_Bitmap {
    int width;
    int rows;
    int left;
    int top;
} CText_Bitmap;

/// Renders glyph `glyph` at `size64` (26.6 fixed point px, 72 dpi), shifted right by
/// `quarter` quarter pixels, unhinted (FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP, FT_RENDER_MODE_NORMAL).
/// Writes its coverage rows (width bytes each) to `out` when `capacity` holds them; returns
/// width × rows, or -1 with a reason in `error`.
long CText_renderGlyph(CText_Rasterizer *_Nonnull rasterizer, uint32_t glyph, long size64, int quarter,
                       uint8_t *_Nullable out, size_t capacity, CText_Bitmap *_Nonnull bitmap, char *_Nonnull error, size_t errorSize);

/// The commands of a glyph's outline (FreeType's FT_Outline_Decompose): each takes 1, 1, 2 and 3
/// points. A contour starts with a move and ends with a segment back to its start; a conic is
/// a quadratic Bézier (control, end).
enum {
    CText_outlineMove = 0,
    CText_outlineLine = 1,
    CText_outlineConic = 2,
    CText_outlineCubic = 3,
};

/// How many commands an outline has and how many coordinates (two a point) they take.
typedef struct CText_OutlineSize {
    long commands;
    long coordinates;
} CText_OutlineSize;

/// The outline of glyph `glyph` loaded as CText_renderGlyph loads it (same size, flags and quarter
/// shift), whose FT_RENDER_MODE_NORMAL rendering is `bitmap` (CText_renderGlyph's): the bitmap is
/// its exact area coverage, nonzero winding, to FreeType's flattening and rounding. Points are
/// 26.6 fixed point px from the bitmap's bottom-left corner, x right and y up: the outline as
/// FT_Render_Glyph moves it before rasterising. Writes what `commands` and `coordinates` hold
/// (either may be NULL) and the whole outline's size to `size`; 1 on success, 0 with a reason
/// in `error`.
int CText_glyphOutline(CText_Rasterizer *_Nonnull rasterizer, uint32_t glyph, long size64, int quarter,
                       const CText_Bitmap *_Nonnull bitmap, uint8_t *_Nullable commands, size_t commandCapacity,
                       int32_t *_Nullable coordinates, size_t coordinateCapacity, CText_OutlineSize *_Nonnull size,
                       char *_Nonnull error, size_t errorSize);

#endif
