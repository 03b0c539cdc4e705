/// Throbber's version, as `throbber --version` prints it and PNG text chunks record it.
public let throbberVersion = "0.1.0"

/// The zlib level frames are written with unless a user says otherwise, chosen by
/// `throbber bench --png-sweep`: on Throbber's frames (flat colour, thin anti-aliased edges),
/// level 7 without PNG row filters is the fastest setting whose files stay within 10 % of the
/// smallest that any level, strategy and filter combination makes.
public let defaultPNGLevel = 7
