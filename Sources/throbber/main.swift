import Foundation
import Throbber
import ThrobberBatch
import ThrobberRender

/// `throbber`: renders loading and progress indicators headlessly.
let usage = """
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
      bench                  throughput stage by stage, with ceilings (release builds)
      info                   every backend this machine can open (OSMesa, EGL devices, CPU), or why not

    SCENES: \(SceneRegistry.ids.joined(separator: ", ")), or a scene file of your own
      (a path with '/' or ending in .json; docs/scene-files.md, examples/scenes/)

    OPTIONS:
      -h, --help             show this help (also: throbber COMMAND --help)
      --version              show the version

    EXIT CODES: 0 ok, 1 images differ, 64 usage, 65 bad input data, 66 input missing,
      69 backend unavailable, 70 backend failure, 73 cannot create output, 74 I/O error,
      130 interrupted
    """

/// Prints a library error as the command line words it — the message, then the flag that is
/// the remedy — and exits with the kind's status.
func fail(_ error: ThrobberError) -> Never {
    FileHandle.standardError.write(Data("throbber: \(error.message)\(remedyText(error.remedy))\n".utf8))
    exit(ExitCode(error.kind).rawValue)
}

/// A remedy in the command line's words.
func remedyText(_ remedy: ThrobberError.Remedy?) -> String {
    switch remedy {
    case nil: ""
    case .overwrite: "; pass --overwrite to replace what exists"
    case .overwriteOrKeep: "; pass --overwrite to replace them or --skip-existing to keep them"
    case .resumeKeepingExisting: ". Rerun with --skip-existing to finish the job"
    case .moveManifest: " or give --manifest another path"
    case .smallerContactSheet: " (fewer --frames, other --columns, or a smaller --scale)"
    case .moveOrReplaceManifest: ", give --manifest another path, or pass --overwrite to replace it"
    }
}

// A reader that closes a stream early must give EPIPE (a clear I/O error), not kill us.
signal(SIGPIPE, SIG_IGN)
// SIGINT and SIGTERM: every command leaves nothing partial and exits 130 with one line.
Interrupts.shared.install()
// A scene file's preflight past a second says how far it is, and stops at a signal.
Clip.preflightObserver.observe(report: { FileHandle.standardError.write(Data("throbber: \($0)\n".utf8)) },
                               cancellation: Interrupts.shared)
var arguments = Array(CommandLine.arguments.dropFirst())
let commands: [String: ([String]) throws -> Void] = [
    "render": RenderCommand.run,
    "scenes": ScenesCommand.run,
    "preview": PreviewCommand.run,
    "bench": BenchCommand.run,
    "parity": ParityCommand.run,
    "compare": CompareCommand.run,
    "batch": BatchCommand.run,
    "verify": VerifyCommand.run,
    "info": InfoCommand.run,
    "reproduce": ReproduceCommand.run,
]
do {
    guard let command = arguments.first else {
        print(usage)
        exit(ExitCode.usage.rawValue)
    }
    switch command {
    case "-h", "--help", "help":
        print(usage)
    case "--version", "version":
        print("throbber \(throbberVersion)")
    default:
        guard let run = commands[command] else {
            throw ThrobberError.unknown("command", command, known: commands.keys.sorted())
        }
        Interrupts.shared.doing(command)
        try run(Array(arguments.dropFirst()))
    }
} catch let error as ThrobberError {
    fail(error)
} catch {
    fail(ThrobberError("\(error)", kind: .backendFailure))
}
