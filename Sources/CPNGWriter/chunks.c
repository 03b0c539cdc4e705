#include "CPNGWriter.h"

#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <zlib.h>
#include <pthread.h>
#include <signal.h>
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
#define ZLIB_LEVELS 10       // 0 … 9
#define ISAL_MAX(a, b) ((a) > (b) ? (a) : (b))
#define ISAL_LEVEL_BUFFER_BYTES \
    ISAL_MAX(ISAL_MAX(ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT), ISAL_DEF_LVL3_DEFAULT)

/// One stretch of rows of the filtered image and where its DEFLATE bytes lie in a PNG buffer.
typedef struct Segment {
    size_t offset;  ///< of its first compressed byte in the buffer that holds it
    size_t length;  ///< compressed bytes
    uint32_t adler; ///< Adler-32 of its filtered bytes alone
} Segment;

/// What a frame was encoded with: a later frame may take its segments only when all of it matches.
typedef struct EncodeKey {
    uint64_t sequence;
    uint32_t width, height;
    int backend, level, filter;
} EncodeKey;

/// A frame this thread encoded in a sequence, kept so that a later frame with the same key may
/// take its segments.
typedef struct KeptFrame {
    EncodeKey key;     ///< sequence 0 (calloc'd, or dropped): holds no frame
    uint64_t lastUse;  ///< the thread's frame count when it was kept, to choose which to drop
    Scratch filtered;  ///< its filtered image: the next frame with its key updates it row by row
    Scratch png;       ///< its file (the buffer the caller was handed, free to read from its next call)
    Scratch segments;  ///< where each of its segments' bytes lie in `png`
    Scratch stamps;    ///< per row, the row stamp its filtered row was made from (0: none)
} KeptFrame;

// Frames kept per thread: one per encoder setting of a clip written twice (two PNG outputs with
// different encoders encode each frame twice on one thread, alternating), at most REUSE_MAX_BYTES
// of filtered images in all.
#define KEPT_FRAMES 2

typedef struct ThreadState {
    struct libdeflate_compressor *deflaters[LIBDEFLATE_LEVELS]; ///< made on first use of a level
    struct isal_zstream *isalStream;  ///< about 300 KiB of history and hash tables: on the heap
    unsigned char *isalLevelBuffer;   ///< ISAL_LEVEL_BUFFER_BYTES, shared by levels 1–3
    z_stream *zlibStreams[ZLIB_LEVELS]; ///< raw-deflate zlib streams, one per level, made on first use
    Scratch filtered;   ///< the filtered image of a frame in no sequence
    Scratch candidates; ///< adaptive filtering: one trial row per filter
    Scratch zeroRow;    ///< the row "above" the first row
    Scratch row;        ///< one filtered row, compared with a kept frame's
    Scratch png;        ///< the file being written, handed to the caller
    Scratch segments;   ///< this frame's Segments, into `png`
    Scratch fresh;      ///< per segment of this frame: compressed anew (1) or taken (0)
    Scratch *outputs;   ///< per segment of this frame: its compressed bytes, when fresh
    size_t outputCount; ///< outputs' length
    Scratch deflated;   ///< a segment this thread compressed, for any caller's frame
    Scratch piece;      ///< rows this thread filtered for zlib, for a frame with no filtered image
    // The frames this thread encoded before in sequences (CPNGWriter_encode's `sequence`). A
    // kept frame's `png` and `segments` swap with the ones above after each frame of its key.
    KeptFrame kept[KEPT_FRAMES];
    uint64_t frames;    ///< frames kept so far
} ThreadState;

static pthread_key_t stateKey;
static pthread_once_t stateOnce = PTHREAD_ONCE_INIT;
static int stateKeyStatus = -1;

static void releaseScratch(Scratch *scratch) {
    free(scratch->data);
    *scratch = (Scratch){0};
}

static void dropKept(KeptFrame *kept) {
    releaseScratch(&kept->filtered);
    releaseScratch(&kept->png);
    releaseScratch(&kept->segments);
    releaseScratch(&kept->stamps);
    kept->key = (EncodeKey){0};
}

static void freeState(void *pointer) {
    ThreadState *state = (ThreadState *)pointer;
    if (state == NULL) return;
    for (int level = 0; level < LIBDEFLATE_LEVELS; level++) libdeflate_free_compressor(state->deflaters[level]);
    free(state->isalStream);
    free(state->isalLevelBuffer);
    for (int level = 0; level < ZLIB_LEVELS; level++) {
        if (state->zlibStreams[level] != NULL) deflateEnd(state->zlibStreams[level]);
        free(state->zlibStreams[level]);
    }
    free(state->filtered.data);
    free(state->candidates.data);
    free(state->zeroRow.data);
    free(state->row.data);
    free(state->png.data);
    free(state->segments.data);
    free(state->fresh.data);
    for (size_t i = 0; i < state->outputCount; i++) free(state->outputs[i].data);
    free(state->outputs);
    free(state->deflated.data);
    free(state->piece.data);
    for (int i = 0; i < KEPT_FRAMES; i++) dropKept(&state->kept[i]);
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

// Makes room for filtering rows `stride` bytes wide with `filter`.
static int prepareFilters(ThreadState *state, size_t stride, CPNGWriter_Filter filter) {
    if (reserve(&state->zeroRow, stride) != 0 || reserve(&state->row, stride + 1) != 0) return -1;
    memset(state->zeroRow.data, 0, stride);
    if (filter == CPNGWriter_adaptive && reserve(&state->candidates, stride * 5) != 0) return -1;
    return 0;
}

// Writes row `y`'s filter-type byte and filtered bytes at `out` (prepareFilters first).
static void filterImageRow(ThreadState *state, const unsigned char *rgba, size_t stride, uint32_t y,
                           CPNGWriter_Filter filter, unsigned char *out) {
    const unsigned char *row = rgba + stride * y;
    const unsigned char *above = y > 0 ? row - stride : state->zeroRow.data;
    if (filter != CPNGWriter_adaptive) {
        out[0] = (unsigned char)filter;
        filterRow(filter, row, above, stride, out + 1);
        return;
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

// Brings rows [first, first + n) of `kept`, the filtered image of an earlier frame with the same
// key, up to this frame's, rewriting only the rows that differ. Returns whether any did. A row
// with no filter is its type byte and the row itself, so it is compared where it lies, with no
// copy; any other is filtered into state->row first. The unchanged rows of an animation are most
// of a frame: they cost a comparison, not a filter pass and a comparison.
//
// With `rowStamps` (CPNGWriter_encode's), a row whose stamp equals the one the kept row was made
// from is the same row: with no filter or `sub`, whose filtered row depends on its own bytes
// alone, it is taken as unchanged without a comparison. Either way the kept row's stamp becomes
// this row's (0 without stamps).
static int refreshRows(ThreadState *state, const unsigned char *rgba, const uint64_t *rowStamps, size_t stride,
                       size_t first, size_t n, CPNGWriter_Filter filter, unsigned char *kept, uint64_t *keptStamps) {
    int changed = 0;
    const int rowAlone = filter == CPNGWriter_none || filter == CPNGWriter_sub;
    for (size_t y = first; y < first + n; y++) {
        unsigned char *keptRow = kept + (stride + 1) * y;
        const uint64_t stamp = rowStamps != NULL ? rowStamps[y] : 0;
        if (rowAlone && stamp != 0 && stamp == keptStamps[y]) continue;
        keptStamps[y] = stamp;
        if (filter == CPNGWriter_none) {
            const unsigned char *row = rgba + stride * y;
            if (memcmp(keptRow + 1, row, stride) != 0) {
                memcpy(keptRow + 1, row, stride); // its type byte is already 0: the same key
                changed = 1;
            }
        } else {
            filterImageRow(state, rgba, stride, (uint32_t)y, filter, state->row.data);
            if (memcmp(keptRow, state->row.data, stride + 1) != 0) {
                memcpy(keptRow, state->row.data, stride + 1);
                changed = 1;
            }
        }
    }
    return changed;
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
// Buffers that grow, and the compression of one segment of rows into a buffer of its own.

// Grows `buffer` to hold at least `need` bytes, keeping its contents.
static int grow(Scratch *buffer, size_t need) {
    if (need <= buffer->capacity) return 0;
    size_t capacity = buffer->capacity * 2 > need ? buffer->capacity * 2 : need;
    unsigned char *grown = (unsigned char *)realloc(buffer->data, capacity);
    if (grown == NULL) return -1;
    buffer->data = grown;
    buffer->capacity = capacity;
    return 0;
}

// Compresses `input` bytes at `in` as raw DEFLATE blocks (igzip) into worker->deflated, growing
// it when needed (igzip has no bound function). The last segment ends the stream with its final
// block; any other ends in a full flush: byte-aligned, with no look-back into it from what
// follows, so its bytes depend on its own input alone.
static int isalSegment(ThreadState *worker, int level, const unsigned char *in, size_t input, int last,
                       size_t *written, char *error, size_t errorSize) {
    if (worker->isalStream == NULL) {
        worker->isalStream = (struct isal_zstream *)malloc(sizeof(struct isal_zstream));
        if (worker->isalStream == NULL) goto outOfMemory;
    }
    if (level > 0 && worker->isalLevelBuffer == NULL) {
        worker->isalLevelBuffer = (unsigned char *)malloc(ISAL_LEVEL_BUFFER_BYTES);
        if (worker->isalLevelBuffer == NULL) goto outOfMemory;
    }
    static const uint32_t levelBufferBytes[4] = {
        ISAL_DEF_LVL0_DEFAULT, ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT, ISAL_DEF_LVL3_DEFAULT,
    };
    // A first guess: a segment of an animation frame compresses to well under a quarter.
    if (grow(&worker->deflated, input / 4 + 4096) != 0) goto outOfMemory;
    // isal_deflate_init resets the stream in place (no allocation); the level buffer is ours.
    struct isal_zstream *stream = worker->isalStream;
    isal_deflate_init(stream);
    stream->level = (uint32_t)level;
    stream->level_buf = level > 0 ? worker->isalLevelBuffer : NULL;
    stream->level_buf_size = levelBufferBytes[level];
    stream->gzip_flag = IGZIP_DEFLATE;
    stream->flush = last ? NO_FLUSH : FULL_FLUSH;
    stream->end_of_stream = last ? 1 : 0;
    stream->next_in = (uint8_t *)in;
    stream->avail_in = (uint32_t)input; // CPNGWriter_encode keeps the image under 2 GiB
    size_t produced = 0;
    for (;;) {
        size_t room = worker->deflated.capacity - produced;
        stream->next_out = worker->deflated.data + produced;
        stream->avail_out = room > UINT32_MAX ? UINT32_MAX : (uint32_t)room;
        const uint32_t before = stream->avail_out;
        int status = isal_deflate(stream);
        if (status != COMP_OK) {
            snprintf(error, errorSize, "ISA-L igzip: isal_deflate failed (status %d, level %d)", status, level);
            return -1;
        }
        produced += before - stream->avail_out;
        // igzip.h: a flush is complete once the state is back at a new block's header.
        const enum isal_zstate_state at = stream->internal_state.state;
        if (last ? at == ZSTATE_END : (stream->avail_in == 0 && at == ZSTATE_NEW_HDR)) break;
        // Out of room: grow and go on where it stopped.
        if (grow(&worker->deflated, produced + input / 8 + 4096) != 0) goto outOfMemory;
    }
    *written = produced;
    return 0;
outOfMemory:
    snprintf(error, errorSize, "ISA-L igzip: out of memory");
    return -1;
}

// ---------------------------------------------------------------------------------------------
// The threads one frame's segments are shared among. A caller that allows more than one thread
// (CPNGWriter_encode's `threads`) posts its segments as a job and works on them itself; workers,
// made on first need and kept for the process's life, each with its own ThreadState, take
// segments of any posted job that has room for another thread. pigz and mtpng share a stream
// among threads the same way: segments that depend on their own input alone.

typedef void (*TaskFunction)(void *context, size_t index, ThreadState *worker);

typedef struct PoolJob {
    TaskFunction run;
    void *context;
    size_t count, next, done; ///< tasks; the next one to hand out; the ones finished
    int active, limit;        ///< threads at work on it (the caller among them), and at most
    struct PoolJob *later;    ///< the job posted after it
} PoolJob;

// At most this many workers: a frame's segments are at most MAX_SEGMENTS.
#define MAX_WORKERS 63

static struct {
    pthread_mutex_t lock;
    pthread_cond_t posted, finished;
    PoolJob *jobs;
    int workers;
} pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, 0};

// Runs tasks of `job` until none is left to hand out; the pool's lock is held on entry and exit.
static void workOn(PoolJob *job, ThreadState *worker) {
    while (job->next < job->count) {
        const size_t index = job->next++;
        pthread_mutex_unlock(&pool.lock);
        job->run(job->context, index, worker);
        pthread_mutex_lock(&pool.lock);
        job->done++;
    }
}

static void *poolWorker(void *unused) {
    (void)unused;
    ThreadState *worker = threadState(); // NULL: its tasks report that they could not run
    pthread_mutex_lock(&pool.lock);
    for (;;) {
        PoolJob *job = pool.jobs;
        while (job != NULL && !(job->next < job->count && job->active < job->limit)) job = job->later;
        if (job == NULL) {
            pthread_cond_wait(&pool.posted, &pool.lock);
            continue;
        }
        job->active++;
        workOn(job, worker);
        job->active--;
        // Still under the lock: the caller cannot see the job done and drop it before this.
        if (job->done == job->count) pthread_cond_broadcast(&pool.finished);
    }
    return NULL;
}

// Makes workers until there are `wanted` (under the pool's lock). Workers block every signal:
// signals are for the threads the program made. A worker that cannot be made is not an error:
// the job's tasks are run by the threads there are.
static void hireWorkers(int wanted) {
    if (wanted > MAX_WORKERS) wanted = MAX_WORKERS;
    if (pool.workers >= wanted) return;
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    while (pool.workers < wanted) {
        pthread_t thread;
        if (pthread_create(&thread, &attributes, poolWorker, NULL) != 0) break;
        pool.workers++;
    }
    pthread_attr_destroy(&attributes);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
}

// Runs `run(context, i, worker)` for every i below `count`, on at most `threads` threads at once,
// this one among them (`caller` is its state), and returns when all have run.
static void runTasks(TaskFunction run, void *context, size_t count, int threads, ThreadState *caller) {
    if (threads <= 1 || count <= 1) {
        for (size_t i = 0; i < count; i++) run(context, i, caller);
        return;
    }
    PoolJob job = {.run = run, .context = context, .count = count, .active = 1,
                   .limit = threads < (int)count ? threads : (int)count};
    pthread_mutex_lock(&pool.lock);
    hireWorkers(job.limit - 1);
    PoolJob **end = &pool.jobs;
    while (*end != NULL) end = &(*end)->later;
    *end = &job;
    pthread_cond_broadcast(&pool.posted);
    workOn(&job, caller);
    job.active--;
    while (job.done < job.count) pthread_cond_wait(&pool.finished, &pool.lock);
    for (PoolJob **at = &pool.jobs; *at != NULL; at = &(*at)->later) {
        if (*at == &job) {
            *at = job.later;
            break;
        }
    }
    pthread_mutex_unlock(&pool.lock);
}

// ---------------------------------------------------------------------------------------------
// The zlib stream (RFC 1950) of the filtered image, in segments of rows.
//
// igzip and zlib compress each segment of rows on its own (isalSegment, zlibSegment), and the
// stream is a 2-byte header, the segments' blocks and the Adler-32 of the whole, combined from
// the segments' own. A segment depends on its own rows alone, so the segments of one frame are
// filtered and compressed on as many threads as the caller allows (runTasks), and a segment
// whose filtered bytes equal the same segment of the frame this thread kept for the same
// sequence and settings (KeptFrame) takes that frame's compressed bytes as they are: compressed
// again they would come out the same. An animation changes a few rows a frame (a wave ball's
// waves); the rest is copied, not compressed.
// libdeflate compresses a whole buffer in one call with no flush: its stream is one segment,
// on one thread, taken as a whole when the whole image is unchanged.

// A segment is at least SEGMENT_BYTES of filtered rows (igzip) or ZLIB_SEGMENT_BYTES (zlib), and
// a frame has at most MAX_SEGMENTS: an image over 8 MiB (6 MiB with zlib) has segments of 1/64 of
// it. Small segments lose ratio to their fresh starts (zlib 9 on the README's 3840 px activity
// sheet: 128 KiB segments 8.6 % larger than 1/64ths); large ones take less of a sequence's
// unchanged rows, since a segment a wave crosses is compressed whole. zlib's are 3/4 of igzip's:
// 300 wave-ball frames of 1024 px at zlib 4 came to 0.38–0.41 s and 21,769,248 bytes in 128 KiB
// segments, 0.35 s and 21,951,682 in 96 KiB, 0.34 s and 22,357,996 in 64 KiB (render --frames
// 300 to tmpfs, alternated; libdeflate 1 whole wrote 22,145,974). 64 keep every core of a big
// machine at work on one frame.
enum { SEGMENT_BYTES = 128 << 10, ZLIB_SEGMENT_BYTES = 96 << 10, MAX_SEGMENTS = 64 };
// A thread keeps frames only up to this size of filtered images in all: one frame of 4096 px
// (64.0 MiB filtered), or two of 2048 px.
#define REUSE_MAX_BYTES ((size_t)72 << 20)

// igzip's level 0 pays more for a segment's fresh start (PNGEncoderTests: wave-ball at 256 px in
// two segments wrote 66,450 bytes against libpng's 64,750 at its defaults: 2.6 % more), so it keeps
// one; at levels 1–3 a 512 px wave ball in 8 segments is within 0.2 % of one stream.
static size_t segmentRows(CPNGWriter_Backend backend, int level, size_t filteredRow, uint32_t height) {
    if (backend == CPNGWriter_libdeflate || (backend == CPNGWriter_isal && level == 0)) return height;
    const size_t total = filteredRow * height;
    const size_t least = backend == CPNGWriter_zlib ? ZLIB_SEGMENT_BYTES : SEGMENT_BYTES;
    const size_t bytes = total > least * MAX_SEGMENTS ? (total + MAX_SEGMENTS - 1) / MAX_SEGMENTS : least;
    size_t rows = (bytes + filteredRow - 1) / filteredRow;
    return rows < height ? rows : height;
}

static void swapScratch(Scratch *a, Scratch *b) {
    Scratch kept = *a;
    *a = *b;
    *b = kept;
}

static int sameKey(const EncodeKey *a, const EncodeKey *b) {
    return a->sequence == b->sequence && a->width == b->width && a->height == b->height && a->backend == b->backend
        && a->level == b->level && a->filter == b->filter;
}

// The kept frame for `key`: the one that holds its frame, or else the one held least recently,
// emptied, with frames of other keys dropped until all fit in REUSE_MAX_BYTES with this one.
static KeptFrame *keptFrameFor(ThreadState *state, const EncodeKey *key, size_t filteredBytes) {
    KeptFrame *chosen = &state->kept[0];
    for (int i = 0; i < KEPT_FRAMES; i++) {
        if (state->kept[i].key.sequence != 0 && sameKey(key, &state->kept[i].key)) return &state->kept[i];
        if (state->kept[i].lastUse < chosen->lastUse) chosen = &state->kept[i];
    }
    chosen->key = (EncodeKey){0};
    size_t held = filteredBytes;
    for (int i = 0; i < KEPT_FRAMES; i++) {
        KeptFrame *other = &state->kept[i];
        if (other == chosen) continue;
        if (held + other->filtered.capacity > REUSE_MAX_BYTES) dropKept(other);
        else held += other->filtered.capacity;
    }
    return chosen;
}

// One frame's segments as tasks (runTasks): each filters its rows into `image` (or, with
// `refresh`, brings the kept frame's rows there up to this frame's, refreshRows) and, unless none
// changed, compresses them into outputs[s].
typedef struct StreamJob {
    CPNGWriter_Backend backend;
    int level;
    CPNGWriter_Filter filter;
    const unsigned char *rgba;
    const uint64_t *rowStamps;
    uint64_t *keptStamps;
    size_t stride, rows;
    uint32_t height;
    unsigned char *image;
    int refresh;
    Scratch *outputs;     ///< per segment: its compressed bytes when fresh
    Segment *segments;    ///< per segment: its length and Adler-32 when fresh
    unsigned char *fresh; ///< per segment: 1 compressed anew, 0 the kept frame's bytes taken
    int failed;
    char error[256];
} StreamJob;

// zlib is handed a segment's rows in pieces of at most ZLIB_PIECE_BYTES (whole rows, at least
// one), the same pieces whether they come from the filtered image or are filtered here one piece
// at a time into the worker's own buffer (a frame no sequence keeps: a sheet page, a preview, a
// frame past the kept frames' budget), which then needs no filtered copy of the image at all.
// zlib's levels 1–9 write the same bytes however their input is handed over; level 0's stored
// blocks follow the pieces, which are fixed by the image's width, so its bytes are fixed too.
enum { ZLIB_PIECE_BYTES = 64 << 10 };

// Compresses rows [first, first + n) of the job's filtered image with zlib at the job's level
// into worker->deflated as raw DEFLATE blocks, as isalSegment does: the stream is reset first (no
// look-back into what came before), the last segment ends in the final block, any other in a
// sync flush (byte-aligned). Without a filtered image (job->image NULL) the rows are filtered
// here piece by piece. The buffer holds deflateBound's bytes first, so every call finishes: a
// flush split over calls could end in a second empty block, and the bytes would depend on the
// buffer's history. `*adlerOut` is the Adler-32 of the segment's filtered bytes.
static int zlibSegment(ThreadState *worker, const StreamJob *job, size_t first, size_t n, int last,
                       size_t *written, uint32_t *adlerOut, char *error, size_t errorSize) {
    const int level = job->level;
    z_stream *stream = worker->zlibStreams[level];
    if (stream == NULL) {
        stream = (z_stream *)calloc(1, sizeof(z_stream));
        if (stream == NULL) goto outOfMemory;
        // Raw DEFLATE (windowBits −15): the zlib framing is written around the segments.
        int status = deflateInit2(stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
        if (status != Z_OK) {
            free(stream);
            if (status == Z_MEM_ERROR) goto outOfMemory;
            snprintf(error, errorSize, "zlib: deflateInit2 failed (status %d, level %d)", status, level);
            return -1;
        }
        worker->zlibStreams[level] = stream;
    } else if (deflateReset(stream) != Z_OK) {
        snprintf(error, errorSize, "zlib: deflateReset failed (level %d)", level);
        return -1;
    }
    const size_t filteredRow = job->stride + 1, input = n * filteredRow;
    // deflateBound covers a whole stream; a sync flush adds at most 5 bytes (an empty stored block).
    const size_t bound = (size_t)deflateBound(stream, (uLong)input) + 16;
    if (grow(&worker->deflated, bound) != 0) goto outOfMemory;
    stream->next_out = worker->deflated.data;
    stream->avail_out = (uInt)bound; // segments are far under 4 GiB
    const size_t piece = ZLIB_PIECE_BYTES / filteredRow > 0 ? ZLIB_PIECE_BYTES / filteredRow : 1;
    uint32_t adler = 1;
    for (size_t y = first; y < first + n; y += piece) {
        const size_t rows = piece < first + n - y ? piece : first + n - y, bytes = rows * filteredRow;
        const unsigned char *in;
        if (job->image != NULL) {
            in = job->image + y * filteredRow;
        } else {
            if (reserve(&worker->piece, bytes) != 0) goto outOfMemory;
            for (size_t r = 0; r < rows; r++) {
                filterImageRow(worker, job->rgba, job->stride, (uint32_t)(y + r), job->filter, worker->piece.data + r * filteredRow);
            }
            in = worker->piece.data;
        }
        adler = (uint32_t)adler32(adler, in, (uInt)bytes);
        stream->next_in = (Bytef *)in;
        stream->avail_in = (uInt)bytes;
        if (deflate(stream, Z_NO_FLUSH) != Z_OK || stream->avail_in != 0) {
            snprintf(error, errorSize, "zlib: deflate did not take a piece of rows in its bound (level %d)", level);
            return -1;
        }
    }
    int status = deflate(stream, last ? Z_FINISH : Z_SYNC_FLUSH);
    if (last ? status != Z_STREAM_END : (status != Z_OK || stream->avail_out == 0)) {
        snprintf(error, errorSize, "zlib: deflate did not finish the segment in its bound (status %d, level %d)", status, level);
        return -1;
    }
    *written = bound - stream->avail_out;
    *adlerOut = adler;
    return 0;
outOfMemory:
    snprintf(error, errorSize, "zlib: out of memory");
    return -1;
}

static void segmentTask(void *context, size_t s, ThreadState *worker) {
    StreamJob *job = (StreamJob *)context;
    char error[sizeof job->error];
    if (__atomic_load_n(&job->failed, __ATOMIC_ACQUIRE)) return;
    if (worker == NULL) {
        snprintf(error, sizeof error, "PNG writer: cannot make an encoding thread's state");
        goto fail;
    }
    const size_t filteredRow = job->stride + 1, first = s * job->rows;
    const size_t n = job->rows < job->height - first ? job->rows : job->height - first;
    const unsigned char *in = job->image != NULL ? job->image + first * filteredRow : NULL;
    if (prepareFilters(worker, job->stride, job->filter) != 0) goto outOfMemory;
    if (job->refresh) {
        if (!refreshRows(worker, job->rgba, job->rowStamps, job->stride, first, n, job->filter, job->image, job->keptStamps)) {
            job->fresh[s] = 0;
            return;
        }
    } else if (job->image != NULL) {
        for (size_t y = first; y < first + n; y++) {
            filterImageRow(worker, job->rgba, job->stride, (uint32_t)y, job->filter, job->image + filteredRow * y);
        }
    }
    const size_t bytes = n * filteredRow;
    const int last = first + n == job->height;
    size_t length = 0;
    uint32_t adler;
    if (job->backend == CPNGWriter_isal) {
        if (isalSegment(worker, job->level, in, bytes, last, &length, error, sizeof error) != 0) goto fail;
        adler = isal_adler32(1, in, bytes);
    } else {
        if (zlibSegment(worker, job, first, n, last, &length, &adler, error, sizeof error) != 0) goto fail;
    }
    Scratch *output = &job->outputs[s];
    if (reserve(output, length) != 0) goto outOfMemory;
    memcpy(output->data, worker->deflated.data, length);
    job->segments[s] = (Segment){.offset = 0, .length = length, .adler = adler};
    job->fresh[s] = 1;
    return;
outOfMemory:
    snprintf(error, sizeof error, "PNG writer: out of memory for a segment of rows");
fail:
    if (__atomic_exchange_n(&job->failed, 1, __ATOMIC_ACQ_REL) == 0) memcpy(job->error, error, sizeof error);
}

// Makes room in state for `count` segments' records, flags and output buffers.
static int reserveSegments(ThreadState *state, size_t count) {
    if (reserve(&state->segments, count * sizeof(Segment)) != 0 || reserve(&state->fresh, count) != 0) return -1;
    if (count <= state->outputCount) return 0;
    Scratch *outputs = (Scratch *)realloc(state->outputs, count * sizeof(Scratch));
    if (outputs == NULL) return -1;
    memset(outputs + state->outputCount, 0, (count - state->outputCount) * sizeof(Scratch));
    state->outputs = outputs;
    state->outputCount = count;
    return 0;
}

// Writes the zlib stream of the filtered image at state->png + `start` (room for `tail` more
// bytes kept after it) and records its segments in state->segments. `image` receives this
// frame's filtered rows; with `from` (a frame of the same key), it holds that frame's and is
// brought up to this one's segment by segment from `rgba` (refreshRows), and a segment none of
// whose rows changed takes its bytes. The segments are worked on by up to `threads` threads.
static int writeStream(ThreadState *state, CPNGWriter_Backend backend, int level, const unsigned char *rgba,
                       const uint64_t *rowStamps, CPNGWriter_Filter filter, unsigned char *image, KeptFrame *from,
                       uint64_t *keptStamps, size_t stride, uint32_t height, int threads, size_t start, size_t tail,
                       size_t *written, uint32_t *reusedRows, char *error, size_t errorSize) {
    const size_t filteredRow = stride + 1, filteredBytes = filteredRow * height;
    const size_t rows = segmentRows(backend, level, filteredRow, height), count = (height + rows - 1) / rows;
    if (reserveSegments(state, count) != 0) goto outOfMemory;
    Segment *segments = (Segment *)state->segments.data;
    const Segment *previous = from != NULL ? (const Segment *)from->segments.data : NULL;
    size_t at = start;
    if (backend == CPNGWriter_libdeflate) {
        if (from == NULL) {
            for (uint32_t y = 0; y < height; y++) filterImageRow(state, rgba, stride, y, filter, image + filteredRow * y);
        }
        if (from != NULL && !refreshRows(state, rgba, rowStamps, stride, 0, height, filter, image, keptStamps)) {
            segments[0] = previous[0];
            if (grow(&state->png, at + segments[0].length + tail) != 0) goto outOfMemory;
            memcpy(state->png.data + at, from->png.data + segments[0].offset, segments[0].length);
            *reusedRows += height;
        } else {
            // The caller made room for libdeflate_zlib_compress_bound(image) bytes.
            size_t length = libdeflate_zlib_compress(state->deflaters[level], image, filteredBytes, state->png.data + at,
                                                     state->png.capacity - at - tail);
            if (length == 0) {
                snprintf(error, errorSize, "libdeflate: the level-%d stream did not fit its own bound", level);
                return -1;
            }
            segments[0] = (Segment){.length = length};
        }
        segments[0].offset = at;
        *written = segments[0].length;
        return 0;
    }
    StreamJob job = {.backend = backend, .level = level, .filter = filter, .rgba = rgba, .rowStamps = rowStamps,
                     .keptStamps = keptStamps, .stride = stride, .rows = rows, .height = height, .image = image,
                     .refresh = from != NULL, .outputs = state->outputs, .segments = segments, .fresh = state->fresh.data};
    runTasks(segmentTask, &job, count, threads, state);
    if (job.failed) {
        snprintf(error, errorSize, "%s", job.error);
        return -1;
    }
    if (grow(&state->png, at + 2 + tail) != 0) goto outOfMemory;
    // deflate, 32 KiB window, and the level hint zlib's own header gives (igzip's IGZIP_ZLIB
    // writes 0x01; the hint is informative only): CMF·256 + FLG is a multiple of 31.
    static const unsigned char zlibFlags[ZLIB_LEVELS] = {0x01, 0x01, 0x5E, 0x5E, 0x5E, 0x5E, 0x9C, 0xDA, 0xDA, 0xDA};
    state->png.data[at] = 0x78;
    state->png.data[at + 1] = backend == CPNGWriter_zlib ? zlibFlags[level] : 0x01;
    at += 2;
    uint32_t adler = 1;
    for (size_t s = 0; s < count; s++) {
        const size_t first = s * rows, n = rows < height - first ? rows : height - first;
        const int fresh = state->fresh.data[s];
        const Segment segment = fresh ? segments[s] : previous[s];
        if (grow(&state->png, at + segment.length + 4 + tail) != 0) goto outOfMemory;
        memcpy(state->png.data + at, fresh ? state->outputs[s].data : from->png.data + segment.offset, segment.length);
        if (!fresh) *reusedRows += (uint32_t)n;
        segments[s] = segment;
        segments[s].offset = at;
        at += segment.length;
        adler = s == 0 ? segment.adler : (uint32_t)adler32_combine(adler, segment.adler, (z_off_t)(n * filteredRow));
    }
    put32(state->png.data + at, adler);
    at += 4;
    *written = at - start;
    return 0;
outOfMemory:
    snprintf(error, errorSize, "PNG writer: out of memory for the compressed image");
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
