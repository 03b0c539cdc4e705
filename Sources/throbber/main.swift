import Foundation
import Throbber
import ThrobberBatch
import ThrobberRender

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
do {
    guard let command = arguments.first else {
        print(TopLevel.help)
        exit(ExitCode.usage.rawValue)
    }
    switch command {
    case _ where TopLevel.helpFlag.names.contains(command) || command == "help":
        print(TopLevel.help)
    case _ where TopLevel.version.names.contains(command) || command == "version":
        print("throbber \(throbberVersion)")
    default:
        guard let subcommand = TopLevel.commands[command] else {
            throw ThrobberError.unknown("command", command, known: TopLevel.commands.keys.sorted())
        }
        Interrupts.shared.doing(command)
        try subcommand.run(Array(arguments.dropFirst()))
    }
} catch let error as ThrobberError {
    fail(error)
} catch {
    fail(ThrobberError("\(error)", kind: .backendFailure))
}
