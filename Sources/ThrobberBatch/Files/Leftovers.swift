import Foundation
import Throbber

/// The temporary files a run killed outright (SIGKILL, a crash, a power cut) leaves: a stream's,
/// a video's or a replaced file's `.NAME.PID.RANDOM.tmp` (``AtomicFile/temporaryName(for:)``)
/// and the `.throbber-probe.PID` of a directory check. A clean exit and a signal leave none; the
/// next run of the same outputs removes these.
///
/// Only what is certainly such a file goes: a regular file whose name is the scheme's for one of
/// the run's own outputs (or a probe), made by a process that no longer exists. A name of another
/// output, or of a process still running (another run, writing it now), is left alone.
public enum Leftovers {
    /// Removes the leftovers in `directories` of the run's outputs.
    ///
    /// - Parameters:
    ///   - directories: the run's output directories.
    ///   - isOutput: whether a file name (last path component) in a directory is one of the run's
    ///     outputs; asked only about names that have the temporary scheme's form, so a caller can
    ///     work out its outputs only when there is a leftover to decide on.
    /// - Returns: the paths removed, sorted.
    @discardableResult
    public static func remove(in directories: Set<String>, isOutput: (_ directory: String, _ name: String) -> Bool) -> [String] {
        var removed: [String] = []
        for directory in directories.sorted() {
            guard let stream = opendir(directory) else { continue }
            defer { closedir(stream) }
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                guard name.hasPrefix("."), let pid = writer(of: name, isOutput: { isOutput(directory, $0) }), pid != getpid(),
                      !isRunning(pid) else { continue }
                let path = directory == "/" ? "/" + name : directory + "/" + name
                var status = stat()
                guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid() else { continue }
                if unlink(path) == 0 { removed.append(path) }
            }
        }
        return removed.sorted()
    }

    /// The pid in a temporary name of an output (`.NAME.PID.RANDOM.tmp`, NAME one `isOutput`
    /// accepts) or of a probe (`.throbber-probe.PID`), or nil for any other name.
    static func writer(of name: String, isOutput: (String) -> Bool) -> Int32? {
        if name.hasPrefix(".throbber-probe.") {
            return Int32(name.dropFirst(".throbber-probe.".count))
        }
        guard name.hasSuffix(".tmp") else { return nil }
        let parts = name.dropFirst().dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, UInt32(parts[parts.count - 1]) != nil,
              let pid = Int32(parts[parts.count - 2]), pid > 0 else { return nil }
        let output = parts.dropLast(2).joined(separator: ".")
        return isOutput(output) ? pid : nil
    }

    /// Whether a process `pid` exists (kill(2) with no signal: EPERM means it does).
    static func isRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
