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
#include "internal.h"

#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
int writeStream(ThreadState *state, CPNGWriter_Backend backend, int level, const unsigned char *rgba,
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
