#ifndef CPNGCODEC_H
#define CPNGCODEC_H
// PNG encode/decode for Throbber. libpng's classic API reports errors by longjmp, which Swift
// frames cannot survive, so every setjmp lives inside these C functions: they return 0 on
// success or -1 with a one-line message in `error`. No C type here leaks into a public Swift API;
// ThrobberPNG wraps them.
#include <stddef.h>
#include <stdint.h>

/// One tEXt chunk (Latin-1 keyword of 1–79 bytes, text).
typedef struct CPNGCodec_Text {
    const char *_Nonnull key;
    const char *_Nonnull text;
} CPNGCodec_Text;

/// Encoder settings. Negative values keep libpng's defaults.
typedef struct CPNGCodec_Settings {
    int level;      ///< zlib level 0–9
    int strategy;   ///< zlib strategy: 0 default, 1 filtered, 2 huffman-only, 3 RLE, 4 fixed
    int filters;    ///< PNG_FILTER_* bit set (0x08 none, 0x10 sub, 0x20 up, 0x40 avg, 0x80 paeth)
} CPNGCodec_Settings;

/// A growable byte buffer owned by C; release with CPNGCodec_free.
typedef struct CPNGCodec_Buffer {
    unsigned char *_Nullable data;
    size_t size;
    size_t capacity;
} CPNGCodec_Buffer;

/// Encodes straight-alpha RGBA8 rows (top-down, tightly packed) as an 8-bit RGBA PNG.
int CPNGCodec_encode(const unsigned char *_Nonnull rgba, uint32_t width, uint32_t height,
                     CPNGCodec_Settings settings,
                     const CPNGCodec_Text *_Nullable texts, int textCount,
                     CPNGCodec_Buffer *_Nonnull out, char *_Nonnull error, size_t errorSize);

/// What every reader refuses, checked on IHDR before any pixel memory is allocated.
typedef struct CPNGCodec_Limits {
    uint64_t maxPixels;     ///< width × height above this is refused (status 1), with the header filled in
    uint32_t maxSide;       ///< png_set_user_limits: a wider or taller IHDR is a libpng error
    uint32_t maxChunkBytes; ///< png_set_chunk_malloc_max: what one zTXt, iTXt or iCCP may inflate to
    uint32_t maxChunks;     ///< png_set_chunk_cache_max: how many ancillary chunks are kept
} CPNGCodec_Limits;

/// A PNG's IHDR as stored.
typedef struct CPNGCodec_Header {
    uint32_t width;
    uint32_t height;
    int bitDepth;   ///< 1, 2, 4, 8 or 16
    int colorType;  ///< PNG_COLOR_TYPE_*: 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA
    int interlaced; ///< 1 for Adam7
} CPNGCodec_Header;

/// A PNG being decoded row by row into straight-alpha RGBA8; opaque.
typedef struct CPNGCodec_Reader CPNGCodec_Reader;

/// Opens a PNG held in memory (`data` must outlive the reader) and reads its header.
///
/// Returns 0 with `*reader` set; 1 when the declared size is over `limits.maxPixels` (`header`
/// filled in, nothing allocated for pixels, `*reader` NULL); -1 with libpng's reason in `error`.
int CPNGCodec_openReader(const unsigned char *_Nonnull data, size_t size, CPNGCodec_Limits limits,
                         CPNGCodec_Header *_Nonnull header, CPNGCodec_Reader *_Nullable *_Nonnull reader,
                         char *_Nonnull error, size_t errorSize);

/// Decodes the next `count` rows (top-down) into `rgba`, `count × width × 4` bytes: any colour
/// type and depth, tRNS as alpha, 16-bit channels as round(v / 257), and never a gamma
/// conversion. Returns 0, or -1 with libpng's reason in `error` (the reader is then spent).
int CPNGCodec_readRows(CPNGCodec_Reader *_Nonnull reader, unsigned char *_Nonnull rgba, uint32_t count,
                       char *_Nonnull error, size_t errorSize);

void CPNGCodec_closeReader(CPNGCodec_Reader *_Nullable reader);

/// The 8-bit value nearest a 16-bit one: round(v / 257), exactly, in integers.
uint8_t CPNGCodec_reduce16(uint16_t value);

/// Reads the tEXt/zTXt/iTXt chunks of a PNG: `visit` is called once per chunk.
int CPNGCodec_readText(const unsigned char *_Nonnull data, size_t size, CPNGCodec_Limits limits,
                       void (*_Nonnull visit)(void *_Nullable context, const char *_Nonnull key, const char *_Nonnull text),
                       void *_Nullable context, char *_Nonnull error, size_t errorSize);

void CPNGCodec_free(CPNGCodec_Buffer *_Nonnull buffer);

#endif
