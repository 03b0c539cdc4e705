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
    /// --scenes all --sizes 64,512 --stages frame` (README "Backends"), llvmpipe takes 1.4–300×
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
