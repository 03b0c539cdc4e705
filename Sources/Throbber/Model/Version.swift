/// Throbber's version, as `throbber --version` prints it and PNG text chunks record it.
public let throbberVersion = "0.1.0"

/// libpng's zlib level when `--png-encoder libpng` is given no level (and `PNGCodec`'s default):
/// level 7 without row filters, the setting every command used before the default became
/// `auto` (docs/png-encoders.md), so `libpng` still writes those files byte for byte.
public let defaultPNGLevel = 7
