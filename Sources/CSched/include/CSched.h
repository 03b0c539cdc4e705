#ifndef CSCHED_H
#define CSCHED_H
// The affinity mask for Throbber's usable-CPU count (ThrobberRender's UsableCPUs).
// sched_getaffinity is a GNU extension: <sched.h> declares it only under _GNU_SOURCE, which
// Swift's Glibc module is not built with, so Swift cannot see it. sched.c defines _GNU_SOURCE
// in its own translation unit and passes the call through. The mask's bits are counted in Swift
// (CPU_COUNT_S is a macro), so the mask is plain bytes here and no cpu_set_t reaches Swift.
#include <stddef.h>

/// This thread's affinity mask into `mask`, `bytes` long (zeroed by the caller): 0 on success,
/// -1 with errno set otherwise (EINVAL while `bytes` is smaller than the kernel's mask).
int CSched_getaffinity(size_t bytes, void *_Nonnull mask);

#endif
