import Throbber
import ThrobberRender

/// What `throbber` answers before a command: its help, the two options it takes alone, and the
/// commands it runs.
enum TopLevel {
    static let helpFlag = OptionSpec.helpFlag.with(help: "show this help (also: throbber COMMAND --help)")
    static let version = OptionSpec("--version", help: "show the version")

    /// Every command by its name.
    static let commands: [String: any Subcommand.Type] = [
        "render": RenderCommand.self,
        "scenes": ScenesCommand.self,
        "preview": PreviewCommand.self,
        "bench": BenchCommand.self,
        "parity": ParityCommand.self,
        "compare": CompareCommand.self,
        "batch": BatchCommand.self,
        "verify": VerifyCommand.self,
        "info": InfoCommand.self,
        "reproduce": ReproduceCommand.self,
        "export": ExportCommand.self,
        "studio": StudioCommand.self,
    ]

    /// `throbber --help`: the commands, the scenes, the options and the exit codes.
    static var help: String { """
        throbber \(throbberVersion) — renders classic iOS loading indicators headlessly (OpenGL or CPU) to PNG

        USAGE: throbber COMMAND [options]

        COMMANDS:
          render SCENE -o DIR    render frames of a scene as PNG files
          preview SCENE -o F.png one contact sheet of a scene's frames over its loop
          scenes [FILE…]         list every scene, or scene files, and their parameters (--json for machines)
          batch JOB.json         every render of a job file: PNG sequences, sprite sheets, streams, videos
          verify MANIFEST…       check that shards together are complete and intact
          parity                 a backend against the CPU reference: scenes × scales × times, or random cases
          compare A.png B.png    compare two PNGs' decoded pixels
          reproduce FILE.png     render a PNG again from its own tEXt and compare
          export SCENE -o F.json a scene as a Lottie animation (.json), or a .lottie with themes
          studio [SCENE…]        a local page to tune scenes live, copy the command, export
          bench                  throughput stage by stage, with ceilings (release builds)
          info                   every backend this machine can open (OSMesa, EGL devices, CPU), or why not

        SCENES: \(SceneRegistry.ids.joined(separator: ", ")), or a scene file of your own
          (a path with '/' or ending in .json; docs/scene-files.md, examples/scenes/)

        OPTIONS:
        \(OptionSpec.helpTable([helpFlag, version]))

        EXIT CODES: 0 ok, 1 images differ, 64 usage, 65 bad input data, 66 input missing,
          69 backend unavailable, 70 backend failure, 73 cannot create output, 74 I/O error,
          130 interrupted
        """ }
}
