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
    /// Removes the leftovers in `directories` of the outputs named in `outputs`.
    ///
    /// - Parameters:
    ///   - directories: the run's output directories.
    ///   - outputs: the output file names in each directory (last path components).
    /// - Returns: the paths removed, sorted.
    @discardableResult
    public static func remove(in directories: Set<String>, outputs: [String: Set<String>]) -> [String] {
        var removed: [String] = []
        for directory in directories.sorted() {
            let names = outputs[directory] ?? []
            guard let stream = opendir(directory) else { continue }
            defer { closedir(stream) }
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                guard name.hasPrefix("."), let pid = writer(of: name, outputs: names), pid != getpid(), !isRunning(pid) else { continue }
                let path = directory == "/" ? "/" + name : directory + "/" + name
                var status = stat()
                guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid() else { continue }
                if unlink(path) == 0 { removed.append(path) }
            }
        }
        return removed.sorted()
    }

    /// The pid in a temporary name of one of `outputs` (`.NAME.PID.RANDOM.tmp`) or of a probe
    /// (`.throbber-probe.PID`), or nil for any other name.
    static func writer(of name: String, outputs: Set<String>) -> Int32? {
        if name.hasPrefix(".throbber-probe.") {
            return Int32(name.dropFirst(".throbber-probe.".count))
        }
        guard name.hasSuffix(".tmp") else { return nil }
        let parts = name.dropFirst().dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, UInt32(parts[parts.count - 1]) != nil,
              let pid = Int32(parts[parts.count - 2]), pid > 0 else { return nil }
        let output = parts.dropLast(2).joined(separator: ".")
        return outputs.contains(output) ? pid : nil
    }

    /// Whether a process `pid` exists (kill(2) with no signal: EPERM means it does).
    static func isRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
