import Foundation
import Throbber
import ThrobberDigest

extension BatchRun {
    /// Exports every Lottie output this shard writes (those of the clips whose frame 0 it takes),
    /// in job order, for `preflight` to hold until the clip runs: the export is the slow part and
    /// the one that can refuse a scene, so it happens before anything is written.
    ///
    /// - Returns: each output's bytes by path.
    /// - Throws: the exporter's refusal, naming the job, the render's line, the clip and the
    ///   output (a data error when the job is a file, as every error of its renders is);
    ///   `.interrupted` once the run is asked to stop.
    func exportLottieOutputs() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for unit in units where unit.frames.lowerBound == 0 {
            let clip = job.clips[unit.clip]
            for case .lottie(let path, let tolerance) in clip.outputs {
                if let reason = cancellation.cancellationReason {
                    throw ThrobberError.interrupted(reason, "while exporting \(clip.label)'s Lottie output before the first frame")
                }
                do {
                    files[path] = try LottieOutput.data(for: clip, path: path, tolerance: tolerance)
                } catch let error as ThrobberError where error.kind != .interrupted {
                    let kind: ThrobberError.Kind = job.isFile && error.kind == .usage ? .badData : error.kind
                    throw ThrobberError("\(job.path):\(clip.line): \(clip.label)'s lottie output \(ThrobberError.shownPath(path)): \(error.message)",
                                        kind: kind)
                }
            }
        }
        return files
    }

    /// Writes `clip`'s Lottie outputs as `preflight` exported them, each whole, and lists each
    /// in the manifest. With `skipExisting`, a file whose bytes are the export is kept; anything
    /// else there is replaced and said so, as a video is.
    func writeLottieOutputs(of clip: Clip, tally: RunTally) throws {
        for output in clip.outputs {
            guard case .lottie(let path, _) = output, let data = lottieFiles[path], let file = output.artifactFiles(in: clip).first else { continue }
            let digest = SHA256.hex(data)
            if skipExisting, AtomicFile.holdsFile(path) {
                if (try? InputFile.digest(path, what: file.type).sha256) == digest {
                    tally.records.add(Manifest.Artifact(clip: clip.label, type: file.type, file: path, sha256: digest))
                    continue
                }
                tally.replaced.append(ResumeRefusal(file: path, why: "its bytes are not the \(file.role) this run exports"))
            }
            try AtomicFile.write(data, toPath: path, overwrite: overwrite || skipExisting)
            if manifestPath != nil {
                tally.records.add(Manifest.Artifact(clip: clip.label, type: file.type, file: path, sha256: digest))
            }
        }
    }
}
