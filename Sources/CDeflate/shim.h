#ifndef CDEFLATE_SHIM_H
#define CDEFLATE_SHIM_H
// libdeflate through its pkg-config name `libdeflate` (Debian: libdeflate-dev to build,
// libdeflate0 to run): whole-buffer DEFLATE with zlib framing, and its CRC-32. Only CPNGWriter
// calls it; no libdeflate type reaches Swift.
#include <libdeflate.h>

#endif
