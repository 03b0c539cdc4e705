import Foundation
import Throbber
import ThrobberCPU
import ThrobberGL

/// `throbber info`: every backend this machine can open, or why not.
enum InfoCommand: Subcommand {
    static let help = """
        USAGE: throbber info [--json]

        Tries every backend — OSMesa, each EGL device, EGL surfaceless, the CPU renderer — and
        lists those that open with their GL_VENDOR, GL_RENDERER, GL_VERSION and largest canvas, and
        for each that does not, the reason in one line (library missing, no device, the EGL error).
        Also says which one `--backend auto` picks and why (a GPU, else the CPU renderer, which
        outdraws a software rasterizer), and which GL backend `parity` tests by default.

        OPTIONS:
          --json                 machine-readable output
          -h, --help             show this help
        """

    struct Entry: Codable {
        var backend: String
        var platform: String
        var available: Bool
        var vendor: String?
        var renderer: String?
        var version: String?
        var maxCanvasSide: Int?
        var reason: String?
        var device: EGLDeviceDescription?
    }

    struct Report: Codable {
        var entries: [Entry]
        var auto: String
        var autoSkipped: [String]
        /// What `auto` opens where GL is the point (`parity`).
        var autoForGL: String
    }

    static func probe(_ backend: String, _ platform: GLPlatform, device: EGLDeviceDescription? = nil) -> Entry {
        do {
            let renderer = try GLRenderer(platform: platform)
            let info = renderer.info
            return Entry(backend: backend, platform: info.platform, available: true, vendor: info.vendor, renderer: info.renderer,
                         version: info.version, maxCanvasSide: info.maxCanvasSide, device: device)
        } catch {
            return Entry(backend: backend, platform: platform.description, available: false,
                         reason: (error as? ThrobberError)?.message ?? "\(error)", device: device)
        }
    }

    static let options: [OptionSpec] = [OptionSpec("--json", value: false)]

    static func execute(_ arguments: ParsedArguments) throws {
        var entries = [probe("gl", .osmesa)]
        do {
            let devices = try GLRenderer.eglDevices()
            if devices.isEmpty {
                entries.append(Entry(backend: "egl", platform: "EGL devices", available: false, reason: "EGL lists no devices"))
            }
            for device in devices { entries.append(probe("egl --device \(device.index)", .eglDevice(device.index), device: device)) }
        } catch {
            entries.append(Entry(backend: "egl", platform: "EGL devices", available: false,
                                 reason: (error as? ThrobberError)?.message ?? "\(error)"))
        }
        entries.append(probe("egl", .eglSurfaceless))
        let cpu = CPURenderer()
        entries.append(Entry(backend: "cpu", platform: "Swift", available: true, vendor: "Throbber", renderer: cpu.rendererDescription,
                             version: throbberVersion, maxCanvasSide: Scene.maximumPixelSide))
        let auto = try FrameRenderer(.auto, shaderDirectory: nil)
        let autoForGL = try FrameRenderer(.auto, shaderDirectory: nil, glWanted: true)
        let report = Report(entries: entries, auto: auto.description, autoSkipped: auto.skipped, autoForGL: autoForGL.description)
        if arguments.has("--json") {
            print(try DiffOptions.json(report))
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
    }
}
