import Foundation
import Testing
import Throbber
import ThrobberCPU
import ThrobberPNG
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
    ]

    /// The wave ball's label (SPEC §8) in both fonts at three scales: the default Chinese caption
    /// through the CJK fallback, a Latin caption with a descender and a newline, a percent of
    /// three digits, and a caption of its own size and colour.
    static let labelCases: [(name: String, t: Double, scale: Double, settings: [String])] = [
        ("label", 0.0, 1, ["label=on"]),
        ("label-latin", 0.7, 2, ["label=on", "progress=1", "caption=Syncing your\nphotos, 3 left", "captionSize=18"]),
        ("label-dark", 1.9, 3, ["label=on", "progress=0.07", "labelColor=#ffd60a", "numberSize=44", "percentSize=22"]),
    ]

    @Test(arguments: labelCases)
    func cpuLabelFrameMatchesGolden(name: String, t: Double, scale: Double, settings: [String]) throws {
        var scene = Scene(try SceneRegistry.model("wave-ball"), scale: scale)
        for setting in settings {
            let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
            scene = try scene.setting(parts[0], to: parts[1])
        }
        let image = CPURenderer().render(try scene.validated().layingOutText().drawList(at: t))
        try assertGolden(image, named: "wave-ball_\(name)_t\(formatNumber(t))_@\(formatNumber(scale))x", in: GoldenTests.directory)
    }

    /// Goldens/ beside this file.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")

    @Test(arguments: cases)
    func cpuFrameMatchesGolden(scene id: String, t: Double, scale: Double) throws {
        let scene = Scene(try SceneRegistry.model(id), scale: scale)
        let image = CPURenderer().render(scene.drawList(at: t))
        try assertGolden(image, named: "\(id)_t\(formatNumber(t))_@\(formatNumber(scale))x", in: GoldenTests.directory)
    }
}
