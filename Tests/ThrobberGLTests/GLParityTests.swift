import Foundation
import Testing
import Throbber
import ThrobberCPU
@testable import ThrobberGL

/// GL against the CPU reference: every channel of every pixel within 2/255 (SPEC §0).
///
/// Serialized and synchronous: a GL context is current on the thread that made it.
@Suite(.serialized)
struct GLParityTests {
    /// Scales 1, 2, 3, and two odd pixel sizes: 97 px from a fractional scale, and a 97 pt canvas.
    static let scenes: [(String, Scene)] = {
        var small = WaveBall()
        small.size = 97
        small.scaleMargin = 8
        small.waveMargin = 5
        small.tickLength = 4
        small.tickCount = 48
        return [
            ("@1x", Scene(WaveBall(), scale: 1)),
            ("@2x", Scene(WaveBall(), scale: 2)),
            ("@3x", Scene(WaveBall(), scale: 3)),
            ("97px", Scene(WaveBall(), scale: 97.0 / 300)),
            ("97pt", Scene(small, scale: 1)),
        ]
    }()

    /// Rising fill (the level parks at t = 1.656 s by default), then parked.
    static let times: [Double] = [0, 0.4, 0.9, 1.3, 1.7, 2.6, 5.0]

    @Test(arguments: 0..<5)
    func waveBallMatchesTheCPUReference(sceneIndex: Int) throws {
        let (label, scene) = GLParityTests.scenes[sceneIndex]
        let gl = try GLRenderer()
        let cpu = CPURenderer()
        var worst = 0
        for t in GLParityTests.times {
            let list = scene.drawList(at: t)
            let diff = ImageDiff(expected: cpu.render(list), observed: try gl.render(list), tolerance: 2)
            worst = max(worst, diff.maxChannelDifference)
            #expect(diff.pixelsOverTolerance == 0,
                    "\(label) t=\(t): \(diff.pixelsOverTolerance) pixels differ by more than 2/255\n\(diff.failureLines.joined(separator: "\n"))")
        }
        print("parity wave-ball \(label) (\(scene.pixelSize.width) px): largest channel difference \(worst)/255 over \(GLParityTests.times.count) times")
    }

    @Test func rendererReportsItsDriver() throws {
        let gl = try GLRenderer()
        #expect(!gl.info.renderer.isEmpty)
        #expect(gl.info.version.contains("Core") || gl.info.version.hasPrefix("3") || gl.info.version.hasPrefix("4"))
        #expect(gl.info.maxCanvasSide >= 4096)
    }

    @Test func canvasBeyondTheDriverLimitIsAUsageError() throws {
        let gl = try GLRenderer()
        let side = gl.info.maxCanvasSide + 1
        let list = DrawList(width: side, height: 1, background: PaintColor(.clear), items: [])
        #expect {
            try gl.render(list)
        } throws: { error in
            (error as! ThrobberError).exitCode == .usage
        }
    }

    @Test func brokenShaderReportsTheFileAndTheDriverLog() throws {
        var sources = ShaderLibrary.embedded.sources
        sources["wave.frag"] = sources["wave.frag"]!.replacingOccurrences(of: "o_color = premultiplied", with: "o_color = undefinedThing")
        let broken = ShaderLibrary(sources: sources, origin: "test")
        #expect {
            try GLRenderer(shaders: broken)
        } throws: { error in
            let error = error as! ThrobberError
            return error.exitCode == .backendFailure && error.message.contains("wave.frag")
                && error.message.contains("undefinedThing")
        }
    }

    @Test func shaderDirectoryLoadsFromDisk() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("throbber-shaders-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, text) in ShaderLibrary.embedded.sources {
            try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let library = try ShaderLibrary(directory: directory)
        let list = Scene().drawList(at: 1)
        #expect(try GLRenderer(shaders: library).render(list) == GLRenderer().render(list))
        try FileManager.default.removeItem(at: directory.appendingPathComponent("arc.frag"))
        #expect(throws: ThrobberError.self) { try ShaderLibrary(directory: directory) }
    }
}
