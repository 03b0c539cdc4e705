/// Throbber's version, as `throbber --version` prints it and PNG text chunks record it.
public let throbberVersion = "0.1.0"
