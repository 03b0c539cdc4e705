import Testing
import Throbber
import ThrobberCPU
import ThrobberGL
import ThrobberTestSupport

/// The wave ball at every tick count from 1 to 40, GL against the CPU reference under the parity
/// rule of SPEC §0.
///
/// Regression test for a GL bug that the default matrix (tickCount 100) could not see: with
/// tickCount not a multiple of 4 the lit ticks θ = π/2 ± j·2π/N (SPEC §1 step 6) fall between
/// the background ticks, and GL lost some of them and the thin circle. The level is parked
/// (fillFrom = progress) so that the lit count is the same at every time; t = 5 s is well away
/// from 0. Serialized and synchronous: a GL context is current on the thread that made it.
@Suite(.serialized, .enabled(if: GLAvailability.osmesa.available, Comment(rawValue: GLAvailability.osmesa.reason)))
struct TickCountParityTests {
    static let tickCounts = Array(1...40)

    /// (scale, progress): @1x and @2x, nearly full and full.
    static let settings: [(Double, Double)] = [(1, 0.8), (1, 1), (2, 0.8), (2, 1)]

    @Test(arguments: settings)
    func everyTickCountMatchesTheCPUReference(scale: Double, progress: Double) throws {
        // One context and one reference for the 40 frames: a context costs more than a frame.
        let gl = try GLRenderer()
        let cpu = CPURenderer()
        var failing: [Int] = []
        for tickCount in TickCountParityTests.tickCounts {
            var ball = WaveBall()
            ball.tickCount = tickCount
            ball.progress = progress
            ball.fillFrom = progress
            let scene = try LaidOutScene(Scene(ball, scale: scale))
            let list = scene.drawList(at: 5)
            let diff = ImageDiff(expected: cpu.render(list), observed: try gl.render(list), tolerance: 2)
            if diff.pixelsOverTolerance > 0 { failing.append(tickCount) }
            #expect(diff.pixelsOverTolerance == 0,
                    """
                    wave-ball tickCount=\(tickCount) progress=fillFrom=\(formatNumber(progress)) @\(formatNumber(scale))x t=5: \
                    \(diff.pixelsOverTolerance) px differ by more than 2/255 (max \(diff.maxChannelDifference))
                    \(diff.failureLines.joined(separator: "\n"))
                    """)
        }
        print("tick counts @\(formatNumber(scale))x progress \(formatNumber(progress)): \(failing.isEmpty ? "all match" : "failing \(failing)")")
    }
}
