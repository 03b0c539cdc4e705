#ifndef CISAL_SHIM_H
#define CISAL_SHIM_H
// Intel ISA-L's igzip through its pkg-config name `libisal` (Debian: libisal-dev to build,
// libisal2 to run): very fast DEFLATE (levels 0–3) with zlib framing. Only CPNGWriter calls it;
// no ISA-L type reaches Swift.
#include <isa-l/igzip_lib.h>

#endif
