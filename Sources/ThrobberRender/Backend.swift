import Throbber
import ThrobberCPU
import ThrobberGL

/// The renderer to draw with, by name (`--backend`, a job's `"backend"`).
public enum Backend: String, CaseIterable, Sendable, Codable {
    /// The fastest on this machine: a hardware EGL device (a GPU), else the CPU renderer —
    /// without a GPU, GL runs on llvmpipe, a software rasterizer the CPU renderer outdraws
    /// (`BackendChoice.autoReason`). Where GL itself is what is asked for (`parity`, shaders
    /// from a directory), a GPU, else OSMesa, else EGL on llvmpipe, else the CPU renderer.
    case auto
    /// OpenGL through Mesa's OSMesa (llvmpipe).
    case gl
    /// OpenGL through EGL without a display: a given device, else the first hardware device,
    /// else Mesa's surfaceless platform.
    case egl
    /// The pure-Swift reference renderer.
    case cpu

    /// The names, for messages listing what is allowed.
    public static var names: [String] { allCases.map(\.rawValue) }
}

/// How `auto` chooses, written once for the renderer that opens it and for `throbber info`,
/// which reports the same choice without opening anything twice.
public enum BackendChoice {
    /// Why `auto` draws with the CPU renderer where no GPU opens: measured with `throbber bench
    /// --scenes all --sizes 64,512 --stages frame` (docs/backends.md), llvmpipe takes 1.4–300×
    /// the CPU renderer's time per frame for five scenes and 0.7–0.9× for the pull-wave, whose
    /// frames cost well under a PNG encode either way — and it adds a context and shader
    /// compiles before the first frame.
    public static let autoReason =
        "no GPU opened through EGL; on a software rasterizer (llvmpipe) the CPU renderer draws these scenes faster"
    /// Why `auto` chose a hardware EGL device.
    public static let gpuReason = "a GPU through EGL"
    /// Why `auto` chose software GL where GL was asked for.
    public static let softwareGLReason = "no GPU opened through EGL; GL was asked for, so software GL"
    /// Why `auto` fell back to the CPU renderer where GL was asked for.
    public static let noGLReason = "no GL backend could be opened"

    /// The GL platforms `auto` tries, in order, with the backend each counts as: every hardware
    /// EGL device of `devices`, then — only where GL is the point (`glWanted`) — OSMesa and EGL
    /// surfaceless. An empty list means the CPU renderer.
    public static func candidates(devices: [EGLDeviceDescription], glWanted: Bool) -> [(backend: Backend, platform: GLPlatform)] {
        var list: [(backend: Backend, platform: GLPlatform)] = devices.filter { !$0.isSoftware }.map { (.egl, .eglDevice($0.index)) }
        // Software GL only where GL is the point: elsewhere the CPU renderer is faster.
        if glWanted { list += [(.gl, .osmesa), (.egl, .eglSurfaceless)] }
        return list
    }
}

extension BackendChoice {
    /// `auto`'s choice, made once for the renderer that opens it and for `throbber info`, which
    /// only looks up what it opened already: the first candidate (`candidates`) that `open`
    /// opens, else the CPU renderer; with why, and each candidate skipped (`open` threw
    /// backend-unavailable) with its reason appended to `skipped`.
    ///
    /// - Throws: whatever else `open` throws (a shader that does not compile).
    public static func choose<Opened>(devices: [EGLDeviceDescription], glWanted: Bool, skipped: inout [String],
                                      open: (GLPlatform) throws -> Opened) throws -> (backend: Backend, opened: Opened?, reason: String) {
        for candidate in candidates(devices: devices, glWanted: glWanted) {
            do {
                let opened = try open(candidate.platform)
                return (candidate.backend, opened, candidate.platform.isHardwareDevice(in: devices) ? gpuReason : softwareGLReason)
            } catch let error as ThrobberError where error.kind == .backendUnavailable {
                skipped.append("\(candidate.platform): \(error.message)")
            }
        }
        return (.cpu, nil, glWanted ? noGLReason : autoReason)
    }
}

extension GLPlatform {
    /// Whether this platform is one of `devices` that is not a software rasterizer.
    func isHardwareDevice(in devices: [EGLDeviceDescription]) -> Bool {
        if case .eglDevice(let index) = self { return devices.contains { $0.index == index && !$0.isSoftware } }
        return false
    }
}
