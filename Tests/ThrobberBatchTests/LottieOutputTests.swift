import Foundation
import Testing
@testable import Throbber
@testable import ThrobberBatch
import ThrobberDigest
import ThrobberRender
import ThrobberTestSupport

/// A job's `lottie` output (issue 51 point 4): read with the other outputs' rules and wording,
/// exported over the clip's span before anything is written, written once per render, listed in
/// the manifest and never written over unasked.
struct LottieOutputTests {
    let ring = Scene(try! SceneRegistry.model("ring"))

    /// A job file's text written into `directory` and read, its outputs relative to the directory.
    func load(_ text: String, in directory: URL) throws -> Job {
        let url = directory.appendingPathComponent("job.json")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return try Job.load(path: url.path)
    }

    func expectRefused(_ outputs: String, _ fragments: [String], render: String = "\"scene\": \"ring\"",
                       sourceLocation: SourceLocation = #_sourceLocation) {
        let error = jobError("{\"renders\": [{\(render), \"outputs\": [\(outputs)]}]}")
        #expect(error?.kind == .badData, "\(error?.message ?? "(no error)")", sourceLocation: sourceLocation)
        let message = error?.message ?? "(no error)"
        #expect(fragments.allSatisfy { message.contains($0) }, "\(message)", sourceLocation: sourceLocation)
    }

    /// A run of `job` on the CPU renderer, its manifest beside the job file.
    func run(_ job: Job, overwrite: Bool = false, skipExisting: Bool = false) throws -> BatchRun.Summary {
        let manifest = URL(fileURLWithPath: job.path).deletingPathExtension().path + ".manifest.json"
        return try BatchRun(job: job, backend: .cpu, overwrite: overwrite, skipExisting: skipExisting, threads: 2,
                            manifestPath: manifest).execute()
    }

    func lottieJSON(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        return try #require(object as? [String: Any], sourceLocation: sourceLocation)
    }

    @Test func jobFilesAcceptLottieAndDotLottiePathsWithATolerance() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let job = try load("""
            {"renders": [{"scene": "ring", "frames": 4, "outputs": [{"type": "lottie", "path": "out/{name}-{scene}.json"},
                                                                    {"type": "lottie", "path": "out/{name}.lottie", "tolerance": 0.25}]}]}
            """, in: directory)
        guard case .lottie(let json, let tolerance) = job.clips[0].outputs[0], case .lottie(let archive, let given) = job.clips[0].outputs[1] else {
            Issue.record("not lottie outputs: \(job.clips[0].outputs)")
            return
        }
        #expect(json == directory.path + "/out/ring-ring.json" && tolerance == 0.01)
        #expect(archive == directory.path + "/out/ring.lottie" && given == 0.25)
        #expect(job.clips[0].outputs.map { $0.artifactFiles(in: job.clips[0]).map(\.type) } == [["lottie"], ["dotlottie"]])
        #expect(!job.clips[0].outputs[0].takesFrames && !job.clips[0].outputs[0].isOrdered)
    }

    /// Scale-free: written once, with the render's first scale; a render whose only output is a
    /// Lottie draws no frame at any scale.
    @Test func aRenderWithSeveralScalesWritesItsLottieOnce() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let job = try load("""
            {"renders": [{"scene": "ring", "scales": [2, 1, 3], "frames": 4,
                          "outputs": [{"type": "png", "pattern": "f/{name}@{scale}x_%03d.png"}, {"type": "lottie", "path": "{name}.json"}]},
                         {"scene": "activity", "scales": [1, 2], "frames": 4, "outputs": [{"type": "lottie", "path": "{name}.json"}]}]}
            """, in: directory)
        #expect(job.clips.map(\.label) == ["ring@2x", "ring@1x", "ring@3x", "activity@1x"])
        #expect(job.clips.map { $0.outputs.filter { !$0.takesFrames }.count } == [1, 0, 0, 1])
        #expect(ShardPlan.units(of: job).filter { $0.clip == 3 } == [WorkUnit(clip: 3, frames: 0..<1)], "a clip of no frames is one unit")
        let manifest = Manifest(job: job, shard: .whole, frames: [], artifacts: [])
        #expect(manifest.plannedFrames == 12 && manifest.plannedArtifacts == 2)
    }

    @Test func refusedValuesNameTheFieldTheValueAndWhatIsAllowed() {
        expectRefused("{\"type\": \"lottie\", \"path\": \"a.json\", \"tolerance\": 0}", [":1:", "invalid tolerance 0: a number in [0.001, 1]"])
        expectRefused("{\"type\": \"lottie\", \"path\": \"a.json\", \"tolerance\": 1.5}", ["invalid tolerance 1.5: a number in [0.001, 1]"])
        expectRefused("{\"type\": \"lottie\", \"path\": \"a.json\", \"tolerance\": \"fine\"}", ["\"tolerance\" must be a number"])
        expectRefused("{\"type\": \"lottie\", \"path\": \"a.json\", \"fps\": 30}",
                      ["\"fps\" does not apply to a lottie output (it takes type, path, tolerance)"])
        expectRefused("{\"type\": \"lottie\", \"path\": \"a.json\", \"tolerence\": 0.1}", ["unknown key \"tolerence\"", "did you mean \"tolerance\"?"])
        expectRefused("{\"type\": \"lottie\"}", ["a lottie output needs \"path\" ending in .json (Lottie) or .lottie (dotLottie)"])
        expectRefused("{\"type\": \"lottie\", \"path\": \"a.gif\"}", ["a lottie path must end in .json (Lottie) or .lottie (dotLottie), not \"/out/a.gif\""])
        expectRefused("{\"type\": \"lottie\", \"path\": \"-\"}", ["a lottie path must end in .json (Lottie) or .lottie (dotLottie), not \"-\""])
        expectRefused("{\"type\": \"lotie\", \"path\": \"a.json\"}", ["unknown output type \"lotie\"; did you mean \"lottie\"?", "lottie)"])
        expectRefused("{\"type\": \"lottie\", \"path\": \"{name}@{scale}x.json\"}",
                      ["invalid path \"{name}@{scale}x.json\"", "written once per render", "not {scale}"], render: "\"scene\": \"ring\", \"scales\": [1, 2]")
        expectRefused("{\"type\": \"lottie\", \"path\": \"a.json\"}",
                      ["ring@1x: lottie output /out/a.json would hold 36001 frames; an export holds at most 36000 (600 s at 60 fps)"],
                      render: "\"scene\": \"ring\", \"frames\": 36001")
    }

    /// A chain is several scenes on one timeline and the exporter writes one: refused, in a job
    /// file and in code alike, naming the render and the output.
    @Test func aChainRefusesALottieOutput() throws {
        let fromFile = jobError("""
            {"renders": [{"scene": "ring", "chain": [{"frames": 3}, {"frames": 3, "parameters": {"style": "dark"}}],
                          "outputs": [{"type": "png", "pattern": "c_%03d.png"}, {"type": "lottie", "path": "c.json"}]}]}
            """)
        let expected = "ring@1x: lottie output /out/c.json cannot be written for a chain: the export is one scene"
        #expect(fromFile?.kind == .badData && fromFile?.message.contains(":2:") == true && fromFile?.message.contains(expected) == true,
                "\(fromFile?.message ?? "(no error)")")
        #expect {
            try Clip(links: [(ring, 3), (try ring.setting("style", to: "dark"), 3)], outputs: [.lottie(path: "/out/c.json")])
        } throws: { error in
            (error as? ThrobberError)?.kind == .usage && (error as? ThrobberError)?.message.hasPrefix(expected) == true
        }
    }

    /// The file is the clip's span: its canvas the scene's at scale 1 (whatever the clip's
    /// scale), `fr` the clip's rate, `op` its frame count (a loop's whole length), listed in the
    /// manifest with its SHA-256, and `verify` finds it intact.
    @Test func aRunWritesTheClipsSpanAndListsItInTheManifest() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let job = try load("""
            {"renders": [{"scene": "ring", "scales": [2, 3], "fps": 24, "frames": 7, "start": 0.25,
                          "outputs": [{"type": "png", "pattern": "f/{name}@{scale}x_%03d.png"}, {"type": "lottie", "path": "l/{name}.json"}]},
                         {"scene": "wave-ball", "name": "wb", "loop": true, "fps": 30, "outputs": [{"type": "lottie", "path": "l/{name}.lottie"}]}]}
            """, in: directory)
        let summary = try run(job)
        #expect(summary.rendered == 14, "the lottie-only render draws no frame")
        let clip = job.clips[0]
        var unscaled = clip.scene.scene
        unscaled.scale = 1
        let root = try lottieJSON(directory.appendingPathComponent("l/ring.json").path)
        #expect(root["w"] as? Int == unscaled.pixelSize.width && root["h"] as? Int == unscaled.pixelSize.height)
        #expect(unscaled.pixelSize.width * 2 == clip.scene.pixelSize.width, "the clip is at 2x, the Lottie at 1x")
        #expect(root["fr"] as? Double == 24 && root["ip"] as? Int == 0 && root["op"] as? Double == 7)
        // The loop: its frames at its rate, so frame N is frame 0 again.
        let loop = try #require(job.clips.last?.loop)
        let archive = try Data(contentsOf: directory.appendingPathComponent("l/wb.lottie"))
        #expect(archive.prefix(4) == Data([0x50, 0x4b, 0x03, 0x04]), "a ZIP")
        let manifest = try Manifest.load(path: directory.appendingPathComponent("job.manifest.json").path)
        let lotties = manifest.artifacts.filter { $0.type == "lottie" || $0.type == "dotlottie" }
        #expect(lotties.map(\.clip) == ["ring@2x", "wb@1x"] && lotties.map(\.type) == ["lottie", "dotlottie"])
        #expect(lotties.last?.sha256 == SHA256.hex(archive))
        #expect(manifest.plannedArtifacts == 2 && manifest.frames.count == 14)
        #expect(try ManifestVerification(manifests: [directory.appendingPathComponent("job.manifest.json").path]).isIntact)
        // The same bytes `throbber export` writes for the loop's span and rate.
        let wb = try #require(job.clips.last)
        let exported = try LottieOutput.data(for: wb, path: "wb.json", tolerance: 0.01)
        let exportedRoot = try #require(try JSONSerialization.jsonObject(with: exported) as? [String: Any])
        #expect(exportedRoot["op"] as? Double == Double(loop.frames) && exportedRoot["fr"] as? Double == 30)
    }

    /// What is at the path decides, as for a video: refused (73) unless `--overwrite`, kept by
    /// `--skip-existing` only when its bytes are this run's, replaced (and said) otherwise.
    @Test func anExistingFileIsNeverWrittenOverUnasked() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let job = try load("{\"renders\": [{\"scene\": \"ring\", \"frames\": 2, \"outputs\": [{\"type\": \"lottie\", \"path\": \"ring.json\"}]}]}",
                           in: directory)
        let file = directory.appendingPathComponent("ring.json")
        try Data("mine".utf8).write(to: file)
        #expect {
            try run(job)
        } throws: { error in
            (error as? ThrobberError)?.kind == .cannotCreate && (error as? ThrobberError)?.message.contains("ring.json exists") == true
        }
        #expect(try Data(contentsOf: file) == Data("mine".utf8))
        let replaced = try run(job, skipExisting: true)
        #expect(replaced.replaced.map(\.why) == ["its bytes are not the Lottie this run exports"])
        let written = try Data(contentsOf: file)
        #expect(try lottieJSON(file.path)["op"] as? Double == 2)
        let kept = try run(job, skipExisting: true)
        #expect(kept.replaced.isEmpty)
        #expect(try Data(contentsOf: file) == written)
        try Data("mine".utf8).write(to: file)
        _ = try run(job, overwrite: true)
        #expect(try Data(contentsOf: file) == written)
    }

    /// A scene the exporter refuses (a Lottie file's track matte) stops the run with the
    /// exporter's line before anything is written, not even the frames' directory.
    @Test func aRefusedSceneWritesNothing() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../corpus/lottie/matte-alpha.json")
        try FileManager.default.copyItem(at: corpus, to: directory.appendingPathComponent("matte-alpha.json"))
        let job = try load("""
            {"renders": [{"scene": "matte-alpha.json", "frames": 3,
                          "outputs": [{"type": "png", "pattern": "f/%03d.png"}, {"type": "lottie", "path": "o/{name}.json"}]}]}
            """, in: directory)
        #expect {
            try run(job)
        } throws: { error in
            let error = error as? ThrobberError
            return error?.kind == .badData && error?.message.contains("job.json:1: matte-alpha@1x's lottie output ") == true
                && error?.message.contains("which the Lottie export does not write") == true
        }
        #expect(try listing(directory) == ["job.json", "matte-alpha.json"])
    }
}
