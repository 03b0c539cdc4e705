import Foundation
import Testing
import Throbber
import ThrobberCPU
import ThrobberPNG
import ThrobberTestSupport

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

    /// Goldens/ beside this file.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")

    @Test(arguments: cases)
    func cpuFrameMatchesGolden(scene id: String, t: Double, scale: Double) throws {
        let scene = Scene(try SceneRegistry.model(id), scale: scale)
        let image = CPURenderer().render(scene.drawList(at: t))
        try assertGolden(image, named: "\(id)_t\(formatNumber(t))_@\(formatNumber(scale))x", in: GoldenTests.directory)
    }
}
