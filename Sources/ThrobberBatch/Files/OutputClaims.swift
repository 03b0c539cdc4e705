import Foundation
import Throbber

/// Every path one run reads or writes, each resolved to the file it names, checked before
/// anything is written: no two outputs may be one file, and no output may be an input (a job
/// that lists its own job file as an output would otherwise overwrite itself).
///
/// A path is made absolute and the symbolic links in its directories are resolved (the last
/// component is kept: a link there is a name of ours, replaced like a file). Where the file
/// exists, two paths are the same when they name the same inode (`st_dev`, `st_ino`), which
/// also catches hard links and a final symbolic link to another claimed file.
public struct OutputClaims {
    /// Where a path came from, which decides the exit code of a collision.
    public enum Source: Sendable {
        /// The job file's data (its outputs, its own path, the manifest derived from it):
        /// a collision is the job's fault, `dataError` (65).
        case job
        /// An option typed on the command line (`--manifest`, `-o`): `usage` (64).
        case commandLine
    }

    /// One path as claimed: how it was written, what it is for, and where it came from.
    struct Claim {
        var path: String
        var role: String
        var source: Source
        var isInput: Bool
        /// A character device (`/dev/null`): every write goes into it and none replaces another's,
        /// so any number of outputs may name it.
        var isDevice = false
    }

    /// A file's identity: its inode where it exists, otherwise its resolved path.
    enum Identity: Hashable {
        case inode(dev: UInt64, ino: UInt64)
        case path(String)
    }

    private var claims: [Identity: Claim] = [:]
    /// Resolved directories, by the directory as written: every frame of a sequence shares one.
    private var resolvedDirectories: [String: String] = [:]
    /// Resolved directories known to hold nothing — they do not exist yet, or are empty — so
    /// that no path in them needs an `lstat` and a `stat`: a sequence of 10,000 frames into a
    /// fresh directory would otherwise make 20,000 calls before its first frame. A directory is
    /// looked at when a second path in it is claimed. One that holds anything is asked per path,
    /// whatever it holds: a name missing from a listing is not proof of absence where lookups
    /// ignore case.
    private var emptyDirectories: Set<String> = []
    /// Resolved directories looked at (or claimed in once, not yet looked at).
    private var seenDirectories: [String: Bool] = [:]
    private let jobPath: String?
    /// The working directory relative paths are resolved in, asked once (not once a frame).
    private lazy var workingDirectory = FileManager.default.currentDirectoryPath
    /// The outputs that hold a regular file (or a link) already, in the order they were claimed.
    public private(set) var existingFiles: [String] = []
    /// Each output's resolved path, and every resolved directory an output is written in with
    /// the directories above it (each claimed output's): no output may be a directory another
    /// one needs (a sheet's `json` of `q` beside pages in `q/`).
    private var outputPaths: [String: Claim] = [:]
    private var outputDirectories: [String: Claim] = [:]

    /// - Parameter jobPath: the job file, named at the start of a collision inside it.
    public init(jobPath: String? = nil) {
        self.jobPath = jobPath
    }

    /// Claims a file the run reads; an output that is the same file is refused.
    ///
    /// - Throws: the collision, as `claimOutput` does.
    public mutating func claimInput(_ path: String, role: String, source: Source) throws {
        let (identity, _) = try resolve(path, checkType: false)
        try claim(identity, Claim(path: path, role: role, source: source, isInput: true))
    }

    /// Claims a file the run writes, after checking what is there now.
    ///
    /// - Parameters:
    ///   - path: the path as the writer will use it.
    ///   - role: what writes it, for the message ("ring@1x's sheet atlas").
    /// - Returns: what the path holds now (`AtomicFile.existing(at:)`).
    /// - Throws: `usage` (64) or `dataError` (65) when it is the same file as another claim,
    ///   naming both; `cannotCreate` (73) when it is a directory, block device or socket.
    @discardableResult
    public mutating func claimOutput(_ path: String, role: String, source: Source) throws -> AtomicFile.Existing {
        let new = Claim(path: path, role: role, source: source, isInput: false)
        if let problem = OutputClaims.fileNameProblem(path) {
            throw ThrobberError(prefix(source == .commandLine ? .usage : .badData)
                                + "\(role) \"\(ThrobberError.echoed(path, longest: ThrobberError.longestPathEcho))\" \(problem)",
                                kind: source == .commandLine ? .usage : .badData)
        }
        let (identity, existing) = try resolve(path, checkType: true)
        let device = existing == .writtenInto && AtomicFile.isCharacterDevice(path)
        try claim(identity, Claim(path: path, role: role, source: source, isInput: false, isDevice: device))
        if !device { try claimPlace(new) }
        if existing == .file { existingFiles.append(path) }
        return existing
    }

    /// Why `path` cannot name a file an output writes, from its text alone: it is empty, ends in
    /// `/`, or its last component is `.` or `..` (each names a directory); nil when it can.
    public static func fileNameProblem(_ path: String) -> String? {
        if path.isEmpty { return "is empty; give a file name" }
        if path.hasSuffix("/") { return "ends in '/', so it names a directory; give a file name" }
        let last = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        if last == "." || last == ".." { return "ends in '\(last)', so it names a directory; give a file name" }
        return nil
    }

    /// Checks that the output's file is no directory an earlier output is written in, and that
    /// no directory it is written in is an earlier output's file; records both.
    private mutating func claimPlace(_ new: Claim) throws {
        let full = lastResolved
        if let other = outputDirectories[full] { throw placeCollision(file: new, directoryOf: other) }
        outputPaths[full] = new
        var directory = full
        while let slash = directory.lastIndex(of: "/") {
            directory = slash == directory.startIndex ? "/" : String(directory[..<slash])
            if outputDirectories[directory] != nil { break }
            if let other = outputPaths[directory] { throw placeCollision(file: other, directoryOf: new) }
            outputDirectories[directory] = new
            if directory == "/" { break }
        }
    }

    /// The error of an output whose file is the directory another output is written in.
    private func placeCollision(file: Claim, directoryOf other: Claim) -> ThrobberError {
        let kind: ThrobberError.Kind = file.source == .commandLine || other.source == .commandLine ? .usage : .badData
        return ThrobberError(prefix(kind) + "\(file.role) \(file.path) would have to be a directory: "
                             + "\(other.role) \(other.path) is inside it; give each output its own path", kind: kind)
    }

    /// The job file's name before a message of bad data in it.
    private func prefix(_ kind: ThrobberError.Kind) -> String {
        kind == .badData ? jobPath.map { "\(ThrobberError.shownPath($0)): " } ?? "" : ""
    }

    private mutating func claim(_ identity: Identity, _ new: Claim) throws {
        guard let old = claims[identity] else {
            claims[identity] = new
            return
        }
        // Reading one file twice is fine, and so is writing into one device twice; everything
        // else that meets is a collision.
        if old.isInput && new.isInput { return }
        if old.isDevice && new.isDevice { return }
        let kind: ThrobberError.Kind = old.source == .commandLine || new.source == .commandLine ? .usage : .badData
        let prefix = kind == .badData ? jobPath.map { "\($0): " } ?? "" : ""
        let message: String
        if let input = [old, new].first(where: \.isInput), let output = [old, new].first(where: { !$0.isInput }) {
            message = "\(output.role) \(output.path) is \(input.role) \(input.path); a run never writes over its input, give the output another path"
        } else {
            message = "\(old.role) \(old.path) and \(new.role) \(new.path) are the same file; give each output its own path"
        }
        throw ThrobberError(prefix + message, kind: kind)
    }

    /// The identity of `path` and, for an output, what it holds now.
    /// The resolved path of the last path `resolve` was given.
    private var lastResolved = ""

    private mutating func resolve(_ path: String, checkType: Bool) throws -> (Identity, AtomicFile.Existing) {
        let absolute = path.hasPrefix("/") ? path : workingDirectory + "/" + path
        // Split at the last slash by hand: a URL per frame costs more than the stat calls.
        let slash = absolute.utf8.lastIndex(of: UInt8(ascii: "/"))!
        let name = String(absolute[absolute.index(after: slash)...])
        let directory = slash == absolute.startIndex ? "/" : String(absolute[..<slash])
        let resolvedDirectory: String
        if let known = resolvedDirectories[directory] {
            resolvedDirectory = known
        } else {
            resolvedDirectory = OutputClaims.resolvedDirectory(directory)
            resolvedDirectories[directory] = resolvedDirectory
        }
        let full = resolvedDirectory == "/" ? "/" + name : resolvedDirectory + "/" + name
        lastResolved = full
        if holdsNothing(resolvedDirectory) { return (.path(full), .absent) }
        let existing = checkType ? try AtomicFile.existing(at: full) : .absent
        var status = stat()
        if stat(full, &status) == 0 {
            return (.inode(dev: UInt64(status.st_dev), ino: UInt64(status.st_ino)), existing)
        }
        return (.path(full), existing)
    }

    /// Whether `directory` (resolved) is known to hold nothing: it does not exist, or it lists
    /// no entry but `.` and `..`. Decided on the second path claimed in it, then kept.
    private mutating func holdsNothing(_ directory: String) -> Bool {
        if emptyDirectories.contains(directory) { return true }
        guard let looked = seenDirectories[directory] else {
            seenDirectories[directory] = false
            return false
        }
        if looked { return false }
        seenDirectories[directory] = true
        guard let stream = opendir(directory) else {
            guard errno == ENOENT else { return false }
            emptyDirectories.insert(directory)
            return true
        }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != "." && name != ".." { return false }
        }
        emptyDirectories.insert(directory)
        return true
    }

    /// `directory` with every symbolic link resolved; the part that does not exist yet (it is
    /// created before writing) is appended as written, `.` and `..` taken lexically there.
    static func resolvedDirectory(_ directory: String) -> String {
        if let resolved = realpath(directory, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        var trimmed = Substring(directory)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/"), trimmed.count > 1 else { return String(trimmed) }
        let name = String(trimmed[trimmed.index(after: slash)...])
        let parent = resolvedDirectory(slash == trimmed.startIndex ? "/" : String(trimmed[..<slash]))
        func child(_ name: String) -> String { parent == "/" ? "/" + name : parent + "/" + name }
        switch name {
        case "", ".": return parent
        case "..":
            guard parent != "/", let up = parent.lastIndex(of: "/") else { return "/" }
            return up == parent.startIndex ? "/" : String(parent[..<up])
        default: return child(name)
        }
    }
}
