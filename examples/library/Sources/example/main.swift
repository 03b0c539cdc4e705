// Throbber as a library: open a renderer, render frames of a scene with parameters set in code,
// encode one as a PNG, then build a batch job in code and run it. Everything goes under the
// directory given as the first argument (default ./example-out); a second run replaces the first's
// files.
import Foundation
import Throbber
import ThrobberBatch
import ThrobberPNG
import ThrobberRender

let outDir = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "example-out"

do {
    // 1. The best renderer on this machine: a GPU through EGL, else the CPU renderer. Its
    //    description says which, and for `auto` why.
    let renderer = try FrameRenderer(.auto)
    print("renderer: \(renderer.description)")

    // 2. A scene with parameters set in code, by their SPEC names (`throbber scenes` lists them);
    //    a value out of range throws, naming the parameter and what is allowed.
    var scene = Scene(try SceneRegistry.model("wave-ball"), scale: 1)
    scene = try scene.setting("progress", to: "0.8")
    scene = try scene.setting("tickLit", to: "#ff9500")
    try scene.validate()
    let (width, height) = scene.pixelSize
    print("scene: \(scene.model.id) at @\(formatNumber(scene.scale))x, \(width)×\(height) px, progress \(scene.model.value(of: "progress") ?? "?")")

    // A frame is a pure function of time: the draw list at t, then the renderer's image. Only a
    // scene whose text is laid out has draw lists: this one paints none (a scene with text is
    // laid out by ThrobberText's `scene.layingOutText()`).
    // The water rises from 0 to the progress level at 50 pt/s, so it is still moving at t = 1 s.
    let laidOut = try LaidOutScene(scene)
    var last: Image?
    for t in [0.0, 1.0, 2.0, 3.0] {
        let image = try renderer.render(laidOut.drawList(at: t))
        let centre = image[width / 2, height / 2]
        print("t = \(formatNumber(t)) s: \(image.width)×\(image.height), centre pixel RGBA (\(centre.r), \(centre.g), \(centre.b), \(centre.a))")
        last = image
    }

    // Encode the last frame with the default PNG setting (auto: ISA-L or libdeflate by size).
    try FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true)
    let stillPath = "\(outDir)/wave-ball-3s.png"
    let png = try PNGEncoder.default.encode(last!, text: [("Title", "wave-ball at t = 3 s")])
    try png.write(to: URL(fileURLWithPath: stillPath))
    print("wrote \(stillPath) (\(png.count) bytes)")

    // 3. A batch job built in code (no JSON): 30 frames at 30 fps of the same scene, written as a
    //    PNG sequence. `{name}` is the clip's name; `%03d` numbers the frames.
    let clip = try Clip(scene: scene, frames: 30, fps: 30, start: 1,
                        outputs: [try .pngSequence("\(outDir)/{name}_%03d.png")])
    let job = try Job(name: "example", clips: [clip])

    // The progress callback is called from the encoding threads, with the number of frames just
    // done: count them under a lock.
    let progress = ProgressLine(total: clip.frameCount, every: 10)
    // A run stops between frames once its cancellation source is set: call `cancel.cancel()`
    // from any thread (a Stop button, a signal handler) and `execute()` lets the frames in
    // flight land whole, then throws `.interrupted`. Here nothing cancels it.
    let cancel = CancellationFlag()
    let manifest = "\(outDir)/example.manifest.json"
    let run = BatchRun(job: job, backend: .auto, overwrite: true,
                       manifestPath: manifest,
                       cancellation: cancel,
                       progress: { frames in progress.advance(by: frames) })
    // `execute()` opens a renderer of the run's backend; `execute(renderer: renderer)` would
    // reuse the one above instead (on the thread that opened it).
    let summary = try run.execute()
    print("batch: \(summary.rendered) frames rendered, \(summary.skipped) skipped, "
          + "clips \(summary.clips.map(\.label).joined(separator: ", ")), \(String(format: "%.2f", summary.seconds)) s")
    print("batch renderer: \(summary.rendererDescription)")
    print("files: \(outDir)/\(clip.name)_000.png … \(clip.name)_\(String(format: "%03d", clip.frameCount - 1)).png, "
          + "manifest \(manifest)")
} catch let error as ThrobberError {
    // Every Throbber error carries a message and a kind (usage, bad data, I/O, …), plus the
    // errno where there was one; a program chooses its own exit status from them.
    FileHandle.standardError.write(Data("example: \(error.message) [\(error.kind.rawValue)]\n".utf8))
    exit(error.kind == .usage ? 64 : 1)
} catch {
    FileHandle.standardError.write(Data("example: \(error)\n".utf8))
    exit(1)
}

/// Counts the frames a batch has done, from any thread, and prints a line every `every` frames.
final class ProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    private let total: Int, every: Int
    private var done = 0

    init(total: Int, every: Int) {
        self.total = total
        self.every = every
    }

    func advance(by frames: Int) {
        lock.withLock {
            let before = done
            done += frames
            if done / every > before / every || done == total { print("progress: \(done)/\(total) frames") }
        }
    }
}
