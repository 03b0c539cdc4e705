import Foundation
import Throbber
import ThrobberPNG
import ThrobberBatch
import ThrobberRender

/// `throbber preview`: one contact sheet of a scene's frames, for people who would rather look.
enum PreviewCommand: Subcommand {
    static var help: String { """
        USAGE: throbber preview SCENE -o SHEET.png [options]

        Renders N frames spread evenly over one loop of SCENE (or its longest period, see
        `throbber scenes`) into one PNG grid, each frame labelled with its time. Transparent areas
        show a light checkerboard. SCENE is a built-in scene's id or a scene file
        (docs/scene-files.md).

        OPTIONS:
        \(OptionSpec.helpTable([output, frames, columns, duration, start] + SceneOptions.all + BackendOptions.all
                                + [encoderName, level, overwrite, OptionSpec.quiet, OptionSpec.helpFlag]))

        A sheet path that is a character device or FIFO (/dev/null, a named pipe) is written into
        and needs no --overwrite. Stopped by SIGINT or SIGTERM, it exits 130 and writes nothing.

        EXAMPLE:
          throbber preview activity --frames 12 --columns 6 -o activity.png
        """ }

    static let output = OptionSpec("-o", "--output", value: "FILE", help: "the sheet to write (.png)")
    static let frames = OptionSpec("--frames", value: "N", .integer(1...400), default: "8", help: "frames on the sheet (default {default})")
    /// Its default, ceil(√N), is worked out as it is read.
    static let columns = OptionSpec("--columns", value: "C", .integer(1...400), help: "frames per row (default: ceil(√N))")
    /// Its default, the scene's loop, is worked out as it is read.
    static let duration = OptionSpec("--duration", value: "D", .number(Limits.spanRange),
                                     help: "seconds to spread the frames over (default: the scene's loop)")
    static let start = OptionSpec("--start", value: "T", .number(Limits.timeRange), default: "0",
                                  help: "time of the first frame, ≥ {min} (default {default})")
    /// A sheet is written once and often kept: compact files by default (PNGEncoderCatalog).
    static let encoderName = PNGOptions.encoderName.with(help: """
        as render takes it; the default here is {default} (zlib 8 on
        every core: within 10 % of small's files in 1/30 of its time)
        """, default: PNGEncoderCatalog.sheetDefaultName)
    static let level = PNGOptions.level.with(help: "the encoder's level (not with a named setting)")
    static let overwrite = OptionSpec("--overwrite", help: "replace an existing sheet")

    static let options = SceneOptions.all + BackendOptions.all + [encoderName, level] + [
        output, frames, columns, duration, start, overwrite, OptionSpec.quiet,
    ]

    static func execute(_ arguments: ParsedArguments) throws {
        guard arguments.positionals.count == 1, let sceneID = arguments.positionals.first else {
            throw ThrobberError("preview takes one SCENE (one of \(SceneRegistry.ids.joined(separator: ", ")))", kind: .usage)
        }
        let scene = try SceneOptions.scene(sceneID, arguments)
        guard let output = arguments.value(Self.output) else {
            throw ThrobberError("preview needs an output file: -o SHEET.png", kind: .usage)
        }
        let frames = try arguments.integer(Self.frames)
        let columns = try arguments.integer(Self.columns, default: Int(Double(frames).squareRoot().rounded(.up)))
        try ContactSheet.checkSize(frames: frames, frameWidth: scene.pixelSize.width, frameHeight: scene.pixelSize.height, columns: columns)
        let duration = try arguments.number(Self.duration, default: scene.model.previewDuration)
        let start = try arguments.number(Self.start)
        let (backend, device) = try BackendOptions.parse(arguments)
        let encoder = try PNGOptions.encoder(arguments, name: Self.encoderName)
        let overwrite = arguments.has(Self.overwrite)

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
        let png = try Preview.png(sheet, scene: scene, times: times, columns: columns, renderer: renderer,
                                  encoder: encoder, threads: UsableCPUs.current.usable)
        try AtomicFile.write(png.data, to: file, overwrite: overwrite)
        if !arguments.has(OptionSpec.quiet) {
            FileHandle.standardError.write(Data(String(format: "wrote %@ (%d frames of %@ over %.3f s, %d×%d px; PNG %@)\n",
                                                       file.path, frames, sceneID, duration, sheet.width, sheet.height,
                                                       png.choice.description).utf8))
        }
    }
}
