#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H
// zlib through its pkg-config name `zlib` (Debian: zlib1g-dev to build, zlib1g to run), which
// libpng depends on anyway. CPNGWriter calls it for adler32_combine (the Adler-32 of igzip's
// segments joined into the stream's), ThrobberPNG for crc32 (a tEXt chunk under an IDAT libpng
// wrote before). No zlib type reaches Swift's API.
#include <zlib.h>

#endif
