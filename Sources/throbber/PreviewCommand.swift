import Foundation
import Throbber
import ThrobberPNG
import ThrobberBatch
import ThrobberRender

/// `throbber preview`: one contact sheet of a scene's frames, for people who would rather look.
enum PreviewCommand: Subcommand {
    static let help = """
        USAGE: throbber preview SCENE -o SHEET.png [options]

        Renders N frames spread evenly over one loop of SCENE (or its longest period, see
        `throbber scenes`) into one PNG grid, each frame labelled with its time. Transparent areas
        show a light checkerboard. SCENE is a built-in scene's id or a scene file
        (docs/scene-files.md).

        OPTIONS:
          -o, --output FILE      the sheet to write (.png)
          --frames N             frames on the sheet (default 8)
          --columns C            frames per row (default: ceil(√N))
          --duration D           seconds to spread the frames over (default: the scene's loop)
          --start T              time of the first frame, ≥ 0 (default 0)
        \(SceneOptions.help)
        \(BackendOptions.help)
          --png-encoder NAME     as render takes it; the default here is compact (zlib 8 on
                                 every core: within 10 % of small's files in 1/30 of its time)
          --png-level L          the encoder's level (not with a named setting)
          --overwrite            replace an existing sheet
          -q, --quiet            print nothing on success
          -h, --help             show this help

        A sheet path that is a character device or FIFO (/dev/null, a named pipe) is written into
        and needs no --overwrite. Stopped by SIGINT or SIGTERM, it exits 130 and writes nothing.

        EXAMPLE:
          throbber preview activity --frames 12 --columns 6 -o activity.png
        """

    static let options = SceneOptions.specs + BackendOptions.specs + PNGOptions.specs + [
        OptionSpec("-o", "--output"), OptionSpec("--frames"), OptionSpec("--columns"), OptionSpec("--duration"),
        OptionSpec("--start"), OptionSpec("--overwrite", value: false),
        OptionSpec("-q", "--quiet", value: false),
    ]

    static func execute(_ arguments: ParsedArguments) throws {
        guard arguments.positionals.count == 1, let sceneID = arguments.positionals.first else {
            throw ThrobberError("preview takes one SCENE (one of \(SceneRegistry.ids.joined(separator: ", ")))", kind: .usage)
        }
        let scene = try SceneOptions.scene(sceneID, arguments)
        guard let output = arguments.value("--output") else {
            throw ThrobberError("preview needs an output file: -o SHEET.png", kind: .usage)
        }
        let frames = try arguments.integer("--frames", default: 8, range: 1...400)
        let columns = try arguments.integer("--columns", default: Int(Double(frames).squareRoot().rounded(.up)), range: 1...400)
        try ContactSheet.checkSize(frames: frames, frameWidth: scene.pixelSize.width, frameHeight: scene.pixelSize.height, columns: columns)
        let duration = try arguments.number("--duration", default: scene.model.previewDuration, range: .above(0))
        let start = try arguments.number("--start", default: 0, range: .atLeast(0))
        let (backend, device) = try BackendOptions.parse(arguments)
        // A sheet is written once and often kept: compact files by default (PNGEncoderCatalog).
        let encoder = try PNGOptions.encoder(arguments, default: PNGEncoderCatalog.sheetDefaultName)
        let overwrite = arguments.has("--overwrite")

        let file = URL(fileURLWithPath: output)
        // Classified as the writer treats it: a device or FIFO (/dev/null, a named pipe) is
        // written into and needs no --overwrite; a directory, block device or socket is refused now.
        var claims = OutputClaims()
        if try claims.claimOutput(file.path, role: "the sheet", source: .commandLine) == .file, !overwrite {
            throw ThrobberError("\(file.path) exists; pass --overwrite to replace it", kind: .cannotCreate)
        }
        try AtomicFile.prepareDirectory(file.deletingLastPathComponent())
        let renderer = try FrameRenderer(backend, device: device)
        let times = Preview.times(frames: frames, duration: duration, start: start)
        let sheet = try Preview.sheet(scene, times: times, columns: columns, renderer: renderer)
        try AtomicFile.write(try Preview.png(sheet, scene: scene, times: times, columns: columns, renderer: renderer,
                                             encoder: encoder, threads: UsableCPUs.current.usable),
                             to: file, overwrite: overwrite)
        if !arguments.has("--quiet") {
            FileHandle.standardError.write(Data(String(format: "wrote %@ (%d frames of %@ over %.3f s, %d×%d px)\n",
                                                       file.path, frames, sceneID, duration, sheet.width, sheet.height).utf8))
        }
    }
}
