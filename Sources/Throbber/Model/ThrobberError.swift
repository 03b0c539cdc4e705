/// Every error Throbber's libraries throw: a kind a caller can switch on, one line for a person,
/// and the system's own code where there is one. Only the command line maps kinds to exit codes
/// and adds flag names (`remedy`).
public struct ThrobberError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What went wrong, in the terms a caller decides on.
    public enum Kind: String, Sendable, CaseIterable, Codable {
        /// A parameter or option is invalid: the caller's mistake, not worth a retry.
        case usage
        /// An input exists but its contents are not what they must be (a job file, a manifest, a PNG).
        case badData
        /// An input cannot be found or read.
        case missingInput
        /// The rendering backend cannot be opened: library missing, no device, no context.
        case backendUnavailable
        /// The backend failed while working: shader compile or link, GL error, incomplete framebuffer.
        case backendFailure
        /// An output cannot be created: it exists already, or its directory cannot be made.
        case cannotCreate
        /// Writing or reading failed midway: disk full, permission denied, I/O error.
        case io
        /// The run was cancelled; what was in flight landed whole, nothing partial is left.
        case interrupted
    }

    /// What the caller can do about it, where a command-line flag is the way (the command line
    /// words it with the flag; a library caller sets the matching property).
    public enum Remedy: String, Sendable, Codable {
        /// Outputs exist: replace them (`overwrite`).
        case overwrite
        /// Outputs exist: replace them (`overwrite`) or keep them (`skipExisting`).
        case overwriteOrKeep
        /// A run stopped early: run it again keeping what exists (`skipExisting`).
        case resumeKeepingExisting
        /// Something that is not the run's lock file is at the lock path: the manifest (and with
        /// it the lock) may go elsewhere (`manifestPath`).
        case moveManifest
        /// A contact sheet is too large: fewer frames, other columns or a smaller scale.
        case smallerContactSheet
        /// Something that is not a manifest is at the manifest path: the manifest may go
        /// elsewhere (`manifestPath`), or the file be replaced (`overwrite`).
        case moveOrReplaceManifest
    }

    /// The one-line message, without a trailing newline.
    public var message: String
    /// What went wrong.
    public var kind: Kind
    /// The underlying errno, GL error or EGL error code, where there is one.
    public var code: Int32?
    /// What the caller can do about it, where a setting is the way.
    public var remedy: Remedy?
    /// The setting at fault, as the library names it (`fps`, `maxSize`), where the error is about
    /// one: a reader of a file that holds the settings points at it there.
    public var field: String?

    /// Creates an error.
    ///
    /// A message about the user's input (usage, data, input and output errors) is kept to one
    /// line of at most `longestMessage` characters whatever the input held: sites echo values
    /// through `echoed`, and this is the guarantee for any that does not.
    public init(_ message: String, kind: Kind, code: Int32? = nil, remedy: Remedy? = nil, field: String? = nil) {
        switch kind {
        case .usage, .badData, .missingInput, .cannotCreate, .io:
            self.message = ThrobberError.echoed(message, longest: ThrobberError.longestMessage)
        default:
            self.message = message
        }
        self.kind = kind
        self.code = code
        self.remedy = remedy
        self.field = field
    }

    public var description: String { message }

    /// Runs `body`, putting `name` (a file's path) before the message of the error it throws,
    /// its kind kept: for readers whose own messages do not know which file they read.
    public static func naming<T>(_ name: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ThrobberError {
            throw ThrobberError("\(name): \(error.message)", kind: error.kind)
        }
    }

    /// A usage error naming the field, the value given and what is allowed.
    ///
    /// - Parameters:
    ///   - field: the parameter or option, as the user spells it.
    ///   - value: what the user gave, shortened by `echoed` when long.
    ///   - allowed: what would have been accepted, in words.
    public static func invalid(_ field: String, _ value: String, allowed: String) -> ThrobberError {
        ThrobberError("invalid \(echoed(field)) '\(echoed(value))': \(allowed)", kind: .usage, field: field)
    }

    /// A usage error for an unknown name, suggesting the nearest known one.
    public static func unknown(_ what: String, _ name: String, known: [String]) -> ThrobberError {
        var message = "unknown \(what) '\(echoed(name))'"
        if let nearest = nearestName(to: name, in: known) {
            message += "; did you mean '\(nearest)'?"
        }
        message += " (known: \(known.joined(separator: ", ")))"
        return ThrobberError(message, kind: .usage)
    }
}

extension ThrobberError {
    /// The longest text echoed whole in a message; longer text is cut (`echoed`).
    public static let longestEcho = 60
    /// The longest path echoed whole: paths are what a user looks for in a message, and the
    /// file name is at the end.
    public static let longestPathEcho = 400
    /// The longest message about the user's input (`init(_:kind:code:remedy:field:)`).
    public static let longestMessage = 1_500

    /// `text` as a message quotes it: whole when it has at most `longestEcho` characters,
    /// else its first `longestEcho` characters, an ellipsis and its length, e.g.
    /// `aaaa… (52428800 chars)`, so a value of megabytes never becomes a message of megabytes.
    /// Newlines, other control characters and the Unicode line separators are shown escaped, so
    /// the message stays one line.
    public static func echoed(_ text: String, longest: Int = longestEcho) -> String {
        var count = 0
        var out = ""
        for character in text {
            count += 1
            if count > longest { continue }
            // C0 and C1 controls, DEL, and the Unicode line and paragraph separators: each would
            // break the line somewhere.
            out += character.unicodeScalars.allSatisfy({ !($0.value < 0x20 || (0x7f...0x9f).contains($0.value) || $0.value == 0x2028 || $0.value == 0x2029) })
                ? String(character) : character.unicodeScalars.map { $0.escaped(asASCII: true) }.joined()
        }
        return count > longest ? out + "… (\(count) chars)" : out
    }
}

extension ThrobberError {
    /// A path as a message shows it: whole up to `longestPathEcho` characters; a longer one keeps
    /// its first 100 and its last 280 characters around an ellipsis, with its length — the file
    /// name at the end is what a user looks for, and the reason after the path is never cut off
    /// by `longestMessage`. Control characters are escaped, as `echoed` does.
    public static func shownPath(_ path: String) -> String {
        guard path.count > longestPathEcho else { return echoed(path, longest: longestPathEcho) }
        let head = echoed(String(path.prefix(100)), longest: 100)
        let tail = echoed(String(path.suffix(280)), longest: 280)
        return "\(head)…\(tail) (\(path.count) chars)"
    }
}

/// The known name closest to `name` by edit distance (case-insensitive), if any is close enough
/// to be a plausible typo.
public func nearestName(to name: String, in known: [String]) -> String? {
    // A name far longer than every known one is no typo, and its edit distance would cost
    // length × length of work (a 50 MB name: minutes).
    guard name.utf8.count <= 4 * (known.map(\.utf8.count).max() ?? 0) + 8 else { return nil }
    let target = Array(name.lowercased())
    var best: (name: String, distance: Int)?
    for candidate in known {
        let distance = editDistance(target, Array(candidate.lowercased()))
        if best == nil || distance < best!.distance {
            best = (candidate, distance)
        }
    }
    guard let best, best.distance <= max(2, target.count / 2) else { return nil }
    return best.name
}

/// Levenshtein distance between two character arrays.
func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
            current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}

extension String {
    /// The text of a NUL-terminated C buffer (an error message filled in by C code).
    public init(nulTerminated buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
