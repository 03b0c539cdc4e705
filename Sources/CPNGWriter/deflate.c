// One segment of rows compressed as raw DEFLATE blocks into the worker's own buffer
// (worker->deflated), by igzip or by zlib; segments.c joins them into one stream.
#include "internal.h"

#include <isa-l/igzip_lib.h>
#include <stdio.h>
#include <stdlib.h>

#define ISAL_MAX(a, b) ((a) > (b) ? (a) : (b))
#define ISAL_LEVEL_BUFFER_BYTES \
    ISAL_MAX(ISAL_MAX(ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT), ISAL_DEF_LVL3_DEFAULT)

// Compresses `input` bytes at `in` as raw DEFLATE blocks (igzip) into worker->deflated, growing
// it when needed (igzip has no bound function). The last segment ends the stream with its final
// block; any other ends in a full flush: byte-aligned, with no look-back into it from what
// follows, so its bytes depend on its own input alone.
int isalSegment(ThreadState *worker, int level, const unsigned char *in, size_t input, int last,
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
    // The room igzip is given is a function of the input alone, never of how far this worker's
    // buffer grew for an earlier segment: igzip's levels 2 and 3 end their blocks where the room
    // runs out, so room that depended on which thread encoded what before would make a segment's
    // bytes depend on the thread count (seen as a flake of PNGSequenceTests at level 2, adaptive).
    // A first guess: a segment of an animation frame compresses to well under a quarter.
    size_t allowed = input / 4 + 4096;
    if (grow(&worker->deflated, allowed) != 0) goto outOfMemory;
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
        size_t room = allowed - produced;
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
        // Out of room: more, by the same steps whatever the buffer held, and go on where it stopped.
        allowed = produced + input / 8 + 4096;
        if (grow(&worker->deflated, allowed) != 0) goto outOfMemory;
    }
    *written = produced;
    return 0;
outOfMemory:
    snprintf(error, errorSize, "ISA-L igzip: out of memory");
    return -1;
}

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
int zlibSegment(ThreadState *worker, const StreamJob *job, size_t first, size_t n, int last,
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
