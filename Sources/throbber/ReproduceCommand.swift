import Foundation
import Throbber
import ThrobberBatch
import ThrobberRender

/// `throbber reproduce`: a PNG Throbber wrote, rendered again from its own tEXt and compared.
enum ReproduceCommand: Subcommand {
    static var help: String { """
        USAGE: throbber reproduce FILE.png [options]

        Renders FILE.png again from nothing but its tEXt chunks — the scene, every parameter as
        --set takes it, the scale, the background, the speeds a loop gave its parts, the time
        (for a sprite sheet or a preview, every cell's time and the layout) and the backend —
        and compares the new pixels with the file's. Exit 0 when they are identical (or within
        --max-diff), 1 when they differ; 65 when the file has no Throbber tEXt or it does not
        make a scene. Frames, sprite sheets (job "sheet" outputs) and previews all carry it.
        Text is laid out again from the font files the file records; a file that is gone or
        holds other bytes (its SHA-256 differs) is reported as "font changed". A frame of a
        scene file (docs/scene-files.md) records the file's path and SHA-256: it is drawn from
        that file, or from --scene-file, only when the bytes are the same (else exit 65).

        OPTIONS:
        \(OptionSpec.helpTable([backend, maxDiff, sceneFile, OptionSpec.helpFlag]))

        EXAMPLE:
          throbber render ring --start 0.3 --scale 2 -o out && throbber reproduce out/ring_00000.png
        """ }

    /// Unlike `BackendOptions.backend`, no default (the file's) and no `auto`: an unknown name is
    /// refused with the known ones.
    static let backend = OptionSpec("--backend", value: "B", help: """
        draw with B instead of the backend the file records
        (gl, egl, cpu)
        """)
    static let maxDiff = DiffOptions.maxDiff.with(help: """
        allowed difference per channel in 8-bit steps (default {default}:
        identical); 2 is the GL-against-CPU bound of `parity`
        """, default: "0")
    static let sceneFile = OptionSpec("--scene-file", value: "FILE", help: """
        the scene file a frame of a file scene was drawn from, when
        it is no longer where the frame's tEXt says
        """)

    static let options = [backend, maxDiff, sceneFile]

    static func execute(_ arguments: ParsedArguments) throws {
        guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
            throw ThrobberError("reproduce takes one PNG file, got \(arguments.positionals.count)", kind: .usage)
        }
        let backend = try arguments.value(Self.backend).map { name -> Backend in
            guard let backend = Backend(rawValue: name) else { throw ThrobberError.unknown(Self.backend.canonical, name, known: Backend.names) }
            return backend
        }
        let maxDiff = try arguments.integer(Self.maxDiff)
        let result = try Reproduction(file: path, backend: backend, tolerance: maxDiff, sceneFile: arguments.value(Self.sceneFile))
        let p = result.provenance
        let (width, height) = (result.image.width, result.image.height)
        let what = p.columns.map { "\(p.times.count) cells in \($0) columns" } ?? "t = \(formatNumber(p.times[0])) s"
        let figures = DiffFigures(result.diff, maxPixels: 0)
        print("\(figures.pass ? "same" : "DIFFERENT") \(path) (\(width)×\(height), \(p.scene.model.id) @\(formatNumber(p.scene.scale))x, "
              + "\(what)) against \(result.rendererDescription): \(figures.summary)")
        for line in result.fontChanges { print("  \(line)") }
        for line in result.diff.failureLines { print("  \(line)") }
        if !figures.pass { exit(ExitCode.mismatch.rawValue) }
    }
}
