#ifndef CWEBP_SHIM_H
#define CWEBP_SHIM_H
// libwebp through its pkg-config name `libwebp` (Debian: libwebp-dev to build, libwebp7 to run):
// lossless encoding of WebP sheet pages, with `exact` set so transparent pixels keep their bytes.
// Only ThrobberBatch's WebPImage calls it.
#include <webp/encode.h>

#endif
