#ifndef CPNG_SHIM_H
#define CPNG_SHIM_H
// libpng through its pkg-config name `libpng` (Debian: libpng-dev). Swift code never calls the
// classic API directly (its errors longjmp); CPNGCodec wraps it. Macros Swift cannot import are
// re-exported below as constants with the module's prefix.
#include <png.h>

static const int CPNG_FORMAT_RGBA = PNG_FORMAT_RGBA;
static const int CPNG_IMAGE_VERSION = PNG_IMAGE_VERSION;

#endif
