#include "CPNGWriter.h"

#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// Per-thread state, made on a thread's first frame and freed when the thread ends, so that a
// batch's encode threads each allocate their compressors once and never per frame.

typedef struct Scratch {
    unsigned char *data;
    size_t capacity;
} Scratch;

#define LIBDEFLATE_LEVELS 13 // 0 … 12
#define ISAL_MAX(a, b) ((a) > (b) ? (a) : (b))
#define ISAL_LEVEL_BUFFER_BYTES \
    ISAL_MAX(ISAL_MAX(ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT), ISAL_DEF_LVL3_DEFAULT)

typedef struct ThreadState {
    struct libdeflate_compressor *deflaters[LIBDEFLATE_LEVELS]; ///< made on first use of a level
    struct isal_zstream *isalStream;  ///< about 300 KiB of history and hash tables: on the heap
    unsigned char *isalLevelBuffer;   ///< ISAL_LEVEL_BUFFER_BYTES, shared by levels 1–3
    Scratch filtered;   ///< the filtered image: a filter-type byte and width × 4 bytes per row
    Scratch candidates; ///< adaptive filtering: one trial row per filter
    Scratch zeroRow;    ///< the row "above" the first row
    Scratch png;        ///< the file being written, handed to the caller
} ThreadState;

static pthread_key_t stateKey;
static pthread_once_t stateOnce = PTHREAD_ONCE_INIT;
static int stateKeyStatus = -1;

static void freeState(void *pointer) {
    ThreadState *state = (ThreadState *)pointer;
    if (state == NULL) return;
    for (int level = 0; level < LIBDEFLATE_LEVELS; level++) libdeflate_free_compressor(state->deflaters[level]);
    free(state->isalStream);
    free(state->isalLevelBuffer);
    free(state->filtered.data);
    free(state->candidates.data);
    free(state->zeroRow.data);
    free(state->png.data);
    free(state);
}

static void makeStateKey(void) { stateKeyStatus = pthread_key_create(&stateKey, freeState); }

static ThreadState *threadState(void) {
    pthread_once(&stateOnce, makeStateKey);
    if (stateKeyStatus != 0) return NULL;
    ThreadState *state = (ThreadState *)pthread_getspecific(stateKey);
    if (state != NULL) return state;
    state = (ThreadState *)calloc(1, sizeof(ThreadState));
    if (state == NULL) return NULL;
    if (pthread_setspecific(stateKey, state) != 0) {
        free(state);
        return NULL;
    }
    return state;
}

// Grows a buffer to `need` bytes (contents not kept). One frame far larger than the next is not
// held for the thread's whole life: a buffer over 16 MiB and four times the need is remade.
static int reserve(Scratch *scratch, size_t need) {
    if (scratch->capacity >= need && !(scratch->capacity > ((size_t)16 << 20) && scratch->capacity / 4 > need)) return 0;
    free(scratch->data);
    scratch->data = (unsigned char *)malloc(need ? need : 1);
    scratch->capacity = scratch->data ? need : 0;
    return scratch->data ? 0 : -1;
}

// ---------------------------------------------------------------------------------------------
// Row filters for 8-bit RGBA (4 bytes per pixel). `above` is the previous unfiltered row, zeros
// for the first. Each writes `stride` bytes after the filter-type byte.

enum { BPP = 4 };

static inline unsigned char paethPredictor(int a, int b, int c) {
    int p = a + b - c;
    int pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    if (pa <= pb && pa <= pc) return (unsigned char)a;
    if (pb <= pc) return (unsigned char)b;
    return (unsigned char)c;
}

static void filterRow(CPNGWriter_Filter filter, const unsigned char *row, const unsigned char *above,
                      size_t stride, unsigned char *out) {
    size_t i;
    switch (filter) {
    case CPNGWriter_sub:
        for (i = 0; i < BPP && i < stride; i++) out[i] = row[i];
        for (; i < stride; i++) out[i] = (unsigned char)(row[i] - row[i - BPP]);
        break;
    case CPNGWriter_up:
        for (i = 0; i < stride; i++) out[i] = (unsigned char)(row[i] - above[i]);
        break;
    case CPNGWriter_average:
        for (i = 0; i < BPP && i < stride; i++) out[i] = (unsigned char)(row[i] - (above[i] >> 1));
        for (; i < stride; i++) out[i] = (unsigned char)(row[i] - ((row[i - BPP] + above[i]) >> 1));
        break;
    case CPNGWriter_paeth:
        for (i = 0; i < BPP && i < stride; i++) out[i] = (unsigned char)(row[i] - above[i]);
        for (; i < stride; i++) {
            out[i] = (unsigned char)(row[i] - paethPredictor(row[i - BPP], above[i], above[i - BPP]));
        }
        break;
    default:
        memcpy(out, row, stride);
        break;
    }
}

// The specification's heuristic: the sum of the filtered bytes taken as signed values.
static uint64_t signedSum(const unsigned char *bytes, size_t count) {
    uint64_t sum = 0;
    for (size_t i = 0; i < count; i++) sum += bytes[i] < 128 ? bytes[i] : 256 - bytes[i];
    return sum;
}

static int filterImage(ThreadState *state, const unsigned char *rgba, uint32_t width, uint32_t height,
                       CPNGWriter_Filter filter) {
    const size_t stride = (size_t)width * BPP;
    if (reserve(&state->filtered, (stride + 1) * height) != 0 || reserve(&state->zeroRow, stride) != 0) return -1;
    memset(state->zeroRow.data, 0, stride);
    if (filter == CPNGWriter_adaptive && reserve(&state->candidates, stride * 5) != 0) return -1;
    for (uint32_t y = 0; y < height; y++) {
        const unsigned char *row = rgba + stride * y;
        const unsigned char *above = y > 0 ? row - stride : state->zeroRow.data;
        unsigned char *out = state->filtered.data + (stride + 1) * y;
        if (filter != CPNGWriter_adaptive) {
            out[0] = (unsigned char)filter;
            filterRow(filter, row, above, stride, out + 1);
            continue;
        }
        int best = 0;
        uint64_t bestSum = UINT64_MAX;
        for (int trial = CPNGWriter_none; trial <= CPNGWriter_paeth; trial++) {
            unsigned char *candidate = state->candidates.data + stride * (size_t)trial;
            filterRow((CPNGWriter_Filter)trial, row, above, stride, candidate);
            uint64_t sum = signedSum(candidate, stride);
            if (sum < bestSum) {
                bestSum = sum;
                best = trial;
            }
        }
        out[0] = (unsigned char)best;
        memcpy(out + 1, state->candidates.data + stride * (size_t)best, stride);
    }
    return 0;
}

// ---------------------------------------------------------------------------------------------
// Chunks. The CRC-32 is libdeflate's (slice-by-8/PCLMUL), for either back end: one CRC
// implementation for every file, and not a hand-written one.

static void put32(unsigned char *at, uint32_t value) {
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

// ---------------------------------------------------------------------------------------------
// DEFLATE back ends: each writes a zlib stream (RFC 1950) of `input` at `state->png` + `offset`,
// growing the buffer when needed, and returns its length through `written`.

// The caller made room for libdeflate_zlib_compress_bound(input) bytes, so the stream fits.
static int deflateWithLibdeflate(ThreadState *state, int level, size_t input, size_t offset, size_t tail,
                                 size_t *written, char *error, size_t errorSize) {
    *written = libdeflate_zlib_compress(state->deflaters[level], state->filtered.data, input,
                                        state->png.data + offset, state->png.capacity - offset - tail);
    if (*written == 0) {
        snprintf(error, errorSize, "libdeflate: the level-%d stream did not fit its own bound", level);
        return -1;
    }
    return 0;
}

static int growPNG(ThreadState *state, size_t need) {
    if (need <= state->png.capacity) return 0;
    size_t capacity = state->png.capacity * 2 > need ? state->png.capacity * 2 : need;
    unsigned char *grown = (unsigned char *)realloc(state->png.data, capacity);
    if (grown == NULL) return -1;
    state->png.data = grown;
    state->png.capacity = capacity;
    return 0;
}

static int deflateWithISAL(ThreadState *state, int level, size_t input, size_t offset, size_t tail, size_t *written,
                           char *error, size_t errorSize) {
    if (state->isalStream == NULL) {
        state->isalStream = (struct isal_zstream *)malloc(sizeof(struct isal_zstream));
        if (state->isalStream == NULL) goto outOfMemory;
    }
    if (level > 0 && state->isalLevelBuffer == NULL) {
        state->isalLevelBuffer = (unsigned char *)malloc(ISAL_LEVEL_BUFFER_BYTES);
        if (state->isalLevelBuffer == NULL) goto outOfMemory;
    }
    static const uint32_t levelBufferBytes[4] = {
        ISAL_DEF_LVL0_DEFAULT, ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT, ISAL_DEF_LVL3_DEFAULT,
    };
    // isal_deflate_init resets the stream in place (no allocation); the level buffer is ours.
    struct isal_zstream *stream = state->isalStream;
    isal_deflate_init(stream);
    stream->level = (uint32_t)level;
    stream->level_buf = level > 0 ? state->isalLevelBuffer : NULL;
    stream->level_buf_size = levelBufferBytes[level];
    stream->gzip_flag = IGZIP_ZLIB;
    stream->flush = NO_FLUSH;
    stream->end_of_stream = 1;
    stream->next_in = state->filtered.data;
    stream->avail_in = (uint32_t)input; // CPNGWriter_encode keeps the image under 2 GiB
    size_t produced = 0;
    for (;;) {
        size_t room = state->png.capacity - offset - tail - produced;
        stream->next_out = state->png.data + offset + produced;
        stream->avail_out = room > UINT32_MAX ? UINT32_MAX : (uint32_t)room;
        const uint32_t before = stream->avail_out;
        int status = isal_deflate(stream);
        if (status != COMP_OK) {
            snprintf(error, errorSize, "ISA-L igzip: isal_deflate failed (status %d, level %d)", status, level);
            return -1;
        }
        produced += before - stream->avail_out;
        if (stream->internal_state.state == ZSTATE_END) break;
        // Out of room (igzip has no bound function): grow and go on where it stopped.
        if (growPNG(state, offset + produced + tail + input / 8 + 4096) != 0) goto outOfMemory;
    }
    *written = produced;
    return 0;
outOfMemory:
    snprintf(error, errorSize, "ISA-L igzip: out of memory");
    return -1;
}

// ---------------------------------------------------------------------------------------------

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
                      const CPNGWriter_Text *texts, int textCount,
                      const unsigned char **png, size_t *size, char *error, size_t errorSize) {
    static const unsigned char signature[8] = {137, 'P', 'N', 'G', '\r', '\n', 26, '\n'};
    error[0] = 0;
    *png = NULL;
    *size = 0;
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
    if (backend == CPNGWriter_libdeflate ? (level < 0 || level > 12) : backend == CPNGWriter_isal ? (level < 0 || level > 3) : 1) {
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
    if (filterImage(state, rgba, width, height, filter) != 0) goto outOfMemory;

    const size_t head = 8 + 25 + textBytes + 8; // signature, IHDR, tEXt…, IDAT's length and type
    const size_t tail = 4 + 12;                  // IDAT's CRC, IEND
    size_t deflateRoom;
    if (backend == CPNGWriter_libdeflate) {
        if (state->deflaters[level] == NULL) state->deflaters[level] = libdeflate_alloc_compressor(level);
        if (state->deflaters[level] == NULL) goto outOfMemory;
        deflateRoom = libdeflate_zlib_compress_bound(state->deflaters[level], filteredBytes);
    } else {
        // A first guess for igzip, which has no bound function; deflateWithISAL grows it if short.
        // Only noise overflows it: level 0 codes incompressible bytes with its static Huffman
        // table and no stored blocks, ~23 % larger (PNGEncoderTests' random pixels take that path).
        deflateRoom = filteredBytes + filteredBytes / 64 + 1024;
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
    int status = backend == CPNGWriter_libdeflate
        ? deflateWithLibdeflate(state, level, filteredBytes, idatOffset + 8, tail, &compressed, error, errorSize)
        : deflateWithISAL(state, level, filteredBytes, idatOffset + 8, tail, &compressed, error, errorSize);
    if (status != 0) return -1;
    if (compressed > 0x7FFFFFFFu) {
        snprintf(error, errorSize, "PNG writer: the compressed image is over the 2 GiB one IDAT can hold");
        return -1;
    }
    // igzip may have moved the buffer while growing it: address the IDAT afresh.
    chunk = state->png.data + idatOffset;
    beginChunk(chunk, "IDAT", (uint32_t)compressed);
    at = finishChunk(chunk, (uint32_t)compressed);
    chunk = at;
    beginChunk(chunk, "IEND", 0);
    at = finishChunk(chunk, 0);
    *png = state->png.data;
    *size = (size_t)(at - state->png.data);
    clearUpperVectorState();
    return 0;
outOfMemory:
    snprintf(error, errorSize, "PNG writer: out of memory for a %u×%u px frame", width, height);
    return -1;
}
