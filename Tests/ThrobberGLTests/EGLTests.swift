import Foundation
import Testing
import Throbber
import ThrobberCPU
import ThrobberRender
@testable import ThrobberGL

/// Whether a GL platform opens here, and why not: suites that need it are skipped with the
/// reason (library missing, no device) instead of failing.
struct GLAvailability: Sendable {
    let available: Bool
    let reason: String

    init(_ platform: GLPlatform) {
        do {
            _ = try GLRenderer(platform: platform)
            (available, reason) = (true, "\(platform) is available")
        } catch {
            (available, reason) = (false, "\(platform) is not available here: \((error as? ThrobberError)?.message ?? "\(error)")")
        }
    }

    static let osmesa = GLAvailability(.osmesa)
    static let eglSurfaceless = GLAvailability(.eglSurfaceless)
}

/// EGL's surfaceless platform.
enum EGLAvailability {
    static var available: Bool { GLAvailability.eglSurfaceless.available }
    static var reason: String { GLAvailability.eglSurfaceless.reason }
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
            // The matrix `throbber parity` runs, on this platform.
            for item in try ParityMatrix.cases(scenes: [id]) {
                let diff = try ParityMatrix.compare(item.scene, at: item.t, renderer: gl, reference: cpu).diff
                #expect(diff.pixelsOverTolerance == 0,
                        "\(platform) \(id) @\(item.scene.scale)x t=\(item.t): \(diff.failureLines.joined(separator: "; "))")
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
