#include "CPNGCodec.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ErrorSink {
    char *message;
    size_t size;
} ErrorSink;

// libpng calls this on a fatal error; we record the message and jump back into our own C frame.
static void on_error(png_structp png, png_const_charp message) {
    ErrorSink *sink = (ErrorSink *)png_get_error_ptr(png);
    if (sink != NULL && sink->message != NULL) {
        snprintf(sink->message, sink->size, "libpng: %s", message);
    }
    png_longjmp(png, 1);
}

// Warnings (for example an unknown chunk) are not failures.
static void on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
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

int CPNGCodec_decode(const unsigned char *data, size_t size, uint32_t *width, uint32_t *height,
                     unsigned char **rgba, char *error, size_t errorSize) {
    // The simplified API does its own setjmp and reports failure through image.message.
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    *rgba = NULL;
    if (!png_image_begin_read_from_memory(&image, data, size)) {
        snprintf(error, errorSize, "libpng: %s", image.message);
        return -1;
    }
    image.format = PNG_FORMAT_RGBA;
    unsigned char *pixels = (unsigned char *)malloc(PNG_IMAGE_SIZE(image));
    if (pixels == NULL) {
        png_image_free(&image);
        snprintf(error, errorSize, "out of memory decoding a %ux%u PNG", image.width, image.height);
        return -1;
    }
    if (!png_image_finish_read(&image, NULL, pixels, 0, NULL)) {
        snprintf(error, errorSize, "libpng: %s", image.message);
        free(pixels);
        png_image_free(&image);
        return -1;
    }
    *width = image.width;
    *height = image.height;
    *rgba = pixels;
    return 0;
}

typedef struct ReadSource {
    const unsigned char *data;
    size_t size;
    size_t offset;
} ReadSource;

static void on_read(png_structp png, png_bytep bytes, png_size_t length) {
    ReadSource *source = (ReadSource *)png_get_io_ptr(png);
    if (source->offset + length > source->size) png_error(png, "truncated PNG");
    memcpy(bytes, source->data + source->offset, length);
    source->offset += length;
}

int CPNGCodec_readText(const unsigned char *data, size_t size,
                       void (*visit)(void *context, const char *key, const char *text),
                       void *context, char *error, size_t errorSize) {
    ErrorSink sink = {error, errorSize};
    ReadSource source = {data, size, 0};
    error[0] = 0;
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
    png_read_info(png, info);
    png_textp chunks = NULL;
    int count = png_get_text(png, info, &chunks, NULL);
    for (int i = 0; i < count; i++) visit(context, chunks[i].key, chunks[i].text);
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}

void CPNGCodec_free(CPNGCodec_Buffer *buffer) {
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = 0;
    buffer->capacity = 0;
}

void CPNGCodec_freeBytes(unsigned char *bytes) { free(bytes); }
