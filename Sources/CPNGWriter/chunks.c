// The PNG file around the stream: CPNGWriter_encode checks its arguments, chooses the kept frame
// (kept.c), writes the signature, IHDR and tEXt chunks, has segments.c write the IDAT's zlib
// stream, and ends with IEND. The CRC-32 is libdeflate's (slice-by-8/PCLMUL), for either back
// end: one CRC implementation for every file, and not a hand-written one.
#include "internal.h"

#include <libdeflate.h>
#include <stdio.h>
#include <string.h>

void put32(unsigned char *at, uint32_t value) {
    at[0] = (unsigned char)(value >> 24);
    at[1] = (unsigned char)(value >> 16);
    at[2] = (unsigned char)(value >> 8);
    at[3] = (unsigned char)value;
}

// Writes a chunk's length and type at `at`; its data must follow (`length` bytes, already there
// or written next), then finishChunk adds the CRC over type and data. Returns the data's start.
static unsigned char *beginChunk(unsigned char *at, const char type[4], uint32_t length) {
    put32(at, length);
    memcpy(at + 4, type, 4);
    return at + 8;
}

static unsigned char *finishChunk(unsigned char *start, uint32_t length) {
    uint32_t crc = libdeflate_crc32(0, start + 4, (size_t)length + 4);
    put32(start + 8 + length, crc);
    return start + 12 + length;
}

// libpng's png_check_keyword accepts these unchanged (and rewrites anything else).
static int validKeyword(const char *key, size_t length) {
    if (length < 1 || length > 79 || key[0] == ' ' || key[length - 1] == ' ') return 0;
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)key[i];
        if (!((c >= 32 && c <= 126) || c >= 161)) return 0;
        if (c == ' ' && key[i + 1] == ' ') return 0;
    }
    return 1;
}

// ISA-L's and libdeflate's AVX2 and AVX-512 code can return with the upper halves of the
// vector registers still in use. The SSE code that runs next on this thread — the Swift CPU
// renderer drawing the next frame — then pays a merge on every instruction until something
// clears them. vzeroupper (on CPUs that have AVX) hands the thread back clean.
static void clearUpperVectorState(void) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx")) __asm__ volatile("vzeroupper" ::: "memory");
#endif
}

int CPNGWriter_encode(const unsigned char *rgba, uint32_t width, uint32_t height,
                      CPNGWriter_Backend backend, int level, CPNGWriter_Filter filter,
                      const CPNGWriter_Text *texts, int textCount, uint64_t sequence, const uint64_t *rowStamps,
                      int threads, const unsigned char **png, size_t *size, uint32_t *reusedRows, char *error, size_t errorSize) {
    static const unsigned char signature[8] = {137, 'P', 'N', 'G', '\r', '\n', 26, '\n'};
    error[0] = 0;
    *png = NULL;
    *size = 0;
    uint32_t reusedSink = 0;
    if (reusedRows == NULL) reusedRows = &reusedSink;
    *reusedRows = 0;
    if (width == 0 || height == 0 || width > 0x7FFFFFFFu || height > 0x7FFFFFFFu) {
        snprintf(error, errorSize, "PNG writer: a side of %u×%u px is outside 1…2147483647", width, height);
        return -1;
    }
    const size_t stride = (size_t)width * BPP;
    const size_t filteredBytes = (stride + 1) * (size_t)height;
    // One IDAT holds at most 2³¹ − 1 bytes; an image this size is far past every pixel budget.
    if ((stride + 1) > ((size_t)1 << 31) / height) {
        snprintf(error, errorSize, "PNG writer: %u×%u px is over the 2 GiB one IDAT can hold", width, height);
        return -1;
    }
    if (backend == CPNGWriter_libdeflate ? (level < 0 || level > 12)
        : backend == CPNGWriter_isal ? (level < 0 || level > 3)
        : backend == CPNGWriter_zlib ? (level < 0 || level > 9) : 1) {
        snprintf(error, errorSize, "PNG writer: level %d is not valid for back end %d", level, (int)backend);
        return -1;
    }
    if (filter < CPNGWriter_none || filter > CPNGWriter_adaptive) {
        snprintf(error, errorSize, "PNG writer: unknown row filter %d", (int)filter);
        return -1;
    }
    size_t textBytes = 0;
    for (int i = 0; i < textCount; i++) {
        size_t keyLength = strlen(texts[i].key);
        if (!validKeyword(texts[i].key, keyLength)) {
            snprintf(error, errorSize, "PNG writer: invalid tEXt keyword '%.79s' (1–79 printable Latin-1 bytes, "
                     "no leading, trailing or doubled space)", texts[i].key);
            return -1;
        }
        size_t chunkLength = keyLength + 1 + strlen(texts[i].text);
        if (chunkLength > 0x7FFFFFFFu) {
            snprintf(error, errorSize, "PNG writer: tEXt '%s' is over 2 GiB", texts[i].key);
            return -1;
        }
        textBytes += 12 + chunkLength;
    }

    ThreadState *state = threadState();
    if (state == NULL) {
        snprintf(error, errorSize, "PNG writer: cannot make this thread's encoder state");
        return -1;
    }
    // A kept frame is of use only in the same sequence, with the same settings. This frame
    // becomes the kept frame of its key only when it is in a sequence; the kept frame it updates
    // holds no frame until it succeeds (a failure midway would leave rows of two frames there).
    // A frame in no sequence leaves every kept frame as it was.
    const EncodeKey key = {.sequence = sequence, .width = width, .height = height, .backend = (int)backend,
                           .level = level, .filter = (int)filter};
    const int keep = sequence != 0 && filteredBytes <= REUSE_MAX_BYTES;
    KeptFrame *kept = keep ? keptFrameFor(state, &key, filteredBytes) : NULL;
    const int reuse = kept != NULL && kept->key.sequence != 0;
    if (kept != NULL) kept->key = (EncodeKey){0};
    if (prepareFilters(state, stride, filter) != 0) goto outOfMemory;
    // The stream's segments filter their rows into it, or with `reuse` bring the kept frame's
    // rows there up to this frame's. zlib needs none for a frame it does not keep: its segments
    // filter their rows piece by piece as they compress them (a 16384 px sheet page is 1 GiB).
    Scratch *image = kept != NULL ? &kept->filtered : backend == CPNGWriter_zlib ? NULL : &state->filtered;
    if (image != NULL && !reuse && reserve(image, filteredBytes) != 0) goto outOfMemory;
    if (kept != NULL && !reuse) {
        if (reserve(&kept->stamps, (size_t)height * sizeof(uint64_t)) != 0) goto outOfMemory;
        uint64_t *keptStamps = (uint64_t *)kept->stamps.data;
        for (uint32_t y = 0; y < height; y++) keptStamps[y] = rowStamps != NULL ? rowStamps[y] : 0;
    }

    const size_t head = 8 + 25 + textBytes + 8; // signature, IHDR, tEXt…, IDAT's length and type
    const size_t tail = 4 + 12;                  // IDAT's CRC, IEND
    size_t deflateRoom;
    if (backend == CPNGWriter_libdeflate) {
        if (state->deflaters[level] == NULL) state->deflaters[level] = libdeflate_alloc_compressor(level);
        if (state->deflaters[level] == NULL) goto outOfMemory;
        deflateRoom = libdeflate_zlib_compress_bound(state->deflaters[level], filteredBytes);
    } else {
        // A first guess for the segments, which writeStream copies in growing the buffer if short.
        deflateRoom = filteredBytes / 8 + 1024;
    }
    if (reserve(&state->png, head + deflateRoom + tail) != 0) goto outOfMemory;

    unsigned char *at = state->png.data;
    memcpy(at, signature, 8);
    at += 8;
    unsigned char *chunk = at;
    unsigned char *data = beginChunk(chunk, "IHDR", 13);
    put32(data, width);
    put32(data + 4, height);
    data[8] = 8;  // bit depth
    data[9] = 6;  // colour type: RGBA
    data[10] = 0; // compression: DEFLATE
    data[11] = 0; // filter method 0 (the five filters)
    data[12] = 0; // not interlaced
    at = finishChunk(chunk, 13);
    for (int i = 0; i < textCount; i++) {
        size_t keyLength = strlen(texts[i].key), textLength = strlen(texts[i].text);
        uint32_t length = (uint32_t)(keyLength + 1 + textLength);
        chunk = at;
        data = beginChunk(chunk, "tEXt", length);
        memcpy(data, texts[i].key, keyLength);
        data[keyLength] = 0;
        memcpy(data + keyLength + 1, texts[i].text, textLength);
        at = finishChunk(chunk, length);
    }
    const size_t idatOffset = (size_t)(at - state->png.data);
    size_t compressed = 0;
    if (writeStream(state, backend, level, rgba, rowStamps, filter, image != NULL ? image->data : NULL, reuse ? kept : NULL,
                    kept != NULL ? (uint64_t *)kept->stamps.data : NULL, stride, height, threads, idatOffset + 8, tail,
                    &compressed, reusedRows, error, errorSize) != 0) {
        return -1;
    }
    if (compressed > 0x7FFFFFFFu) {
        snprintf(error, errorSize, "PNG writer: the compressed image is over the 2 GiB one IDAT can hold");
        return -1;
    }
    // The buffer may have moved while growing: address the IDAT afresh.
    chunk = state->png.data + idatOffset;
    beginChunk(chunk, "IDAT", (uint32_t)compressed);
    at = finishChunk(chunk, (uint32_t)compressed);
    chunk = at;
    beginChunk(chunk, "IEND", 0);
    at = finishChunk(chunk, 0);
    *png = state->png.data;
    *size = (size_t)(at - state->png.data);
    if (kept != NULL) {
        // This frame becomes its key's kept frame: its file and segments swap with the kept
        // ones, which a later frame writes into. *png stays valid until this thread's next call,
        // as promised: no call writes into a kept frame's file.
        swapScratch(&state->png, &kept->png);
        swapScratch(&state->segments, &kept->segments);
        kept->key = key;
        kept->lastUse = ++state->frames;
    }
    clearUpperVectorState();
    return 0;
outOfMemory:
    snprintf(error, errorSize, "PNG writer: out of memory for a %u×%u px frame", width, height);
    return -1;
}
