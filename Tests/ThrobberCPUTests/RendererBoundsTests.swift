import Foundation
import Testing
import Throbber
import ThrobberCPU

/// Issue 14: geometry no parse range caught (a model built in code) must neither trap nor hang
/// the CPU renderer. Parameters are bounded where they are parsed; these models skip parsing.
struct RendererBoundsTests {
    /// The frame of `model` at `t`, unvalidated (a `LaidOutScene` would refuse the model): the
    /// draw list its items make on its canvas.
    static func unvalidatedList(_ model: some SceneModel, at t: Double) -> DrawList {
        let (width, height) = Scene(model).pixelSize
        return DrawList(width: width, height: height, background: PaintColor(model.defaultBackground),
                        items: model.drawItems(at: t, scale: 1, width: width, height: height))
    }

    /// An amplitude of 1e300 makes every wave column NaN. The run loop used to skip columns
    /// while coverage == 0 and advance while coverage > 0, so a NaN column stopped both and the
    /// frame never finished.
    @Test(.timeLimit(.minutes(1)))
    func nanWaveCoverageDoesNotHang() {
        var model = WaveBall()
        model.amplitude = 1e300
        let image = CPURenderer(threadCount: 1).render(Self.unvalidatedList(model, at: 0.5))
        #expect(image.width == 300 && image.height == 300)
    }

    /// A ring stroke of 1e308 pt reached a Double→Int conversion of ±infinity in the annulus spans.
    @Test(.timeLimit(.minutes(1)))
    func hugeRingThicknessDoesNotTrap() {
        var model = Ring()
        model.hud.thickness = 1e308
        let image = CPURenderer(threadCount: 1).render(Self.unvalidatedList(model, at: 0.25))
        #expect(image.width == 84)
    }
}
