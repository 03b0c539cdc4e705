import Foundation
import Glibc
import Throbber

/// One ffmpeg child of a video output: started with its arguments, fed on its standard input,
/// its standard error kept for messages, its standard output collected (a GIF's palette), and
/// stopped at once when the run is asked to stop.
///
/// A run that is cancelled (the first SIGINT or SIGTERM) drops the frames bound only for videos:
/// an encoder holds many frames in flight (libvpx's look-ahead, x264's), and letting it encode
/// them took up to half a minute. So a watcher looks at the cancellation every
/// `FFmpegChild.pollMicroseconds` (20 ms) and kills ffmpeg with SIGKILL as soon as it is set — SIGTERM would
/// let ffmpeg flush its encoder and write the container's trailer first. Writes to a killed
/// child are then dropped (`stopped`), and its output is never placed: the caller removes the
/// temporary file it was writing.
final class FFmpegChild: @unchecked Sendable {
    let process = Process()
    private let input = Pipe()
    private let errors = Pipe()
    private let output = Pipe()
    private let errorText = ErrorTail()
    private let lock = NSLock()
    private var collected = Data()
    private var stoppedForCancellation = false
    /// Set once the child is finished, stopped or released: the watcher thread ends.
    private var watching = true
    /// ffmpeg and its temporary files, registered so that a signal that abandons the process
    /// kills ffmpeg and removes the files.
    private var token: InFlightFiles.Token?
    private let cancellation: CancellationSource

    /// How often a running child looks at the cancellation.
    static let pollMicroseconds: UInt32 = 20_000

    /// Starts ffmpeg.
    ///
    /// - Parameters:
    ///   - temporaries: the files it writes (removed, after it is killed, if the process is
    ///     abandoned).
    ///   - collectsOutput: keep what it writes to its standard output (`collectedOutput`).
    /// - Throws: `.backendUnavailable` when it cannot be started.
    init(_ ffmpeg: URL, arguments: [String], temporaries: [String], collectsOutput: Bool = false,
         cancellation: CancellationSource) throws {
        self.cancellation = cancellation
        process.executableURL = ffmpeg
        process.arguments = arguments
        process.standardInput = input
        process.standardError = errors
        if collectsOutput {
            // Read once it ends (`finish`): what is collected is small (a palette, 1 KiB), well
            // under what the pipe holds, so ffmpeg never waits on it.
            process.standardOutput = output
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
        let tail = errorText
        errors.fileHandleForReading.readabilityHandler = { handle in tail.append(handle.availableData) }
        let process = self.process
        do {
            // Started and registered in one step: if the process is abandoned, ffmpeg is killed
            // before its temporary files are removed, so it cannot write them again afterwards.
            token = try InFlightFiles.shared.creating({ () -> pid_t? in
                try process.run()
                return process.processIdentifier
            }, undo: { pid in
                kill(pid, SIGKILL)
                waitpid(pid, nil, 0)
                temporaries.forEach { unlink($0) }
            })?.token
        } catch {
            throw ThrobberError("cannot start ffmpeg: \(error)", kind: .backendUnavailable)
        }
        // A plain thread, not a dispatch timer source: a timer cancelled while ffmpeg was being
        // killed and waited for crashed libdispatch's event loop about once in 25 stops.
        let watcher = Thread { [weak self] in
            while true {
                usleep(FFmpegChild.pollMicroseconds)
                guard let self, self.isWatching else { return }
                if self.cancellation.cancellationReason != nil {
                    self.stop()
                    return
                }
            }
        }
        watcher.start()
    }

    deinit {
        token.map(InFlightFiles.shared.finished)
    }

    private var isWatching: Bool { lock.withLock { watching } }

    private func stopWatching() { lock.withLock { watching = false } }

    /// Whether the child was killed because the run was asked to stop.
    var stopped: Bool { lock.withLock { stoppedForCancellation } }

    /// Kills the child now (SIGKILL) because the run is stopping; what it wrote is to be removed.
    func stop() {
        lock.withLock {
            guard !stoppedForCancellation else { return }
            stoppedForCancellation = true
            watching = false
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
    }

    /// Writes bytes to its standard input.
    ///
    /// - Returns: nil once they are written or dropped (the child was stopped, or the run is
    ///   stopping: a child that died of the user's Ctrl-C is not a failure); the error of the
    ///   write that failed otherwise.
    func write(_ bytes: UnsafeRawBufferPointer) -> Errno? {
        if stopped { return nil }
        guard let failure = writeAll(bytes, to: input.fileHandleForWriting.fileDescriptor) else { return nil }
        if stopped || cancellation.cancellationReason != nil {
            stop()
            return nil
        }
        return failure
    }

    /// Closes its standard input and waits for it to end.
    ///
    /// - Returns: its exit status.
    @discardableResult
    func finish() -> Int32 {
        try? input.fileHandleForWriting.close()
        if process.standardOutput as? Pipe != nil {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            lock.withLock { collected = data }
        }
        process.waitUntilExit()
        errors.fileHandleForReading.readabilityHandler = nil
        stopWatching()
        return process.terminationStatus
    }

    /// Kills it (if it still runs) and waits for it to end.
    func terminate() {
        lock.withLock { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        finish()
    }

    /// Drops the registration: its files are placed or removed by the caller now.
    func release() {
        stopWatching()
        token.map(InFlightFiles.shared.finished)
        token = nil
    }

    /// What it wrote to its standard output (with `collectsOutput`), once it has ended.
    var collectedOutput: Data { lock.withLock { collected } }

    /// What it said last on standard error, on one line.
    var lastLine: String { errorText.lastLine }
}

/// The last bytes a child wrote to stderr, for error messages.
final class ErrorTail: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func append(_ chunk: Data) {
        lock.lock()
        data.append(chunk)
        if data.count > 4096 { data = data.suffix(4096) }
        lock.unlock()
    }

    /// What the child said last, on one line: its last three non-empty lines joined with " / "
    /// (ffmpeg gives the reason on the lines before a closing "Error initializing output
    /// stream 0:0 --"), at most 600 characters, the end kept.
    var lastLine: String {
        lock.lock()
        defer { lock.unlock() }
        let lines = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && $0 != "--" }
        guard !lines.isEmpty else { return "no message" }
        let text = lines.suffix(3).joined(separator: " / ")
        return text.count > 600 ? "…" + text.suffix(600) : text
    }
}
