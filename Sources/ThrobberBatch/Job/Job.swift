import Foundation
import Throbber
import ThrobberDigest
import ThrobberRender

/// A batch job: a list of renders, each a scene with parameters at one or more scales, and the
/// outputs to write. Read from a JSON job file (see `examples/`, ``load(path:baseDirectory:)``)
/// or built in code (``init(name:backend:clips:)``), and checked whole, by the same rules, before
/// any frame is rendered.
public struct Job: Sendable {
    /// The job file's path, for messages.
    public var path: String
    /// SHA-256 of the job file's bytes: shards of one job carry the same digest.
    public var digest: String
    /// The backend named in the file, if any (the command line overrides it).
    public var backend: Backend?
    /// Every clip: one render at one scale.
    public var clips: [Clip]
    /// Whether `path` is a job file (read by `load`) that a run must never write over; a job
    /// built in code has only a name there.
    public var isFile = true
}

extension Job {
    /// A job built in code, checked as a job file is (``JobRules``): its frames in all within
    /// `Limits.frames`, no two clips writing one file, at most one output to stdout. Placeholders
    /// in PNG patterns are filled per clip; relative paths are relative to the current directory.
    ///
    /// - Parameters:
    ///   - name: the job's name in messages and in its manifest (where a file's path would be).
    ///   - backend: the backend the job asks for (a caller may override it).
    /// - Throws: `.usage` naming the clip, or the clips, at fault.
    public init(name: String, backend: Backend? = nil, clips: [Clip]) throws {
        var rules = JobRules()
        for clip in clips { try rules.admit(clip) }
        try rules.finish()
        // The digest stands for the job file's bytes: here, for a description of every clip.
        let description = clips.map { clip in
            "\(clip.label) \(clip.scene.model.parameterInfos.map { "\($0.name)=\($0.defaultValue)" }.joined(separator: " ")) "
                + "fps=\(clip.fps) start=\(clip.start) frames=\(clip.frameCount) outputs=\(clip.outputs.map(\.path))"
                + (clip.chain.isEmpty ? "" : " chain=\(FrameText.chainText(clip))")
        }.joined(separator: "\n")
        self.init(path: name, digest: SHA256.hex(Array(description.utf8)), backend: backend, clips: clips, isFile: false)
    }

    /// The video containers `video` outputs can write, by file extension.
    public static let videoExtensions = ["gif", "webp", "apng", "mp4", "webm"]

    /// The longest render `name`, in bytes: a file name's limit on Linux file systems
    /// (NAME_MAX), since `{name}` may be a whole path component.
    public static let longestName = 255
    /// The longest component of an output path, in bytes (NAME_MAX).
    public static let longestFileName = 255
    /// The longest output path, in bytes (PATH_MAX less its terminating NUL).
    public static let longestPath = 4095

    /// Why `path` cannot be a file name on Linux, or nil: a component over ``longestFileName``
    /// bytes, or the whole over ``longestPath``. Checked on every output before the first frame,
    /// so a run is refused at once instead of failing at the frame that reaches the limit.
    public static func pathLengthProblem(_ path: String) -> String? {
        let bytes = path.utf8
        if bytes.count > longestPath { return "is \(bytes.count) bytes long; a path is at most \(longestPath)" }
        var run = 0
        for byte in bytes {
            if byte == UInt8(ascii: "/") { run = 0; continue }
            run += 1
            if run > longestFileName {
                return "has a component over \(longestFileName) bytes (the longest file name Linux takes)"
            }
        }
        return nil
    }

    /// Reads and validates a job file (``JobFileReader``): every render made into clips by
    /// `Clip`'s rules and checked together by the job's (``JobRules``), as a job built in code is.
    ///
    /// - Parameters:
    ///   - baseDirectory: what relative output paths are relative to (default: the job file's directory).
    /// - Throws: a data error `FILE:LINE:COLUMN: message` for the first problem; `noInput` when the
    ///   file cannot be read (with the reason).
    public static func load(path: String, baseDirectory: String? = nil) throws -> Job {
        let data = try InputFile.read(path, what: "job file")
        let text = String(decoding: data, as: UTF8.self)
        // Relative outputs sit beside the job file, or, for a job read from a pipe such as
        // `<(echo …)` (whose directory is /dev/fd or /proc), in the current directory.
        let base = baseDirectory ?? (isStream(path) ? FileManager.default.currentDirectoryPath
                                                    : URL(fileURLWithPath: path).deletingLastPathComponent().path)
        let root: JSONNode
        do {
            root = try JSONNode.parse(text)
        } catch let error as JSONParseError {
            throw ThrobberError("\(path):\(error.line):\(error.column): \(error.message)", kind: .badData)
        }
        var job = try JobFileReader(path: path, base: base).job(root)
        job.digest = SHA256.hex(data)
        return job
    }

    /// Where a job's manifest goes by default, without `.manifest.json` or the shard suffix: beside
    /// the job file, named after it; for a job read from a pipe such as `<(echo …)`, whose
    /// directory (/dev/fd) cannot hold files, `job` in the current directory.
    public static func manifestStem(forJobAt path: String) -> String {
        if isStream(path) { return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("job").path }
        return URL(fileURLWithPath: path).deletingPathExtension().path
    }

    /// Whether `path` is read as a stream (a pipe such as `<(echo …)`, a device) rather than a
    /// file in a directory of its own: by what it is, not where — a job in /dev/shm (tmpfs) is a
    /// file like any other.
    static func isStream(_ path: String) -> Bool { InputFile.isStream(path) }
}

extension FramePattern {
    /// `text` with `{name}`, `{scene}`, `{scale}` filled in and the frame directive left as it is.
    static func expandingPlaceholdersOnly(_ text: String, name: String, scene: String, scale: Double) -> String {
        text.replacingOccurrences(of: "{name}", with: name).replacingOccurrences(of: "{scene}", with: scene)
            .replacingOccurrences(of: "{scale}", with: formatNumber(scale))
    }
}
