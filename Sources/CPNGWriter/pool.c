// The threads one frame's segments are shared among. A caller that allows more than one thread
// (CPNGWriter_encode's `threads`) posts its segments as a job and works on them itself; workers,
// made on first need and kept for the process's life, each with its own ThreadState, take
// segments of any posted job that has room for another thread. pigz and mtpng share a stream
// among threads the same way: segments that depend on their own input alone.
#include "internal.h"

#include <pthread.h>
#include <signal.h>

typedef struct PoolJob {
    TaskFunction run;
    void *context;
    size_t count, next, done; ///< tasks; the next one to hand out; the ones finished
    int active, limit;        ///< threads at work on it (the caller among them), and at most
    struct PoolJob *later;    ///< the job posted after it
} PoolJob;

// At most this many workers: a frame's segments are at most MAX_SEGMENTS (segments.c).
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
void runTasks(TaskFunction run, void *context, size_t count, int threads, ThreadState *caller) {
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
