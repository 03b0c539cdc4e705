import Throbber

/// The exit status of every way `throbber` can end; the README lists the same table.
///
/// Numbers follow BSD `sysexits.h`, as swift-argument-parser does for usage errors, so scripts can
/// tell a user's mistake from a missing library from a full disk.
enum ExitCode: Int32, Sendable, CaseIterable {
    /// Everything asked for was done.
    case success = 0
    /// A comparison ran and found images that differ beyond the allowed bound.
    case mismatch = 1
    /// The command line or a parameter is invalid (EX_USAGE).
    case usage = 64
    /// An input file exists but its contents are not what they must be (EX_DATAERR).
    case dataError = 65
    /// An input file cannot be found or read (EX_NOINPUT).
    case noInput = 66
    /// The rendering backend cannot be opened: library missing, no device, no context (EX_UNAVAILABLE).
    case backendUnavailable = 69
    /// The backend failed while working: shader compile or link, GL error, incomplete framebuffer (EX_SOFTWARE).
    case backendFailure = 70
    /// An output cannot be created: it exists already, or its directory cannot be made (EX_CANTCREAT).
    case cannotCreate = 73
    /// Writing an output failed: disk full, permission denied, I/O error (EX_IOERR).
    case ioError = 74
    /// Stopped by SIGINT or SIGTERM; nothing partial was left behind.
    case interrupted = 130
}

extension ExitCode {
    /// The exit status for an error of `kind`.
    init(_ kind: ThrobberError.Kind) {
        switch kind {
        case .usage: self = .usage
        case .badData: self = .dataError
        case .missingInput: self = .noInput
        case .backendUnavailable: self = .backendUnavailable
        case .backendFailure: self = .backendFailure
        case .cannotCreate: self = .cannotCreate
        case .io: self = .ioError
        case .interrupted: self = .interrupted
        }
    }
}
