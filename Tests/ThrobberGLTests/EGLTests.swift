import Foundation
import Testing
import Throbber
import ThrobberCPU
@testable import ThrobberGL

/// Whether EGL's surfaceless platform opens here, and why not.
enum EGLAvailability {
    static let probe: (available: Bool, reason: String) = {
        do {
            _ = try GLRenderer(platform: .eglSurfaceless)
            return (true, "EGL is available")
        } catch {
            return (false, "EGL is not available here: \((error as? ThrobberError)?.message ?? "\(error)")")
        }
    }()
    static var available: Bool { probe.available }
    static var reason: String { probe.reason }
}

/// The EGL backend (Mesa's llvmpipe here; a GPU where one is): the same shaders and draw lists,
/// the same 2/255 bound. Skipped, with the reason, where EGL cannot be opened.
@Suite(.serialized, .enabled(if: EGLAvailability.available, Comment(rawValue: EGLAvailability.reason)))
struct EGLTests {
    static var platforms: [GLPlatform] {
        [.eglSurfaceless] + ((try? GLRenderer.eglDevices()) ?? []).map { .eglDevice($0.index) }
    }

    @Test(arguments: SceneRegistry.ids)
    func everySceneMatchesTheCPUReference(id: String) throws {
        let cpu = CPURenderer()
        for platform in EGLTests.platforms {
            let gl = try GLRenderer(platform: platform)
            for scale in [1.0, 2, 3] {
                let scene = Scene(try SceneRegistry.model(id), scale: scale)
                for k in 0..<6 {
                    let t = scene.model.previewDuration * (Double(k) + 0.37) / 6
                    let list = scene.drawList(at: t)
                    let diff = ImageDiff(expected: cpu.render(list), observed: try gl.render(list), tolerance: 2)
                    #expect(diff.pixelsOverTolerance == 0,
                            "\(platform) \(id) @\(scale)x t=\(t): \(diff.failureLines.joined(separator: "; "))")
                }
            }
        }
    }

    @Test func pipelinedReadbackReturnsTheFramesInOrder() throws {
        let gl = try GLRenderer(platform: .eglSurfaceless)
        let scene = Scene(Ring(), scale: 2)
        let lists = (0..<7).map { scene.drawList(at: Double($0) / 7) }
        let expected = try lists.map { try gl.render($0) }
        var observed: [Image] = []
        for list in lists {
            if let image = try gl.renderPipelined(list) { observed.append(image) }
        }
        #expect(observed.count == lists.count - (GLRenderer.ringSize - 1))
        observed += try gl.drainPipelined()
        #expect(observed == expected)
        // A new size needs the ring drained first.
        _ = try gl.renderPipelined(lists[0])
        #expect(throws: ThrobberError.self) { try gl.renderPipelined(Scene(Ring(), scale: 1).drawList(at: 0)) }
        _ = try gl.drainPipelined()
    }

    @Test func devicesAreListed() throws {
        let devices = try GLRenderer.eglDevices()
        #expect(!devices.isEmpty)
        #expect(devices.map(\.index) == Array(0..<devices.count))
        let gl = try GLRenderer(platform: .eglDevice(0))
        #expect(gl.info.platform.hasPrefix("EGL device 0"))
    }

    @Test func aMissingDeviceIsAClearError() {
        #expect {
            try GLRenderer(platform: .eglDevice(999))
        } throws: { error in
            let error = error as! ThrobberError
            return error.kind == .backendUnavailable && error.message.contains("no EGL device 999")
        }
    }
}
