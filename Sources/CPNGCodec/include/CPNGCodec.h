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

/// Decodes any PNG into straight-alpha RGBA8 rows; `*rgba` is malloc'ed (free with CPNGCodec_freeBytes).
int CPNGCodec_decode(const unsigned char *_Nonnull data, size_t size,
                     uint32_t *_Nonnull width, uint32_t *_Nonnull height,
                     unsigned char *_Nullable *_Nonnull rgba,
                     char *_Nonnull error, size_t errorSize);

/// Reads the tEXt/zTXt/iTXt chunks of a PNG: `visit` is called once per chunk.
int CPNGCodec_readText(const unsigned char *_Nonnull data, size_t size,
                       void (*_Nonnull visit)(void *_Nullable context, const char *_Nonnull key, const char *_Nonnull text),
                       void *_Nullable context, char *_Nonnull error, size_t errorSize);

void CPNGCodec_free(CPNGCodec_Buffer *_Nonnull buffer);
void CPNGCodec_freeBytes(unsigned char *_Nullable bytes);

#endif
