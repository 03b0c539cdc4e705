#ifndef CPNG_SHIM_H
#define CPNG_SHIM_H
// libpng through its pkg-config name `libpng` (Debian: libpng-dev). Swift code never calls the
// classic API directly (its errors longjmp); CPNGCodec wraps it. Nothing uses the simplified
// png_image API: it converts 16-bit samples through gamma (see CPNGCodec_openReader).
#include <png.h>

#endif
