import Foundation
import Testing
import Throbber
import ThrobberCPU
import ThrobberPNG

/// Frames of the CPU reference renderer against committed golden PNGs.
///
/// Re-record with `THROBBER_RECORD_GOLDENS=1 swift test`: the new files are written and every
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

    @Test(arguments: cases)
    func cpuFrameMatchesGolden(scene id: String, t: Double, scale: Double) throws {
        let scene = Scene(try SceneRegistry.model(id), scale: scale)
        let image = CPURenderer().render(scene.drawList(at: t))
        try assertGolden(image, named: "\(id)_t\(formatNumber(t))_@\(formatNumber(scale))x")
    }
}

/// Compares `image` with `Goldens/NAME.png` beside this file: every channel within `tolerance`
/// 8-bit steps, at most `maxPixels` pixels beyond it.
func assertGolden(_ image: Image, named name: String, tolerance: Int = 1, maxPixels: Int = 0,
                  sourceLocation: SourceLocation = #_sourceLocation) throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Goldens").appendingPathComponent("\(name).png")
    if ProcessInfo.processInfo.environment["THROBBER_RECORD_GOLDENS"] == "1" {
        try PNGCodec.encode(image, settings: .init(level: 9)).write(to: url)
        Issue.record("re-recorded golden \(url.lastPathComponent); unset THROBBER_RECORD_GOLDENS and rerun", sourceLocation: sourceLocation)
        return
    }
    guard let data = FileManager.default.contents(atPath: url.path) else {
        Issue.record("missing golden \(url.path); record it with THROBBER_RECORD_GOLDENS=1", sourceLocation: sourceLocation)
        return
    }
    let golden = try PNGCodec.decode(data)
    guard golden.width == image.width, golden.height == image.height else {
        Issue.record("golden \(name) is \(golden.width)×\(golden.height), image is \(image.width)×\(image.height)",
                     sourceLocation: sourceLocation)
        return
    }
    let diff = ImageDiff(expected: golden, observed: image, tolerance: tolerance)
    #expect(diff.pixelsOverTolerance <= maxPixels,
            "golden \(name): \(diff.pixelsOverTolerance) pixels differ by more than \(tolerance); max \(diff.maxChannelDifference)\n\(diff.failureLines.joined(separator: "\n"))", sourceLocation: sourceLocation)
}
