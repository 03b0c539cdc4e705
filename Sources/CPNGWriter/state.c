// The calling thread's state (ThreadState, internal.h): made on the thread's first frame and
// freed when the thread ends, so that a batch's encode threads each allocate their compressors
// and buffers once and never per frame; and the buffers (Scratch) it is made of.
#include "internal.h"

#include <libdeflate.h>
#include <pthread.h>
#include <stdlib.h>

static pthread_key_t stateKey;
static pthread_once_t stateOnce = PTHREAD_ONCE_INIT;
static int stateKeyStatus = -1;

void releaseScratch(Scratch *scratch) {
    free(scratch->data);
    *scratch = (Scratch){0};
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

ThreadState *threadState(void) {
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
int reserve(Scratch *scratch, size_t need) {
    if (scratch->capacity >= need && !(scratch->capacity > ((size_t)16 << 20) && scratch->capacity / 4 > need)) return 0;
    free(scratch->data);
    scratch->data = (unsigned char *)malloc(need ? need : 1);
    scratch->capacity = scratch->data ? need : 0;
    return scratch->data ? 0 : -1;
}

// Grows `buffer` to hold at least `need` bytes, keeping its contents.
int grow(Scratch *buffer, size_t need) {
    if (need <= buffer->capacity) return 0;
    size_t capacity = buffer->capacity * 2 > need ? buffer->capacity * 2 : need;
    unsigned char *grown = (unsigned char *)realloc(buffer->data, capacity);
    if (grown == NULL) return -1;
    buffer->data = grown;
    buffer->capacity = capacity;
    return 0;
}

void swapScratch(Scratch *a, Scratch *b) {
    Scratch kept = *a;
    *a = *b;
    *b = kept;
}
