import Foundation
import Throbber
import ThrobberPNG
import ThrobberBatch
import ThrobberRender

/// `throbber render`: a clip of one scene as a PNG sequence.
enum RenderCommand: Subcommand {
    static var help: String { """
        USAGE: throbber render SCENE -o DIR [options]

        Renders frames of SCENE and writes DIR/SCENE_00000.png, SCENE_00001.png, …
        SCENE is a built-in scene's id or a scene file (a path with '/' or ending in .json;
        docs/scene-files.md), whose frames are named after the file's id.
        Frame k is sampled at t = start + k / fps seconds.

        OPTIONS:
        \(OptionSpec.helpTable([output, frames, fps, start] + SceneOptions.all + BackendOptions.all + [BackendOptions.shaderDirectory]
                                + PNGOptions.all + [threads, overwrite, OptionSpec.quiet, OptionSpec.helpFlag]))

        Existing frames are refused before anything is rendered unless --overwrite; a frame path
        that is a character device or FIFO is written into (never replaced), a directory, block
        device or socket is refused. Stopped by SIGINT or SIGTERM, it finishes the frames in
        flight, leaves no partial file and exits 130.

        EXAMPLE:
          throbber render wave-ball --frames 120 --scale 2 --progress 0.7 -o out
        """ }

    static let output = OptionSpec("-o", "--output", value: "DIR", help: "directory for the frames (created if missing)")
    static let frames = OptionSpec("--frames", value: "N", .integer(1...1_000_000), default: "1", help: "number of frames (default {default})")
    static let fps = OptionSpec("--fps", value: "F", .number(Limits.fpsRange), default: "60",
                                help: "frames per second (default {default}; a Lottie file's own frame rate)")
    static let start = OptionSpec("--start", value: "T", .number(Limits.timeRange), default: "0",
                                  help: "time of frame 0 in seconds, ≥ {min} (default {default})")
    /// Its default, the CPUs this process may use, is worked out as it is read.
    static let threads = OptionSpec("--threads", value: "N", .integer(BatchCommand.threadRange), help: """
        threads rendering and encoding, {min} to {max} (default: the CPUs
        this process may use, after its affinity mask and cgroup
        quota; see throbber info)
        """)
    static let overwrite = OptionSpec("--overwrite", help: "replace frames that exist already (default: refuse)")

    static let options = SceneOptions.all + BackendOptions.all + PNGOptions.all + [
        output, frames, fps, start, BackendOptions.shaderDirectory, threads, overwrite, OptionSpec.quiet,
    ]

    static func execute(_ arguments: ParsedArguments) throws {
        guard let sceneID = arguments.positionals.first else {
            throw ThrobberError("render needs a SCENE (one of \(SceneRegistry.ids.joined(separator: ", "))); see throbber render --help",
                                kind: .usage)
        }
        guard arguments.positionals.count == 1 else {
            throw ThrobberError("render takes one SCENE, got: \(arguments.positionals.joined(separator: " "))", kind: .usage)
        }
        let scene = try SceneOptions.scene(sceneID, arguments)
        guard let output = arguments.value(Self.output) else {
            throw ThrobberError("render needs an output directory: -o DIR", kind: .usage)
        }
        let frames = try arguments.integer(Self.frames)
        let fps = try arguments.number(Self.fps, default: scene.model.naturalFPS)
        let start = try arguments.number(Self.start)
        try Limits.checkTimeline(start: start, fps: fps, frames: frames, fpsField: Self.fps.canonical)
        let (backend, device) = try BackendOptions.parse(arguments)
        let encoder = try PNGOptions.encoder(arguments)
        let threads = try arguments.integer(Self.threads, default: UsableCPUs.current.usable)
        let overwrite = arguments.has(Self.overwrite)
        let quiet = arguments.has(OptionSpec.quiet)

        // Everything the user can get wrong is checked before the first frame is rendered: the
        // canvas against the backend here, the files by the batch pipeline's preflight.
        let directory = URL(fileURLWithPath: output, isDirectory: true)
        let renderer = try FrameRenderer(backend, device: device, shaders: BackendOptions.shaders(arguments, backend: backend),
                                         cpuThreads: threads)
        let (width, height) = scene.pixelSize
        try renderer.checkCanvas(width: width, height: height)
        // A one-clip job without a manifest: the same PNG-sequence writer as `batch`.
        let pattern = FramePattern(literalPrefix: directory.appendingPathComponent("\(scene.model.id)_").path, width: 5, suffix: ".png")
        let clip = try Clip(scene: scene, frames: frames, fps: fps, start: start,
                            outputs: [.png(pattern: pattern, encoder: encoder)])
        let written = ProgressCount()
        let run = BatchRun(job: try Job(name: "render", clips: [clip]), backend: renderer.backend, overwrite: overwrite, threads: threads,
                           manifestPath: nil, outputSource: .commandLine, cancellation: Interrupts.shared,
                           progress: { written.add($0) })
        let summary: BatchRun.Summary
        do {
            summary = try run.execute(renderer: renderer)
        } catch let error as ThrobberError where error.kind == .interrupted {
            throw ThrobberError.interrupted(Interrupts.shared.signal,
                                            "after writing \(written.value) of \(frames) frames to \(directory.path); nothing partial was left")
        } catch var error as ThrobberError where error.remedy == .overwriteOrKeep {
            // render has no --skip-existing: the only way on is --overwrite.
            error.remedy = .overwrite
            throw error
        }
        if !quiet {
            FileHandle.standardError.write(Data(String(
                format: "wrote %d frame%@ of %@ (%d×%d px, %@) to %@ in %.2f s (%.1f frames/s)%@\n",
                frames, frames == 1 ? "" : "s", sceneID, width, height, renderer.description, directory.path,
                summary.seconds, Double(frames) / max(summary.seconds, 1e-9),
                summary.pngChoices.first.map { "; PNG \($0.choice)" } ?? "").utf8))
        }
    }
}
