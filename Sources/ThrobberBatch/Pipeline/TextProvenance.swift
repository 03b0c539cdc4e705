import Foundation
import Glibc
import Throbber
import ThrobberDigest
import ThrobberInput

/// What a frame's tEXt says about its text (SPEC §6): the scene's text parameters, which
/// `Throbber:parameters` (words split at spaces) cannot hold, and the font files its glyphs came
/// from with a SHA-256 of each, so `reproduce` can say "font changed" rather than "pixels differ".
/// Both chunks are JSON written in ASCII (\u escapes), since tEXt holds Latin-1 only.
public enum TextProvenance {
    /// A font file as a frame records it.
    public struct FontRecord: Sendable, Equatable {
        public var file: String
        public var face: Int
        /// SHA-256 of the file's bytes, lower-case hex; nil when it could not be read.
        public var sha256: String?
    }

    /// The file's SHA-256, nil when it cannot be read: from `FontDigests.shared` while the file
    /// is the one it hashed.
    public static func digest(of path: String) -> String? { FontDigests.shared.digest(of: path) }

    /// Each font with its digest.
    public static func records(_ fonts: [FontSource]) -> [FontRecord] {
        fonts.map { FontRecord(file: $0.path, face: $0.face, sha256: digest(of: $0.path)) }
    }

    /// `Throbber:fonts`: a JSON array of {"file", "face", "sha256"}.
    public static func fontsText(_ records: [FontRecord]) -> String {
        "[" + records.map { record in
            "{\"file\":\(asciiJSON(record.file)),\"face\":\(record.face),\"sha256\":\(record.sha256.map(asciiJSON) ?? "null")}"
        }.joined(separator: ",") + "]"
    }

    /// `Throbber:text`: a JSON object of the text parameters by name.
    public static func parametersText(_ assignments: [(name: String, value: String)]) -> String {
        "{" + assignments.map { "\(asciiJSON($0.name)):\(asciiJSON($0.value))" }.joined(separator: ",") + "}"
    }

    /// Reads `Throbber:text` back.
    ///
    /// - Throws: bad data naming `name` when it is not a JSON object of strings.
    public static func parameters(_ text: String, name: String) throws -> [(name: String, value: String)] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let strings = object as? [String: String] else {
            throw ThrobberError("\(name): tEXt \(FrameText.Key.text) '\(ThrobberError.echoed(text, longest: 200))' is not a JSON object of strings",
                                kind: .badData)
        }
        return strings.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Reads `Throbber:fonts` back.
    ///
    /// - Throws: bad data naming `name` when it is not an array of font records.
    public static func fonts(_ text: String, name: String) throws -> [FontRecord] {
        let failure = ThrobberError("\(name): tEXt \(FrameText.Key.fonts) '\(ThrobberError.echoed(text, longest: 200))' "
                                    + "is not a JSON array of {file, face, sha256}", kind: .badData)
        guard let array = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] else { throw failure }
        return try array.map { entry in
            guard let file = entry["file"] as? String, let face = entry["face"] as? Int, face >= 0 else { throw failure }
            return FontRecord(file: file, face: face, sha256: entry["sha256"] as? String)
        }
    }

    /// The recorded fonts whose file is now missing or holds other bytes, one line each.
    public static func changes(_ recorded: [FontRecord]) -> [String] {
        recorded.compactMap { record in
            let now = digest(of: record.file)
            guard now != record.sha256 else { return nil }
            let shown = ThrobberError.shownPath(record.file)
            guard let now else { return "font changed: \(shown) is missing or unreadable (recorded sha256 \(record.sha256 ?? "none"))" }
            return "font changed: \(shown) has sha256 \(now), the frame recorded \(record.sha256 ?? "none")"
        }
    }

    /// `text` as a JSON string in ASCII: quotes, backslashes and control characters escaped,
    /// everything beyond ASCII as \u escapes (surrogate pairs above U+FFFF).
    static func asciiJSON(_ text: String) -> String {
        var out = "\""
        for unit in text.utf16 {
            switch unit {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                let hex = String(unit, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return out + "\""
    }
}

/// The SHA-256 of font files, each hashed once per process while it stays the same file: a job's
/// clips (one per scale) share a font, and the CJK face is 19 MB (15–20 ms to hash here).
///
/// A digest is kept with the file's identity as `stat` gives it (device, inode, size, modification
/// and change times, to the nanosecond), taken before and after hashing and kept only when both
/// agree; a lookup hashes again whenever the identity differs. Any write to the file, a
/// replacement by rename or a `touch` changes the identity.
public final class FontDigests: @unchecked Sendable {
    /// The process's digests.
    public static let shared = FontDigests()

    private struct Identity: Equatable {
        var device: UInt64, inode: UInt64, size: Int64
        var modified: timespec, changed: timespec

        init?(_ path: String) {
            var info = stat()
            // Only what could be read as a font is hashed: a PNG's tEXt may name a huge file.
            guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= InputKind.font.limit else { return nil }
            device = UInt64(info.st_dev); inode = UInt64(info.st_ino); size = Int64(info.st_size)
            modified = info.st_mtim; changed = info.st_ctim
        }

        static func == (a: Identity, b: Identity) -> Bool {
            a.device == b.device && a.inode == b.inode && a.size == b.size
                && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
                && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
        }
    }

    private let lock = NSLock()
    private var kept: [String: (identity: Identity, sha256: String)] = [:]
    private var hashCount = 0
    /// How many files were hashed (not found kept), for tests.
    public var hashed: Int { lock.withLock { hashCount } }

    /// A cache of its own (tests); the process shares `shared`.
    public init() {}

    /// The SHA-256 of the file at `path` in lower-case hex, nil when it is not a readable
    /// regular file of at most a font file's limit (`InputKind.font`).
    public func digest(of path: String) -> String? {
        guard let before = Identity(path) else { return nil }
        if let entry = lock.withLock({ kept[path] }), entry.identity == before { return entry.sha256 }
        guard let sha256 = Self.hash(path) else { return nil }
        lock.withLock {
            hashCount += 1
            if Identity(path) == before { kept[path] = (before, sha256) } else { kept[path] = nil }
        }
        return sha256
    }

    /// Forgets every digest, so the next lookups hash again (the bench's start-up rows).
    public func forget() { lock.withLock { kept.removeAll() } }

    /// The file's SHA-256, read in 1 MiB chunks.
    private static func hash(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let hash = SHA256()
        do {
            // nil or empty at the end of the file.
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hash.update(chunk) }
        } catch {
            return nil
        }
        return hash.finalizeHex()
    }
}
