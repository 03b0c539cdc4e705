import Foundation
import Testing

/// The result of running the built `throbber`.
public struct CommandResult {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// Locates the `throbber` binary built alongside the tests (or `THROBBER_BINARY`).
public func throbberBinary() throws -> URL {
    if let override = ProcessInfo.processInfo.environment["THROBBER_BINARY"] {
        return URL(fileURLWithPath: override)
    }
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = directory.appendingPathComponent("throbber")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        directory.deleteLastPathComponent()
    }
    let fallback = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/debug/throbber")
    guard FileManager.default.isExecutableFile(atPath: fallback.path) else {
        throw CLITestError("cannot find the throbber binary near \(CommandLine.arguments[0]); set THROBBER_BINARY")
    }
    return fallback
}

public struct CLITestError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Runs `throbber ARGUMENTS…` (in `directory` when given) and collects its exit status and output.
///
/// - Parameter launcher: a command that runs it, found on PATH, with its arguments before the
///   binary's path (`["taskset", "-c", "0"]`); none by default.
public func runThrobber(_ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil,
                        launcher: [String] = []) throws -> CommandResult {
    let process = Process()
    if launcher.isEmpty {
        process.executableURL = try throbberBinary()
        process.arguments = arguments
    } else {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = launcher + [try throbberBinary().path] + arguments
    }
    if let directory { process.currentDirectoryURL = directory }
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read both pipes to the end before waiting, so a chatty child never blocks on a full pipe.
    let errData = DispatchQueue.global().sync { () -> Data in
        let group = DispatchGroup()
        nonisolated(unsafe) var data = Data()
        group.enter()
        DispatchQueue.global().async {
            data = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        return outData + Data([0]) + data
    }
    process.waitUntilExit()
    let split = errData.firstIndex(of: 0)!
    return CommandResult(status: process.terminationStatus,
                         stdout: String(decoding: errData[..<split], as: UTF8.self),
                         stderr: String(decoding: errData[(split + 1)...], as: UTF8.self))
}

/// Runs `throbber ARGUMENTS…` under GNU time: its exit, output and peak resident memory (`%M`,
/// in KiB). With `killAfter`, the run is ended with SIGKILL after that many seconds (exit 137),
/// so a run that would hang fails its test instead of stalling the suite.
public func runThrobberMeasured(_ arguments: [String], killAfter: Int? = nil,
                                in directory: URL? = nil) throws -> (status: Int32, stdout: String, stderr: String, peakKiB: Int) {
    let report = FileManager.default.temporaryDirectory.appendingPathComponent("rss-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    defer { try? FileManager.default.removeItem(at: report) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
    let limit = killAfter.map { ["/usr/bin/timeout", "-s", "KILL", "\($0)"] } ?? []
    process.arguments = ["-f", "%M", "-o", report.path] + limit + [try throbberBinary().path] + arguments
    if let directory { process.currentDirectoryURL = directory }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let peak = Int(try String(contentsOf: report, encoding: .utf8).split(separator: "\n").last.map(String.init) ?? "") ?? Int.max
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self), peak)
}

/// A fresh empty directory, removed by the caller.
public func temporaryDirectory(_ name: String = #function) throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("throbber-cli-\(getpid())-\(name.filter(\.isLetter))-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The non-hidden files of a directory, sorted.
public func listing(_ directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
}
