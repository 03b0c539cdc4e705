// Here, not in the header: _GNU_SOURCE must come before the first system header of the
// translation unit to declare sched_getaffinity.
#define _GNU_SOURCE 1
#include <sched.h>

#include "CSched.h"

int CSched_getaffinity(size_t bytes, void *mask) {
    return sched_getaffinity(0, bytes, (cpu_set_t *)mask);
}
