#ifndef CCRYPTO_SHIM_H
#define CCRYPTO_SHIM_H
// OpenSSL's libcrypto (pkg-config `libcrypto`, Debian: libssl-dev) for SHA-256 at hardware speed
// (SHA-NI: ~1.8 GB/s here, six times the pure-Swift fallback). Only the one-shot EVP_Digest is
// used: the low-level SHA256_* functions are deprecated in OpenSSL 3 and would warn.
#include <openssl/evp.h>

static const int CCrypto_SHA256_LENGTH = 32;
#endif
