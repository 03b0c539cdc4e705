#ifndef CPNGWRITER_INTERNAL_H
#define CPNGWRITER_INTERNAL_H
// What the writer's files share, private to this target (not in include/): the per-thread state
// and its buffers (state.c), the frames kept for a sequence (kept.c), the row filters (filters.c),
// the stream of segments (segments.c) and each segment's compression (deflate.c), the worker
// pool (pool.c); chunks.c writes the file around them (CPNGWriter_encode).
#include "CPNGWriter.h"

#include <zlib.h>

// Hidden: the writer's own names stay out of the program's dynamic symbol table, where a shared
// library's same-named symbol could bind to them.
#pragma GCC visibility push(hidden)

struct libdeflate_compressor;
struct isal_zstream;

/// A buffer a thread keeps from frame to frame (reserve, grow).
typedef struct Scratch {
    unsigned char *data;
    size_t capacity;
} Scratch;

#define LIBDEFLATE_LEVELS 13 // 0 … 12
#define ZLIB_LEVELS 10       // 0 … 9

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

/// One thread's compressors and buffers (state.c), made on its first frame and freed when it
/// ends, so that a batch's encode threads each allocate them once and never per frame.
typedef struct ThreadState {
    struct libdeflate_compressor *deflaters[LIBDEFLATE_LEVELS]; ///< made on first use of a level
    struct isal_zstream *isalStream;  ///< about 300 KiB of history and hash tables: on the heap
    unsigned char *isalLevelBuffer;   ///< ISAL_LEVEL_BUFFER_BYTES (deflate.c), shared by levels 1–3
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

// A thread keeps frames only up to this size of filtered images in all: one frame of 4096 px
// (64.0 MiB filtered), or two of 2048 px.
#define REUSE_MAX_BYTES ((size_t)72 << 20)

enum { BPP = 4 }; // 8-bit RGBA: bytes per pixel

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

// --- state.c: the calling thread's state, and its buffers.

/// This thread's state, made on its first call and freed when it ends; NULL when it cannot be made.
ThreadState *threadState(void);
/// Grows a buffer to `need` bytes, its contents not kept; 0 or −1 (out of memory).
int reserve(Scratch *scratch, size_t need);
/// Grows a buffer to at least `need` bytes, keeping its contents; 0 or −1 (out of memory).
int grow(Scratch *buffer, size_t need);
/// Frees a buffer and empties it.
void releaseScratch(Scratch *scratch);
/// Exchanges two buffers.
void swapScratch(Scratch *a, Scratch *b);

// --- kept.c: frames kept for a sequence.

/// Frees a kept frame's buffers; it then holds no frame.
void dropKept(KeptFrame *kept);
/// The kept frame for `key`, emptied unless it holds that key's frame, the others dropped as the
/// byte budget asks.
KeptFrame *keptFrameFor(ThreadState *state, const EncodeKey *key, size_t filteredBytes);
/// Brings rows [first, first + n) of a kept frame's filtered image up to this frame's; whether any
/// changed.
int refreshRows(ThreadState *state, const unsigned char *rgba, const uint64_t *rowStamps, size_t stride,
                size_t first, size_t n, CPNGWriter_Filter filter, unsigned char *kept, uint64_t *keptStamps);

// --- filters.c: row filters.

/// Makes room for filtering rows `stride` bytes wide with `filter`; 0 or −1 (out of memory).
int prepareFilters(ThreadState *state, size_t stride, CPNGWriter_Filter filter);
/// Writes row `y`'s filter-type byte and filtered bytes at `out`.
void filterImageRow(ThreadState *state, const unsigned char *rgba, size_t stride, uint32_t y,
                    CPNGWriter_Filter filter, unsigned char *out);

// --- chunks.c: the container.

/// Writes `value` big-endian, as PNG's lengths, CRCs and Adler-32 are.
void put32(unsigned char *at, uint32_t value);

// --- deflate.c: one segment's raw DEFLATE blocks, into worker->deflated.

/// igzip: `input` bytes at `in`; the last segment ends the stream, any other a full flush.
int isalSegment(ThreadState *worker, int level, const unsigned char *in, size_t input, int last,
                size_t *written, char *error, size_t errorSize);
/// zlib: rows [first, first + n) of the job's image (filtered here when it has none), with their
/// Adler-32; the last segment ends the stream, any other a sync flush.
int zlibSegment(ThreadState *worker, const StreamJob *job, size_t first, size_t n, int last,
                size_t *written, uint32_t *adlerOut, char *error, size_t errorSize);

// --- segments.c: the zlib stream of the filtered image.

/// Writes the IDAT's zlib stream at state->png + `start`, in segments, taking a kept frame's
/// unchanged ones (`from`); `*written` its bytes.
int writeStream(ThreadState *state, CPNGWriter_Backend backend, int level, const unsigned char *rgba,
                const uint64_t *rowStamps, CPNGWriter_Filter filter, unsigned char *image, KeptFrame *from,
                uint64_t *keptStamps, size_t stride, uint32_t height, int threads, size_t start, size_t tail,
                size_t *written, uint32_t *reusedRows, char *error, size_t errorSize);

// --- pool.c: the threads one frame's segments are shared among.

typedef void (*TaskFunction)(void *context, size_t index, ThreadState *worker);
/// Runs `run(context, i, worker)` for every i below `count` on at most `threads` threads, this one
/// (`caller`) among them, and returns when all have run.
void runTasks(TaskFunction run, void *context, size_t count, int threads, ThreadState *caller);

#pragma GCC visibility pop

#endif
