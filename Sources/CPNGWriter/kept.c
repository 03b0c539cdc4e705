// The frames a thread keeps for a sequence (KeptFrame, internal.h): which one a frame takes, and
// how its filtered image is brought up to the next frame's, row by row.
#include "internal.h"

#include <string.h>

void dropKept(KeptFrame *kept) {
    releaseScratch(&kept->filtered);
    releaseScratch(&kept->png);
    releaseScratch(&kept->segments);
    releaseScratch(&kept->stamps);
    kept->key = (EncodeKey){0};
}

static int sameKey(const EncodeKey *a, const EncodeKey *b) {
    return a->sequence == b->sequence && a->width == b->width && a->height == b->height && a->backend == b->backend
        && a->level == b->level && a->filter == b->filter;
}

// The kept frame for `key`: the one that holds its frame, or else the one held least recently,
// emptied, with frames of other keys dropped until all fit in REUSE_MAX_BYTES with this one.
KeptFrame *keptFrameFor(ThreadState *state, const EncodeKey *key, size_t filteredBytes) {
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
int refreshRows(ThreadState *state, const unsigned char *rgba, const uint64_t *rowStamps, size_t stride,
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
