import Foundation
import Testing
@testable import Throbber
@testable import ThrobberBatch

/// Each clip and job rule is written once: a clip built in code and a job file's render that
/// break the same rule get the same message (the file's adds where), naming the field, the value
/// and what is allowed.
struct ClipRulesTests {
    let ring = Scene(try! SceneRegistry.model("ring"))

    func codeError(_ body: () throws -> Void) -> ThrobberError? {
        do {
            try body()
            return nil
        } catch {
            return error as? ThrobberError
        }
    }

    /// The code's message, and the job file's: the same text after the file's `path:line:column: `.
    func expectSame(_ code: ThrobberError?, _ file: ThrobberError?, _ fragment: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(code?.kind == .usage && file?.kind == .badData, sourceLocation: sourceLocation)
        let message = code?.message ?? "(no error)"
        #expect(message.contains(fragment), "\(message)", sourceLocation: sourceLocation)
        #expect(file?.message.hasSuffix(": " + message) == true, "\(file?.message ?? "(no error)") ≠ …\(message)", sourceLocation: sourceLocation)
    }

    @Test func aClipsSettingsGetOneMessage() throws {
        let output = try Output.pngSequence("/out/f_%05d.png")
        expectSame(codeError { _ = try Clip(scene: ring, frames: 0, outputs: [output]) },
                   jobError(#"{"renders": [{"scene": "ring", "frames": 0}]}"#), "invalid frames 0: an integer in [1, 10000000]")
        expectSame(codeError { _ = try Clip(scene: ring, frames: 1, fps: 0, outputs: [output]) },
                   jobError(#"{"renders": [{"scene": "ring", "fps": 0}]}"#), "invalid fps 0: a number > 0 in [0.001, 1000]")
        expectSame(codeError { _ = try Clip(scene: ring, frames: 1, start: -1, outputs: [output]) },
                   jobError(#"{"renders": [{"scene": "ring", "start": -1}]}"#), "invalid start -1")
        expectSame(codeError { _ = try Clip(name: "..", scene: ring, frames: 1, outputs: [output]) },
                   jobError(#"{"renders": [{"scene": "ring", "name": ".."}]}"#), "invalid name \"..\": letters, digits")
        #expect(codeError { _ = try Clip(name: "..", scene: ring, frames: 1, outputs: [output]) }?.field == "name")
    }

    @Test func anOutputsSettingsGetOneMessage() throws {
        let sheet = { (columns: Int?, maxSize: Int) in
            Output.sheet(path: "/out/s.png", json: "/out/s.json", columns: columns, maxSize: maxSize, encoder: .libdeflate(level: 12))
        }
        expectSame(codeError { _ = try Clip(scene: ring, frames: 3, outputs: [sheet(0, 4096)]) },
                   jobError(#"{"renders": [{"scene": "ring", "frames": 3, "outputs": [{"type": "sheet", "path": "s.png", "columns": 0}]}]}"#),
                   "invalid columns 0: an integer in [1, 10000]")
        expectSame(codeError { _ = try Clip(scene: ring, frames: 3, outputs: [sheet(nil, 65536)]) },
                   jobError(#"{"renders": [{"scene": "ring", "frames": 3, "outputs": [{"type": "sheet", "path": "s.png", "maxSize": 65536}]}]}"#),
                   "invalid maxSize 65536: an integer in [1, 65535]")
        expectSame(codeError { _ = try Clip(scene: ring, frames: 3, outputs: [sheet(nil, 50)]) },
                   jobError(#"{"renders": [{"scene": "ring", "frames": 3, "outputs": [{"type": "sheet", "path": "s.png", "maxSize": 50}]}]}"#),
                   "ring@1x: invalid maxSize 50")
        let webp = Output.video(path: "/out/r.webp", settings: VideoSettings(matte: RGBA(0, 0, 0, 1)))
        expectSame(codeError { _ = try Clip(scene: ring, frames: 3, outputs: [webp]) },
                   jobError(##"{"renders": [{"scene": "ring", "frames": 3, "outputs": [{"type": "video", "path": "r.webp", "matte": "#000000"}]}]}"##),
                   "\"matte\" applies to .gif and .mp4 videos")
        expectSame(codeError { _ = try Clip(scene: ring, frames: 3, outputs: [.video(path: "/out/r.avi")]) },
                   jobError(#"{"renders": [{"scene": "ring", "frames": 3, "outputs": [{"type": "video", "path": "r.avi"}]}]}"#),
                   "a video path must end in .gif, .webp, .apng, .mp4 or .webm")
    }

    @Test func aJobsClipsGetOneMessage() throws {
        let clip = try Clip(scene: ring, frames: 2, outputs: [try Output.pngSequence("/out/{name}@{scale}x_%05d.png")])
        let shared = codeError { _ = try Job(name: "j", clips: [clip, clip]) }
        #expect(shared?.message == "ring@1x writes /out/ring@1x_%05d.png, which ring@1x writes too; give them different names or paths")
        let file = jobError(#"{"renders": [{"scene": "ring"}, {"scene": "ring"}]}"#)
        #expect(file?.message.hasSuffix("ring@1x writes /out/ring@1x_%05d.png, which ring@1x (line 1) writes too; give them different names or paths") == true,
                "\(file?.message ?? "")")
        let streams = try Clip(scene: ring, frames: 2, outputs: [.rgba(path: "-")])
        expectSame(codeError { _ = try Job(name: "j", clips: [streams, streams]) },
                   jobError(#"{"renders": [{"scene": "ring", "outputs": [{"type": "rgba"}]}, {"scene": "ring", "outputs": [{"type": "y4m"}]}]}"#),
                   "only one output can go to stdout (\"-\"); ring@1x, ring@1x all do")
        // The job's frames in all, for a job built in code too.
        let big = try Clip(scene: ring, frames: Limits.frames, outputs: [.rgba(path: "/dev/null")])
        #expect(codeError { _ = try Job(name: "j", clips: [big, big]) }?.message
                == "ring@1x brings the job's frames to \(2 * Limits.frames) in all; at most \(Limits.frames)")
        // Any number of outputs may write into one character device.
        #expect(codeError { _ = try Job(name: "j", clips: [big]) } == nil)
    }

    @Test func aRenderGivesScaleOrScales() {
        #expect(jobError(#"{"renders": [{"scene": "ring", "scale": 2, "scales": [1, 2]}]}"#)?.message.contains("give \"scale\" or \"scales\", not both") == true)
    }

    /// Outputs hold the encoder parsed once, by the job file's reader: `auto` stays `auto` until a
    /// clip's size resolves it.
    @Test func outputsHoldTheirEncoder() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(UUID().uuidString).json")
        try #"{"pngEncoder": "fast", "renders": [{"scene": "ring", "outputs": [{"type": "png"}, {"type": "sheet", "path": "s.png"}, {"type": "png", "pattern": "b_%05d.png", "encoder": "auto"}]}]}"#
            .write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let outputs = try Job.load(path: url.path, baseDirectory: "/out").clips[0].outputs
        guard case .png(_, let frames) = outputs[0], case .sheet(let settings) = outputs[1], case .png(_, let automatic) = outputs[2] else {
            Issue.record("\(outputs)")
            return
        }
        #expect(frames == .isal(level: 1) && settings.encoder == .isal(level: 1) && automatic == .automatic)
    }
}
