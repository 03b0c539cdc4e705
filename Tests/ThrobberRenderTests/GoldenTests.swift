import Foundation
import Testing
import Throbber
import ThrobberCPU
import ThrobberPNG
import ThrobberSceneFile
import ThrobberTestSupport
import ThrobberText

/// Frames of the CPU reference renderer against committed golden PNGs.
///
/// Re-record with `THROBBER_RECORD=1 swift test`: the new files are written and every
/// re-recorded test fails, so a baseline never changes silently.
struct GoldenTests {
    static let cases: [(scene: String, t: Double, scale: Double)] = [
        ("wave-ball", 0.0, 1), ("wave-ball", 1.0, 1), ("wave-ball", 2.5, 2),
        ("double-wave", 0.0, 1), ("double-wave", 2.2, 2),
        ("pull-wave", 0.0, 1), ("pull-wave", 1.3, 3),
        ("activity", 0.0, 1), ("activity", 0.42, 2),
        ("ring", 0.0, 1), ("ring", 0.3, 3),
        ("progress-ring", 0.0, 1), ("progress-ring", 0.0, 3),
        // Parity's path gallery (SPEC §9): both fill rules, holes, every join and cap, a miter
        // limit, dashes, a wrapping trim, a hairline, linear, radial and focal gradients.
        ("paths", 0.0, 1), ("paths", 0.7, 2),
    ]

    /// The path examples (examples/scenes) mid-animation: a trim growing, dashes moving, a logo
    /// drawn on with its gradient fill fading in.
    static let pathFileCases: [(file: String, t: Double, scale: Double)] = [
        ("material-spinner", 0.4, 2), ("material-spinner", 1.1, 1), ("dashed-orbit", 0.5, 2), ("logo-draw-on", 1.2, 1),
        ("logo-draw-on", 1.8, 2),
    ]

    @Test(arguments: pathFileCases)
    func cpuPathExampleFrameMatchesGolden(file: String, t: Double, scale: Double) throws {
        let url = GoldenTests.directory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("examples/scenes/\(file).scene.json")
        let model = try FileScene(text: try String(contentsOf: url, encoding: .utf8), path: url.path)
        let image = CPURenderer().render(try Scene(model, scale: scale).validated().layingOutText().drawList(at: t))
        try assertGolden(image, named: "\(file)_t\(formatNumber(t))_@\(formatNumber(scale))x", in: GoldenTests.directory)
    }

    /// The wave ball's label (SPEC §8) in both fonts at three scales: the default Chinese caption
    /// through the CJK fallback, a Latin caption with a descender and a newline, a percent of
    /// three digits, and a caption of its own size and colour.
    static let labelCases: [(name: String, t: Double, scale: Double, settings: [String])] = [
        ("label", 0.0, 1, ["label=on"]),
        ("label-latin", 0.7, 2, ["label=on", "progress=1", "caption=Syncing your\nphotos, 3 left", "captionSize=18"]),
        ("label-dark", 1.9, 3, ["label=on", "progress=0.07", "labelColor=#ffd60a", "numberSize=44", "percentSize=22"]),
    ]

    /// The hud (SPEC §7): every state at @1x, @2x and @3x — light at @1x and @3x, dark at @2x,
    /// each with a status (the text state has nothing else) — then the bare states, a screen
    /// behind each mask that is not plain, and a frame of the show animation's pop.
    static let hudCases: [(name: String, t: Double, scale: Double, settings: [String])] = {
        var cases: [(name: String, t: Double, scale: Double, settings: [String])] = []
        let status = ["ring": "Loading…", "progress": "Uploading 3 photos", "success": "Done", "error": "Failed",
                      "info": "Note", "text": "Saved to Photos"]
        for state in ["ring", "progress", "success", "error", "info", "text"] {
            for scale in [1.0, 2, 3] {
                let style = scale == 2 ? "dark" : "light"
                cases.append(("\(state)-\(style)", 0.3, scale, ["state=\(state)", "style=\(style)", "status=\(status[state]!)"]))
            }
            if state != "text" { cases.append(("\(state)-bare", 0.3, 2, ["state=\(state)"])) }
        }
        for mask in ["black", "custom", "gradient"] {
            cases.append(("screen-\(mask)", 0.6, 1, ["screen=180x260", "mask=\(mask)", "status=Loading…", "offset=10,-20"]
                          + (mask == "custom" ? ["maskColor=#2050a080"] : [])))
        }
        cases.append(("pop", 0.05, 2, ["showAt=0", "margin=16", "status=Loading…"]))
        return cases
    }()

    @Test(arguments: hudCases)
    func cpuHUDFrameMatchesGolden(name: String, t: Double, scale: Double, settings: [String]) throws {
        let image = try GoldenTests.render("hud", t: t, scale: scale, settings: settings)
        try assertGolden(image, named: "hud_\(name)_t\(formatNumber(t))_@\(formatNumber(scale))x", in: GoldenTests.directory)
    }

    @Test(arguments: labelCases)
    func cpuLabelFrameMatchesGolden(name: String, t: Double, scale: Double, settings: [String]) throws {
        let image = try GoldenTests.render("wave-ball", t: t, scale: scale, settings: settings)
        try assertGolden(image, named: "wave-ball_\(name)_t\(formatNumber(t))_@\(formatNumber(scale))x", in: GoldenTests.directory)
    }

    /// The CPU frame of `id` at `t` with `settings` (NAME=VALUE) applied, its text laid out.
    static func render(_ id: String, t: Double, scale: Double, settings: [String]) throws -> Image {
        var scene = Scene(try SceneRegistry.model(id), scale: scale)
        for setting in settings {
            let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
            scene = try scene.setting(parts[0], to: parts[1])
        }
        return CPURenderer().render(try scene.validated().layingOutText().drawList(at: t))
    }

    /// Goldens/ beside this file.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")

    @Test(arguments: cases)
    func cpuFrameMatchesGolden(scene id: String, t: Double, scale: Double) throws {
        let scene = try LaidOutScene(Scene(try SceneRegistry.model(id), scale: scale))
        let image = CPURenderer().render(scene.drawList(at: t))
        try assertGolden(image, named: "\(id)_t\(formatNumber(t))_@\(formatNumber(scale))x", in: GoldenTests.directory)
    }
}
