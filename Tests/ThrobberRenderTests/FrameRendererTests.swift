import Testing
import Throbber
import ThrobberCPU
import ThrobberRender
import ThrobberTestSupport

/// A `FrameRenderer` holds one renderer, the one its backend opened, and hands every call on to
/// it: the CPU backend has no GL renderer and a GL backend no CPU renderer, and what it says of
/// itself (description, driver, largest side, frames per draw) is that renderer's.
struct FrameRendererTests {
    @Test func theCPUBackendHoldsTheCPURendererAlone() throws {
        let renderer = try FrameRenderer(.cpu, cpuThreads: 3)
        let cpu = try #require(renderer.cpuRenderer)
        #expect(renderer.glRenderer == nil)
        #expect(renderer.backend == .cpu)
        #expect(cpu.threadCount == 3)
        #expect(renderer.driver == cpu.rendererDescription)
        #expect(renderer.description == "cpu: \(cpu.rendererDescription)")
        #expect(renderer.reason == nil && renderer.skipped.isEmpty)
        #expect(renderer.maxCanvasSide == Scene.maximumPixelSide)
        #expect(renderer.framesPerDraw(width: 64, height: 64) == 1)
        #expect(renderer.reuseStatistics != nil)
        let lists = [Self.disc(at: 20), Self.disc(at: 40)]
        let reference = CPURenderer(threadCount: 1)
        #expect(try renderer.render(lists[0]) == reference.render(lists[0]))
        #expect(try renderer.render(lists) == lists.map { reference.render($0) })
    }

    @Test(.enabled(if: GLAvailability.osmesa.available, Comment(rawValue: GLAvailability.osmesa.reason)))
    func aGLBackendHoldsTheGLRendererAlone() throws {
        let renderer = try FrameRenderer(.gl)
        let gl = try #require(renderer.glRenderer)
        #expect(renderer.cpuRenderer == nil)
        #expect(renderer.reuseStatistics == nil)
        #expect(renderer.backend == .gl)
        #expect(renderer.driver == gl.rendererDescription)
        #expect(renderer.description == "gl: \(gl.rendererDescription)")
        #expect(renderer.maxCanvasSide == gl.maxCanvasSide)
        #expect(renderer.framesPerDraw(width: 64, height: 64) == gl.framesPerDraw(width: 64, height: 64))
        let list = Self.disc(at: 20)
        #expect(try renderer.render(list) == gl.render(list))
    }

    /// A 64 px frame with one disc.
    static func disc(at x: Double) -> DrawList {
        DrawList(width: 64, height: 64, background: PaintColor(RGBA(1, 1, 1, 1)),
                 items: [DrawItem("disc", Disc(centerX: x, centerY: 30, radius: 12, color: RGBA(0.9, 0.1, 0.3, 1), width: 64, height: 64))])
    }
}
