// Row filters for 8-bit RGBA (4 bytes per pixel, BPP). `above` is the previous unfiltered row, zeros
// for the first. Each writes `stride` bytes after the filter-type byte.
#include "internal.h"

#include <stdlib.h>
#include <string.h>

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
int prepareFilters(ThreadState *state, size_t stride, CPNGWriter_Filter filter) {
    if (reserve(&state->zeroRow, stride) != 0 || reserve(&state->row, stride + 1) != 0) return -1;
    memset(state->zeroRow.data, 0, stride);
    if (filter == CPNGWriter_adaptive && reserve(&state->candidates, stride * 5) != 0) return -1;
    return 0;
}

// Writes row `y`'s filter-type byte and filtered bytes at `out` (prepareFilters first).
void filterImageRow(ThreadState *state, const unsigned char *rgba, size_t stride, uint32_t y,
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
