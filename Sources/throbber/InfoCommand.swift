import Foundation
import Throbber
import ThrobberCPU
import ThrobberGL
import ThrobberRender
import ThrobberBatch

/// `throbber info`: every backend this machine can open, or why not.
enum InfoCommand: Subcommand {
    static var help: String { """
        USAGE: throbber info [--json]

        Tries every backend — OSMesa, each EGL device, EGL surfaceless, the CPU renderer — and
        lists those that open with their GL_VENDOR, GL_RENDERER, GL_VERSION and largest canvas, and
        for each that does not, the reason in one line (library missing, no device, the EGL error).
        Also says which one `--backend auto` picks and why (a GPU, else the CPU renderer, which
        outdraws a software rasterizer), which GL backend `parity` tests by default, and how many
        CPUs this process may use — the smallest of the online CPUs, its affinity mask (taskset,
        Slurm) and its cgroup's CPU quota (Kubernetes, Docker) — which is the default --threads.

        OPTIONS:
        \(OptionSpec.helpTable([json, OptionSpec.helpFlag]))
        """ }

    static let json = OptionSpec("--json", help: "machine-readable output")

    static let options = [json]

    static func execute(_ arguments: ParsedArguments) throws {
        // Each backend opened once; auto's choice read from those results.
        let report = BackendProbe.run()
        let entries = report.entries
        if arguments.has(Self.json) {
            print(try JSONOutput.text(report))
            return
        }
        print("throbber \(throbberVersion) backends:")
        for entry in entries {
            if entry.available {
                var line = "  ok    \(entry.backend.padding(toLength: 16, withPad: " ", startingAt: 0)) \(entry.platform): "
                    + "\(entry.vendor ?? "") / \(entry.renderer ?? "") / \(entry.version ?? ""), canvas ≤ \(entry.maxCanvasSide ?? 0) px"
                if let device = entry.device { line += device.isSoftware ? " [software device]" : " [hardware device\(device.drmFile.map { " \($0)" } ?? "")]" }
                print(line)
            } else {
                print("  no    \(entry.backend.padding(toLength: 16, withPad: " ", startingAt: 0)) \(entry.platform): \(entry.reason ?? "unavailable")")
            }
        }
        print("--backend auto picks \(report.auto)")
        print("parity's --backend auto (GL under test) picks \(report.autoForGL)")
        print("CPUs: \(report.cpus.summary)")
    }
}
