import Foundation
import Testing
import ThrobberTestSupport

/// A `throbber` started for a signal test: SIGINT and SIGTERM at their default actions and
/// unblocked (a child of a non-interactive shell's background job inherits SIGINT ignored, which
/// would hide a command that never handles it), standard error in a file the test can read
/// while it runs.
final class SpawnedThrobber {
    let pid: pid_t
    let stderrPath: String
    /// Where its standard output goes (`/dev/null` unless asked for).
    let stdoutPath: String
    private var exitStatus: Int32?

    /// Starts `throbber ARGUMENTS…` with `environment` added to this process's.
    ///
    /// - Parameter newProcessGroup: start it in a process group of its own (whose id is its pid),
    ///   for a test that signals the group as a terminal's Ctrl-C does.
    /// - Parameter keepStdout: standard output in a file of `directory` too, readable while it runs.
    init(_ arguments: [String], environment: [String: String] = [:], stderrIn directory: URL, newProcessGroup: Bool = false,
         keepStdout: Bool = false) throws {
        let tag = UInt32.random(in: 0...UInt32.max)
        stderrPath = directory.appendingPathComponent("stderr-\(tag).txt").path
        stdoutPath = keepStdout ? directory.appendingPathComponent("stdout-\(tag).txt").path : "/dev/null"
        let binary = try throbberBinary().path
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | (newProcessGroup ? POSIX_SPAWN_SETPGROUP : 0)))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        let argv: [UnsafeMutablePointer<CChar>?] = ([binary] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, binary, &actions, &attributes, argv, envp)
        guard status == 0 else { throw CLITestError("posix_spawn \(binary): \(String(cString: strerror(status)))") }
        pid = child
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            _ = finish()
        }
    }

    /// What it has written to standard output so far (with `keepStdout`).
    var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }

    /// What it has written to standard error so far.
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Waits (up to `seconds`) until its SIGINT and SIGTERM are caught, as /proc says: from then
    /// on a signal reaches its handler instead of its default action.
    ///
    /// - Returns: false if that did not happen in time (the command never handles signals).
    func waitUntilSignalsAreCaught(seconds: Double = 30) -> Bool {
        let wanted: UInt64 = (1 << UInt64(SIGINT - 1)) | (1 << UInt64(SIGTERM - 1))
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
            if let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
               let caught = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16),
               caught & wanted == wanted {
                return true
            }
            usleep(10_000)
        }
        return false
    }

    /// Waits (up to `seconds`) until `condition` holds or the process has ended.
    func wait(seconds: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// Sends `signal`.
    func send(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Waits for it to end (killing it after `seconds`).
    ///
    /// - Returns: its exit status, or 128 + the signal that ended it.
    func finish(seconds: Double = 120) -> Int32 {
        if let exitStatus { return exitStatus }
        let deadline = Date(timeIntervalSinceNow: seconds)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline { kill(pid, SIGKILL) }
            usleep(10_000)
        }
        let signal = status & 0x7f
        let result = signal == 0 ? (status >> 8) & 0xff : 128 + signal
        exitStatus = result
        return result
    }
}

/// Names starting with "." in `directory` and every directory below it: temporary files.
func hiddenFiles(under directory: URL) -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: directory.path) else { return [] }
    return walker.compactMap { $0 as? String }.filter { URL(fileURLWithPath: $0).lastPathComponent.hasPrefix(".") }
}
