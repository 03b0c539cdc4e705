import Foundation
import Throbber
import ThrobberPNG
import ThrobberBatch
import ThrobberRender

/// `throbber render`: a clip of one scene as a PNG sequence.
enum RenderCommand: Subcommand {
    static let help = """
        USAGE: throbber render SCENE -o DIR [options]

        Renders frames of SCENE and writes DIR/SCENE_00000.png, SCENE_00001.png, …
        Frame k is sampled at t = start + k / fps seconds.

        OPTIONS:
          -o, --output DIR       directory for the frames (created if missing)
          --frames N             number of frames (default 1)
          --fps F                frames per second (default 60)
          --start T              time of frame 0 in seconds, ≥ 0 (default 0)
        \(SceneOptions.help)
        \(BackendOptions.help)
          --shader-dir DIR       load the GLSL from DIR instead of the copy built in (GL backends)
        \(PNGOptions.help)
          --overwrite            replace frames that exist already (default: refuse)
          -q, --quiet            print nothing on success
          -h, --help             show this help

        Existing frames are refused before anything is rendered unless --overwrite; a frame path
        that is a character device or FIFO is written into (never replaced), a directory, block
        device or socket is refused. Stopped by SIGINT or SIGTERM, it finishes the frames in
        flight, leaves no partial file and exits 130.

        EXAMPLE:
          throbber render wave-ball --frames 120 --scale 2 --progress 0.7 -o out
        """

    static let options = SceneOptions.specs + BackendOptions.specs + PNGOptions.specs + [
        OptionSpec("-o", "--output"), OptionSpec("--frames"), OptionSpec("--fps"), OptionSpec("--start"),
        OptionSpec("--shader-dir"), OptionSpec("--overwrite", value: false), OptionSpec("-q", "--quiet", value: false),
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
        guard let output = arguments.value("--output") else {
            throw ThrobberError("render needs an output directory: -o DIR", kind: .usage)
        }
        let frames = try arguments.integer("--frames", default: 1, range: 1...1_000_000)
        let fps = try arguments.number("--fps", default: 60, range: .above(0))
        let start = try arguments.number("--start", default: 0, range: .atLeast(0))
        try Limits.checkTimeline(start: start, fps: fps, frames: frames, fpsField: "--fps")
        let (backend, device) = try BackendOptions.parse(arguments)
        let encoder = try PNGOptions.encoder(arguments)
        let overwrite = arguments.has("--overwrite")
        let quiet = arguments.has("--quiet")

        // Everything the user can get wrong is checked before the first frame is rendered.
        let directory = URL(fileURLWithPath: output, isDirectory: true)
        let files = (0..<frames).map { directory.appendingPathComponent(String(format: "%@_%05d.png", sceneID, $0)) }
        // What is there is classified as the writer will treat it, before anything is written:
        // a directory, block device or socket is refused now, a device or FIFO needs no --overwrite.
        var claims = OutputClaims()
        for file in files { try claims.claimOutput(file.path, role: "frame", source: .commandLine) }
        if !overwrite, let existing = claims.existingFiles.first {
            throw ThrobberError("\(existing) exists; pass --overwrite to replace it", kind: .cannotCreate)
        }
        try AtomicFile.prepareDirectory(directory)
        let renderer = try FrameRenderer(backend, device: device, shaders: BackendOptions.shaders(arguments.value("--shader-dir"), backend: backend))
        let (width, height) = scene.pixelSize
        guard width <= renderer.maxCanvasSide, height <= renderer.maxCanvasSide else {
            throw ThrobberError.invalid("canvas", "\(width)×\(height) px",
                                        allowed: "each side at most \(renderer.maxCanvasSide) px on \(renderer.description)")
        }

        let pool = EncodePool()
        let clock = ContinuousClock()
        let began = clock.now
        let chunk = renderer.framesPerDraw(width: width, height: height)
        let perJob = BatchRun.framesPerJob(width: width, height: height)
        let text = FrameText(scene)
        let paths = files.map(\.path)
        let time: @Sendable (Int) -> Double = { start + Double($0) / fps }
        /// Encodes frame `index` and writes its file.
        let writeFrame: @Sendable (Int, Image) throws -> Void = { index, image in
            try AtomicFile.write(try encoder.encode(image, text: text.chunks(t: time(index))), toPath: paths[index], overwrite: overwrite)
        }
        var submitted = 0
        // From here a signal stops the loop between frames: the frames in flight are finished
        // (each file appears whole) and the command exits 130.
        let interrupts = Interrupts.shared
        var loopError: Error?
        interrupts.whileFinishing {
            do {
                if let workers = renderer.frameWorkers() {
                    // The CPU renderer: each encode job draws, encodes and writes its own frames.
                    for first in stride(from: 0, to: files.count, by: perJob) {
                        if pool.error != nil || interrupts.signal != nil { break }
                        let indices = Array(first..<min(files.count, first + perJob))
                        pool.submit {
                            try workers.renderEach(indices, drawList: { scene.drawList(at: time($0)) }, writeFrame)
                        }
                        submitted += indices.count
                    }
                } else {
                    // GL: this thread renders stacks of frames; jobs encode and write them.
                    var group: [(Int, Image)] = []
                    func submitGroup() {
                        let frames = group
                        group = []
                        guard !frames.isEmpty else { return }
                        pool.submit {
                            for (index, image) in frames { try writeFrame(index, image) }
                        }
                        submitted += frames.count
                    }
                    chunks: for first in stride(from: 0, to: files.count, by: chunk) {
                        if interrupts.signal != nil { break chunks }
                        let indices = first..<min(files.count, first + chunk)
                        let images = try renderer.render(indices.map { scene.drawList(at: time($0)) })
                        for (index, image) in zip(indices, images) {
                            if pool.error != nil || interrupts.signal != nil { break chunks }
                            group.append((index, image))
                            if group.count >= perJob { submitGroup() }
                        }
                    }
                    if pool.error == nil && interrupts.signal == nil { submitGroup() }
                }
            } catch {
                loopError = error
            }
            // Let the frames in flight land (whole) before reporting anything.
            do { try pool.finish() } catch { loopError = loopError ?? error }
        }
        if let loopError { throw loopError }
        if let signal = interrupts.signal {
            throw ThrobberError.interrupted(signal, "after writing \(submitted) of \(frames) frames to \(directory.path); nothing partial was left")
        }
        let seconds = (clock.now - began).seconds
        if !quiet {
            let rate = Double(frames) / max(seconds, 1e-9)
            FileHandle.standardError.write(Data(String(
                format: "wrote %d frame%@ of %@ (%d×%d px, %@) to %@ in %.2f s (%.1f frames/s)\n",
                frames, frames == 1 ? "" : "s", sceneID, width, height, renderer.description, directory.path,
                seconds, rate).utf8))
        }
    }
}
