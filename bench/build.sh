#!/bin/sh
# Builds bench/bare_osmesa, the bare C floor for the GL renderer (see bench/README.md).
# Needs gcc and libosmesa6-dev (apt-get install -y libosmesa6-dev).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cflags=$(pkg-config --cflags osmesa 2>/dev/null || true)
libs=$(pkg-config --libs osmesa 2>/dev/null || echo -lOSMesa)
exec gcc -std=c11 -O2 -Wall -Wextra $cflags -o "$here/bare_osmesa" "$here/bare_osmesa.c" $libs -lm
