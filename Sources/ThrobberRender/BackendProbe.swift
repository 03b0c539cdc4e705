import Throbber
import ThrobberCPU
import ThrobberGL

/// Every backend this machine can open, or why not, and what `auto` picks from them: what
/// `throbber info` shows. Each platform is opened once; `auto`'s choice is worked out from those
/// results by the same order `FrameRenderer` opens them in (`BackendChoice.candidates`).
public struct BackendProbe: Codable, Sendable {
    /// One backend on one platform.
    public struct Entry: Codable, Sendable {
        public var backend: String
        public var platform: String
        public var available: Bool
        public var vendor: String?
        public var renderer: String?
        public var version: String?
        public var maxCanvasSide: Int?
        /// Why it did not open, in one line (library missing, no device, the EGL error).
        public var reason: String?
        public var device: EGLDeviceDescription?
    }

    /// OSMesa, each EGL device, EGL surfaceless, the CPU renderer.
    public var entries: [Entry]
    /// What `--backend auto` opens, as `FrameRenderer.description` words it.
    public var auto: String
    /// What `auto` tried before its choice, and why each failed.
    public var autoSkipped: [String]
    /// What `auto` opens where GL is the point (`parity`).
    public var autoForGL: String
    /// The CPUs this process may use, and what limits them: the CPU renderer's threads and the
    /// batch pipeline's default `--threads`.
    public var cpus: UsableCPUs

    /// Opens every backend once and closes it again.
    public static func run() -> BackendProbe {
        var entries: [Entry] = []
        var opened: [String: Entry] = [:]  // by platform description, for auto's choice
        var autoSkipped: [String] = []
        func probe(_ backend: String, _ platform: GLPlatform, device: EGLDeviceDescription? = nil) {
            let entry: Entry
            do {
                let info = try GLRenderer(platform: platform).info
                entry = Entry(backend: backend, platform: info.platform, available: true, vendor: info.vendor, renderer: info.renderer,
                              version: info.version, maxCanvasSide: info.maxCanvasSide, device: device)
            } catch {
                entry = Entry(backend: backend, platform: platform.description, available: false,
                              reason: (error as? ThrobberError)?.message ?? "\(error)", device: device)
            }
            entries.append(entry)
            opened[platform.description] = entry
        }
        probe("gl", .osmesa)
        var devices: [EGLDeviceDescription] = []
        do {
            devices = try GLRenderer.eglDevices()
            if devices.isEmpty {
                entries.append(Entry(backend: "egl", platform: "EGL devices", available: false, reason: "EGL lists no devices"))
            }
            for device in devices { probe("egl --device \(device.index)", .eglDevice(device.index), device: device) }
        } catch {
            let reason = (error as? ThrobberError)?.message ?? "\(error)"
            entries.append(Entry(backend: "egl", platform: "EGL devices", available: false, reason: reason))
            autoSkipped.append("EGL devices: \(reason)")
        }
        probe("egl", .eglSurfaceless)
        let cpus = UsableCPUs.current
        let cpu = CPURenderer(threadCount: cpus.usable)
        entries.append(Entry(backend: "cpu", platform: "Swift", available: true, vendor: "Throbber", renderer: cpu.rendererDescription,
                             version: throbberVersion, maxCanvasSide: Scene.maximumPixelSide))

        func choice(glWanted: Bool, skipped: inout [String]) -> String {
            // The choice FrameRenderer makes, from what was opened above.
            let chosen = try? BackendChoice.choose(devices: devices, glWanted: glWanted, skipped: &skipped) { platform -> Entry in
                guard let entry = opened[platform.description] else {
                    throw ThrobberError("not probed", kind: .backendUnavailable)
                }
                guard entry.available else { throw ThrobberError(entry.reason ?? "unavailable", kind: .backendUnavailable) }
                return entry
            }
            guard let chosen, let entry = chosen.opened else {
                return "cpu: \(cpu.rendererDescription) [auto: \(chosen?.reason ?? BackendChoice.autoReason)]"
            }
            return "\(chosen.backend.rawValue): \(entry.renderer ?? "") (\(entry.version ?? ""), \(entry.platform)) [auto: \(chosen.reason)]"
        }
        var ignored: [String] = []
        let auto = choice(glWanted: false, skipped: &autoSkipped)
        let autoForGL = choice(glWanted: true, skipped: &ignored)
        return BackendProbe(entries: entries, auto: auto, autoSkipped: autoSkipped, autoForGL: autoForGL, cpus: cpus)
    }
}
