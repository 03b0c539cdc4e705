import Throbber

/// The rules a job's clips meet together, written once: `Job.init` applies them to the clips it
/// is given, and the job-file reader to each render's clips as it reads them (so an error points
/// at the render).
///
/// - The job's frames in all are at most `Limits.frames`: planning holds a unit per PNG frame of
///   the whole job, and contiguous shards multiply frame offsets by the shard count.
/// - No two clips write one file (a PNG pattern's placeholders stand for its own clip's name,
///   scene and scale); a character device (`/dev/null`) is written into by any number of outputs.
/// - At most one output goes to standard output.
struct JobRules {
    private var totalFrames = 0
    private var claimed: [String: (label: String, line: Int)] = [:]
    private var stdoutUsers: [String] = []

    /// Admits `clip` after the clips admitted before it.
    ///
    /// - Throws: a usage error naming the clip, and for a shared file the file and the clip that
    ///   writes it too.
    mutating func admit(_ clip: Clip) throws {
        totalFrames += clip.frameCount
        guard totalFrames <= Limits.frames else {
            throw ThrobberError("\(clip.label) brings the job's frames to \(totalFrames) in all; at most \(Limits.frames)", kind: .usage)
        }
        for output in clip.outputs {
            guard output.path != "-" else {
                stdoutUsers.append(clip.label)
                continue
            }
            let path = if case .png(let pattern, _) = output {
                FramePattern.expandingPlaceholdersOnly(pattern.description, name: clip.name, scene: clip.scene.model.id,
                                                       scale: clip.scene.scale)
            } else { output.path }
            if AtomicFile.isCharacterDevice(path) { continue }
            if let other = claimed[path] {
                let line = other.line > 0 ? " (line \(other.line))" : ""
                throw ThrobberError("\(clip.label) writes \(path), which \(other.label)\(line) writes too; give them different names or paths",
                                    kind: .usage)
            }
            claimed[path] = (clip.label, clip.line)
        }
    }

    /// Checks what only the whole job can break.
    ///
    /// - Throws: a usage error naming every clip that writes to standard output, when more than one does.
    func finish() throws {
        guard stdoutUsers.count <= 1 else {
            throw ThrobberError("only one output can go to stdout (\"-\"); \(stdoutUsers.joined(separator: ", ")) all do", kind: .usage)
        }
    }
}
