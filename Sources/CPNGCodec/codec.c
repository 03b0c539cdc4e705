#include "CPNGCodec.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ErrorSink {
    char *message;
    size_t size;
    char warning[160]; ///< the latest warning, which often says why an error follows
} ErrorSink;

// libpng calls this on a fatal error; we record the message and jump back into our own C frame.
// libpng's IHDR check warns with the reason ("Image width exceeds user limit in IHDR") and then
// fails with only "Invalid IHDR data", so the latest warning is kept and named with the error.
static void on_error(png_structp png, png_const_charp message) {
    ErrorSink *sink = (ErrorSink *)png_get_error_ptr(png);
    if (sink != NULL && sink->message != NULL) {
        if (sink->warning[0] != 0) {
            snprintf(sink->message, sink->size, "libpng: %s (%s)", message, sink->warning);
        } else {
            snprintf(sink->message, sink->size, "libpng: %s", message);
        }
    }
    png_longjmp(png, 1);
}

// Warnings (for example an unknown chunk) are not failures; the latest is kept for on_error.
static void on_warning(png_structp png, png_const_charp message) {
    ErrorSink *sink = (ErrorSink *)png_get_error_ptr(png);
    if (sink != NULL) snprintf(sink->warning, sizeof sink->warning, "%s", message);
}

static void on_write(png_structp png, png_bytep bytes, png_size_t length) {
    CPNGCodec_Buffer *out = (CPNGCodec_Buffer *)png_get_io_ptr(png);
    if (out->size + length > out->capacity) {
        size_t capacity = out->capacity ? out->capacity : 65536;
        while (capacity < out->size + length) capacity *= 2;
        unsigned char *grown = (unsigned char *)realloc(out->data, capacity);
        if (grown == NULL) png_error(png, "out of memory");
        out->data = grown;
        out->capacity = capacity;
    }
    memcpy(out->data + out->size, bytes, length);
    out->size += length;
}

static void on_flush(png_structp png) { (void)png; }

int CPNGCodec_encode(const unsigned char *rgba, uint32_t width, uint32_t height,
                     CPNGCodec_Settings settings, const CPNGCodec_Text *texts, int textCount,
                     CPNGCodec_Buffer *out, char *error, size_t errorSize) {
    ErrorSink sink = {error, errorSize};
    error[0] = 0;
    out->data = NULL;
    out->size = 0;
    out->capacity = 0;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, on_error, on_warning);
    if (png == NULL) {
        snprintf(error, errorSize, "libpng: cannot create write struct");
        return -1;
    }
    png_infop info = png_create_info_struct(png);
    png_textp chunks = NULL;
    if (info == NULL || setjmp(png_jmpbuf(png))) {
        if (error[0] == 0) snprintf(error, errorSize, "libpng: cannot create info struct");
        png_destroy_write_struct(&png, info ? &info : NULL);
        free(chunks);
        CPNGCodec_free(out);
        return -1;
    }
    png_set_write_fn(png, out, on_write, on_flush);
    if (settings.level >= 0) png_set_compression_level(png, settings.level);
    if (settings.strategy >= 0) png_set_compression_strategy(png, settings.strategy);
    if (settings.filters >= 0) png_set_filter(png, PNG_FILTER_TYPE_BASE, settings.filters);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    if (textCount > 0 && texts != NULL) {
        chunks = (png_textp)calloc((size_t)textCount, sizeof(png_text));
        if (chunks == NULL) png_error(png, "out of memory");
        for (int i = 0; i < textCount; i++) {
            chunks[i].compression = PNG_TEXT_COMPRESSION_NONE;
            chunks[i].key = (png_charp)texts[i].key;
            chunks[i].text = (png_charp)texts[i].text;
            chunks[i].text_length = strlen(texts[i].text);
        }
        png_set_text(png, info, chunks, textCount);
    }
    png_write_info(png, info);
    const size_t stride = (size_t)width * 4;
    for (uint32_t y = 0; y < height; y++) {
        png_write_row(png, (png_const_bytep)(rgba + stride * y));
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(chunks);
    return 0;
}

typedef struct ReadSource {
    const unsigned char *data;
    size_t size;
    size_t offset;
} ReadSource;

static void on_read(png_structp png, png_bytep bytes, png_size_t length) {
    ReadSource *source = (ReadSource *)png_get_io_ptr(png);
    if (length > source->size - source->offset) png_error(png, "the file ends early (truncated PNG)");
    memcpy(bytes, source->data + source->offset, length);
    source->offset += length;
}

// Every reader bounds what a hostile file can make libpng allocate before any pixel is read:
// the IHDR's sides, what one compressed ancillary chunk (zTXt, iTXt, iCCP) may inflate to, and how
// many ancillary chunks are kept. IDAT is streamed and never held whole.
static void apply_limits(png_structp png, CPNGCodec_Limits limits) {
    png_set_user_limits(png, limits.maxSide, limits.maxSide);
    png_set_chunk_malloc_max(png, limits.maxChunkBytes);
    png_set_chunk_cache_max(png, limits.maxChunks);
}

// The chunk layout checked before libpng sees the file: every chunk's length within what is left
// of it. libpng allocates a chunk's buffer from its declared length before reading it (a tEXt
// declaring 2^31 - 1 bytes in a 2.5 KB file made it allocate 2.1 GB), so no length may promise
// more bytes than the file holds. Returns 0, or -1 with the reason in `error`.
static int check_chunks(const unsigned char *data, size_t size, int readsText, char *error, size_t errorSize) {
    static const unsigned char signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    // Not a PNG at all: libpng's own reading says so in its words.
    if (size < 8 || memcmp(data, signature, 8) != 0) return 0;
    size_t offset = 8;
    while (offset < size) {
        if (size - offset < 8) {
            snprintf(error, errorSize, "libpng: the file ends early (truncated PNG): %zu stray bytes at byte %zu", size - offset, offset);
            return -1;
        }
        const unsigned char *p = data + offset;
        uint32_t length = ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
        char type[5] = {0};
        for (int i = 0; i < 4; i++) type[i] = (p[4 + i] >= 0x20 && p[4 + i] < 0x7f) ? (char)p[4 + i] : '?';
        if (length > 0x7fffffffu) {
            snprintf(error, errorSize, "libpng: chunk %s at byte %zu declares %u bytes, over the format's 2147483647 (corrupt PNG)",
                     type, offset, length);
            return -1;
        }
        if ((uint64_t)length + 12 > size - offset) {
            snprintf(error, errorSize, "libpng: the file ends early (truncated PNG): chunk %s at byte %zu declares %u bytes "
                     "and its CRC, %zu follow", type, offset, length, size - offset - 8);
            return -1;
        }
        // Where the text is read: a tEXt chunk is a keyword, one NUL, and a text with no NUL
        // (PNG §11.3.4.3); the pixels of a PNG whose text breaks this still decode. libpng
        // measures the text with strlen, so a second NUL would end it early, unseen: a path cut
        // short there names another file than the one written.
        if (readsText && memcmp(p + 4, "tEXt", 4) == 0) {
            const unsigned char *keyEnd = memchr(p + 8, 0, length);
            if (keyEnd != NULL && memchr(keyEnd + 1, 0, (size_t)(p + 8 + length - keyEnd - 1)) != NULL) {
                snprintf(error, errorSize, "its tEXt %.79s holds a NUL character, which PNG does not allow in a text",
                         (const char *)(p + 8));
                return -1;
            }
        }
        offset += (size_t)length + 12;
        if (memcmp(p + 4, "IEND", 4) == 0) break;
    }
    return 0;
}

int CPNGCodec_readText(const unsigned char *data, size_t size, CPNGCodec_Limits limits,
                       void (*visit)(void *context, const char *key, const char *text),
                       void *context, char *error, size_t errorSize) {
    ErrorSink sink = {error, errorSize};
    ReadSource source = {data, size, 0};
    error[0] = 0;
    if (check_chunks(data, size, 1, error, errorSize) != 0) return -1;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &sink, on_error, on_warning);
    if (png == NULL) {
        snprintf(error, errorSize, "libpng: cannot create read struct");
        return -1;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL || setjmp(png_jmpbuf(png))) {
        if (error[0] == 0) snprintf(error, errorSize, "libpng: cannot create info struct");
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        return -1;
    }
    png_set_read_fn(png, &source, on_read);
    apply_limits(png, limits);
    png_read_info(png, info);
    png_textp chunks = NULL;
    int count = png_get_text(png, info, &chunks, NULL);
    for (int i = 0; i < count; i++) visit(context, chunks[i].key, chunks[i].text);
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}

struct CPNGCodec_Reader {
    png_structp png;
    png_infop info;
    ErrorSink sink;
    ReadSource source;
    uint32_t width;
    uint32_t height;
    int sixteen;          ///< rows arrive as 16-bit big-endian RGBA and are reduced here
    int interlaced;       ///< Adam7: the whole image is decoded on the first read
    int failed;           ///< libpng's state is undefined after an error: refuse further reads
    uint32_t nextRow;
    unsigned char *row;   ///< one transformed row (16-bit or interlaced), else NULL
    unsigned char *image; ///< interlaced only: the whole image as RGBA8
};

uint8_t CPNGCodec_reduce16(uint16_t value) {
    // round(v / 257): v / 257 is never exactly k + 1/2 (that needs v = 257k + 128.5), so adding
    // 128 and truncating rounds every value to nearest. No gamma, unlike libpng's own reduction
    // through the simplified API.
    return (uint8_t)(((uint32_t)value + 128) / 257);
}

// Straight RGBA, one pixel: 8-bit copied, 16-bit (big-endian) reduced.
static inline void put_pixel(const unsigned char *in, unsigned char *out, int sixteen) {
    if (sixteen) {
        for (int c = 0; c < 4; c++) out[c] = CPNGCodec_reduce16((uint16_t)((in[2 * c] << 8) | in[2 * c + 1]));
    } else {
        memcpy(out, in, 4);
    }
}

int CPNGCodec_openReader(const unsigned char *data, size_t size, CPNGCodec_Limits limits,
                         CPNGCodec_Header *header, CPNGCodec_Reader **out, char *error, size_t errorSize) {
    *out = NULL;
    error[0] = 0;
    memset(header, 0, sizeof *header);
    if (check_chunks(data, size, 0, error, errorSize) != 0) return -1;
    CPNGCodec_Reader *reader = (CPNGCodec_Reader *)calloc(1, sizeof *reader);
    if (reader == NULL) {
        snprintf(error, errorSize, "out of memory");
        return -1;
    }
    reader->sink.message = error;
    reader->sink.size = errorSize;
    reader->source = (ReadSource){data, size, 0};
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader->sink, on_error, on_warning);
    if (reader->png == NULL) {
        snprintf(error, errorSize, "libpng: cannot create read struct");
        free(reader);
        return -1;
    }
    reader->info = png_create_info_struct(reader->png);
    if (reader->info == NULL) {
        snprintf(error, errorSize, "libpng: cannot create info struct");
        CPNGCodec_closeReader(reader);
        return -1;
    }
    if (setjmp(png_jmpbuf(reader->png))) {
        CPNGCodec_closeReader(reader);
        return -1;
    }
    png_structp png = reader->png;
    png_infop info = reader->info;
    png_set_read_fn(png, &reader->source, on_read);
    apply_limits(png, limits);
    png_read_info(png, info);
    png_uint_32 width = 0, height = 0;
    int depth = 0, colorType = 0, interlace = 0;
    png_get_IHDR(png, info, &width, &height, &depth, &colorType, &interlace, NULL, NULL);
    header->width = width;
    header->height = height;
    header->bitDepth = depth;
    header->colorType = colorType;
    header->interlaced = interlace != PNG_INTERLACE_NONE;
    // The budget is checked here, on the declared size, before a single pixel byte is allocated.
    if ((uint64_t)width * height > limits.maxPixels) {
        CPNGCodec_closeReader(reader);
        return 1;
    }
    // Explicit transforms to straight RGBA at the stored depth. Nothing here touches gamma
    // (no png_set_gamma, png_set_alpha_mode or png_set_strip_16, and not the simplified png_image
    // API, which converts through sRGB/linear when it reduces 16 bits to 8); a gAMA or sRGB chunk
    // is read and ignored, as the sample values are what the file stores.
    if (colorType == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (colorType == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    int alpha = (colorType & PNG_COLOR_MASK_ALPHA) != 0;
    if (png_get_valid(png, info, PNG_INFO_tRNS)) {
        png_set_tRNS_to_alpha(png);
        alpha = 1;
    }
    if ((colorType & PNG_COLOR_MASK_COLOR) == 0) png_set_gray_to_rgb(png);
    // 0xffff is opaque at 16 bits; libpng uses its low byte at 8.
    if (!alpha) png_set_add_alpha(png, 0xffff, PNG_FILLER_AFTER);
    // No png_set_interlace_handling: an interlaced image comes as its seven passes' own rows,
    // which read_interlaced places, so it costs the RGBA8 image and one row, not a 16-bit image.
    png_read_update_info(png, info);
    reader->width = width;
    reader->height = height;
    reader->sixteen = depth == 16;
    reader->interlaced = header->interlaced;
    size_t rowBytes = (size_t)width * (reader->sixteen ? 8 : 4);
    if (png_get_rowbytes(png, info) != rowBytes || png_get_channels(png, info) != 4) {
        png_error(png, "unexpected row layout after the RGBA transforms");
    }
    if (reader->sixteen || reader->interlaced) {
        reader->row = (unsigned char *)malloc(rowBytes);
        if (reader->row == NULL) png_error(png, "out of memory");
    }
    *out = reader;
    return 0;
}

// Decodes an Adam7 image whole into `image` (RGBA8, within the budget checked on opening), pass
// by pass, each pass row placed at its pixels' positions; the seven passes cover every pixel.
static void read_interlaced(CPNGCodec_Reader *reader, unsigned char *image) {
    png_structp png = reader->png;
    const uint32_t width = reader->width, height = reader->height;
    for (int pass = 0; pass < 7; pass++) {
        const uint32_t rows = PNG_PASS_ROWS(height, pass), columns = PNG_PASS_COLS(width, pass);
        // libpng skips a pass with no pixels, and so must we.
        if (rows == 0 || columns == 0) continue;
        for (uint32_t j = 0; j < rows; j++) {
            png_read_row(png, reader->row, NULL);
            const size_t y = PNG_PASS_START_ROW(pass) + (size_t)j * PNG_PASS_ROW_OFFSET(pass);
            unsigned char *line = image + y * width * 4;
            for (uint32_t k = 0; k < columns; k++) {
                const size_t x = PNG_PASS_START_COL(pass) + (size_t)k * PNG_PASS_COL_OFFSET(pass);
                put_pixel(reader->row + (size_t)k * (reader->sixteen ? 8 : 4), line + x * 4, reader->sixteen);
            }
        }
    }
}

int CPNGCodec_readRows(CPNGCodec_Reader *reader, unsigned char *rgba, uint32_t count, char *error, size_t errorSize) {
    reader->sink.message = error;
    reader->sink.size = errorSize;
    reader->sink.warning[0] = 0;
    error[0] = 0;
    if (reader->failed) {
        snprintf(error, errorSize, "the PNG reader already failed");
        return -1;
    }
    if (count > reader->height - reader->nextRow) {
        snprintf(error, errorSize, "asked for rows past the end of the image");
        return -1;
    }
    if (setjmp(png_jmpbuf(reader->png))) {
        reader->failed = 1;
        return -1;
    }
    const size_t stride = (size_t)reader->width * 4;
    if (reader->interlaced) {
        if (reader->nextRow == 0 && count == reader->height) {
            // The whole image at once (PNGCodec.decode): straight into the caller's buffer, so an
            // interlaced PNG costs one RGBA8 image, not two.
            read_interlaced(reader, rgba);
        } else {
            if (reader->image == NULL) {
                reader->image = (unsigned char *)malloc((size_t)reader->width * reader->height * 4);
                if (reader->image == NULL) png_error(reader->png, "out of memory");
                read_interlaced(reader, reader->image);
            }
            memcpy(rgba, reader->image + (size_t)reader->nextRow * stride, (size_t)count * stride);
        }
    } else {
        for (uint32_t i = 0; i < count; i++) {
            unsigned char *line = rgba + (size_t)i * stride;
            if (reader->sixteen) {
                png_read_row(reader->png, reader->row, NULL);
                for (uint32_t x = 0; x < reader->width; x++) put_pixel(reader->row + (size_t)x * 8, line + (size_t)x * 4, 1);
            } else {
                png_read_row(reader->png, line, NULL);
            }
        }
    }
    reader->nextRow += count;
    return 0;
}

void CPNGCodec_closeReader(CPNGCodec_Reader *reader) {
    if (reader == NULL) return;
    if (reader->png != NULL) png_destroy_read_struct(&reader->png, reader->info ? &reader->info : NULL, NULL);
    free(reader->row);
    free(reader->image);
    free(reader);
}

void CPNGCodec_free(CPNGCodec_Buffer *buffer) {
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = 0;
    buffer->capacity = 0;
}

