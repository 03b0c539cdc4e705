import Foundation
import Testing
import Throbber
import ThrobberCPU
import ThrobberRender
import ThrobberTestSupport
@testable import ThrobberGL

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
            // The matrix `throbber parity` runs, on this platform.
            for item in try ParityMatrix.cases(scenes: [id]) {
                let diff = try ParityMatrix.compare(try item.laidOutScene(), at: item.t, renderer: gl, reference: cpu).diff
                #expect(diff.pixelsOverTolerance == 0,
                        "\(platform) \(id) @\(item.scene.scale)x t=\(item.t): \(diff.failureLines.joined(separator: "; "))")
            }
        }
    }

    @Test func pipelinedReadbackReturnsTheFramesInOrder() throws {
        let gl = try GLRenderer(platform: .eglSurfaceless)
        let scene = try LaidOutScene(Scene(Ring(), scale: 2))
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
        #expect(throws: ThrobberError.self) { try gl.renderPipelined(LaidOutScene(Scene(Ring(), scale: 1)).drawList(at: 0)) }
        _ = try gl.drainPipelined()
    }

    @Test func devicesAreListed() throws {
        let devices = try GLRenderer.eglDevices()
        #expect(!devices.isEmpty)
        // Each listed device opens under its own index, and is what its extensions say it is.
        for device in devices {
            let gl = try GLRenderer(platform: .eglDevice(device.index))
            #expect(gl.info.platform.hasPrefix("EGL device \(device.index)"), "\(gl.info.platform)")
            #expect(device.isSoftware == gl.info.renderer.contains("llvmpipe"), "\(device) renders with \(gl.info.renderer)")
            if let drm = device.drmFile { #expect(FileManager.default.fileExists(atPath: drm), "\(drm)") }
        }
        // The list is all there is: the index after the last is not a device.
        #expect {
            try GLRenderer(platform: .eglDevice(devices.count))
        } throws: { error in
            (error as? ThrobberError)?.message.contains("no EGL device \(devices.count)") == true
        }
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
