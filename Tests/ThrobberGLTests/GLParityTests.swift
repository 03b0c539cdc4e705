import Foundation
import Testing
import Throbber
import ThrobberCPU
import ThrobberRender
@testable import ThrobberGL
import ThrobberTestSupport

/// GL against the CPU reference: every channel of every pixel within 2/255 (SPEC §0).
///
/// Serialized and synchronous: a GL context is current on the thread that made it.
@Suite(.serialized, .enabled(if: GLAvailability.osmesa.available, Comment(rawValue: GLAvailability.osmesa.reason)))
struct GLParityTests {
    /// Every scene of the registry at @1x, @2x, @3x.
    static let registryCases: [(String, Double)] = SceneRegistry.ids.flatMap { id in [1.0, 2, 3].map { (id, $0) } }

    /// The matrix `throbber parity` runs (six times across one loop), plus times between them
    /// and one a day in (single-precision phases far from 0).
    @Test(arguments: registryCases)
    func everySceneMatchesTheCPUReference(id: String, scale: Double) throws {
        let matrix = try ParityMatrix.cases(scenes: [id], scales: [scale])
        let scene = try matrix[0].laidOutScene()
        let between = (0..<6).map { scene.model.previewDuration * (Double($0) + 0.37) / 6 }
        try assertParity(scene, label: "\(id) @\(formatNumber(scale))x", times: matrix.map(\.t) + between + [86_400.25])
    }

    /// Odd pixel sizes: 97 px from a fractional scale, and a 97 pt wave ball.
    @Test func oddPixelSizesMatchTheCPUReference() throws {
        var small = WaveBall()
        small.size = 97
        small.scaleMargin = 8
        small.waveMargin = 5
        small.tickLength = 4
        small.tickCount = 48
        // Rising fill (the default level parks at t = 1.656 s), then parked.
        let times: [Double] = [0, 0.4, 0.9, 1.3, 1.7, 2.6, 5.0]
        try assertParity(try LaidOutScene(Scene(WaveBall(), scale: 97.0 / 300)), label: "wave-ball 97px", times: times)
        try assertParity(try LaidOutScene(Scene(small)), label: "wave-ball 97pt", times: times)
        try assertParity(try LaidOutScene(Scene(Activity(), scale: 97.0 / 240)), label: "activity 97px", times: [0, 0.3, 0.7])
        try assertParity(try LaidOutScene(Scene(Ring(), scale: 97.0 / 84)), label: "ring 97px", times: [0, 0.3, 0.7])
    }

    @Test func settingsThatChangeTheDrawingStayInParity() throws {
        let scenes: [(String, Scene)] = [
            ("ring dark", try Scene(Ring()).setting("style", to: "dark").setting("thickness", to: "5").setting("margin", to: "6")),
            ("progress-ring ramp", try Scene(ProgressRing()).setting("progress", to: "0").setting("progressEnd", to: "1")),
            ("activity rounded leaves", try Scene(Activity()).setting("leafCornerRadius", to: "3").setting("leafColor", to: "1,0.5,0,0.8")),
            ("double-wave original slip", try Scene(DoubleWave()).setting("phaseShift", to: "-93.75")),
            ("pull-wave short pull", try Scene(PullWave(), scale: 2).setting("pull", to: "-4")),
            ("wave-ball background", try Scene(WaveBall()).setting("background", to: "0.1,0.2,0.3,0.5")),
        ]
        for (label, scene) in scenes {
            try assertParity(try LaidOutScene(scene), label: label, times: [0, 0.2, 0.45, 0.8, 1.0, 1.6])
        }
    }

    /// Boxes without a ring go to the boxes pass: with discs and arcs in their lists, and alone.
    @Test func boxesOutsideARingMatchTheCPUReference() throws {
        let gl = try GLRenderer()
        let cpu = CPURenderer()
        let mixed = FrameStackTests.scatteredBoxes(count: 40)
        var boxesOnly = mixed
        boxesOnly.items = [mixed.items[1]]
        for list in [mixed, boxesOnly] {
            let diff = ImageDiff(expected: cpu.render(list), observed: try gl.render(list), tolerance: 2)
            #expect(diff.pixelsOverTolerance == 0, "\(diff.failureLines.joined(separator: "\n"))")
        }
    }

    /// More layers reach one tile than the driver has varyings for: they are read as uniforms.
    @Test func manyLayersOnOneTileMatchTheCPUReference() throws {
        var generator = SplitMix64(seed: 3)
        let items = (0..<60).map { n in
            DrawItem(ItemID("disc \(n)"), Disc(centerX: generator.next(in: 10...30), centerY: generator.next(in: 10...30), radius: generator.next(in: 2...12),
                                   color: RGBA(generator.next(in: 0...1), generator.next(in: 0...1), generator.next(in: 0...1),
                                               generator.next(in: 0.1...0.6)),
                                   width: 40, height: 40))
        }
        let list = DrawList(width: 40, height: 40, background: PaintColor(.clear), items: items)
        let diff = ImageDiff(expected: CPURenderer().render(list), observed: try GLRenderer().render(list), tolerance: 2)
        #expect(diff.pixelsOverTolerance == 0, "\(diff.failureLines.joined(separator: "\n"))")
    }

    /// Frames rendered many per draw — stacks of one size, sizes changing in between — are the
    /// frames rendered one by one.
    @Test func framesRenderedInStacksMatchTheCPUReference() throws {
        var lists: [DrawList] = []
        for (id, scale) in [("wave-ball", 0.3), ("ring", 1.0), ("wave-ball", 0.3), ("activity", 0.5)] {
            let scene = try LaidOutScene(Scene(try SceneRegistry.model(id), scale: scale))
            lists += (0..<70).map { scene.drawList(at: 0.9 + Double($0) / 60) }
        }
        // Canvases of a few pixels whose HUD box reaches past the frame: its instanced quad
        // crosses into the frame above in the stack, which it must leave alone.
        for (scale, background) in [(1.39, "none"), (2.97, "0.2,0.3,0.4,0.5")] {
            let scene = try LaidOutScene(Scene(Activity(), scale: scale).setting("size", to: "1").setting("background", to: background))
            lists += (0..<5).map { scene.drawList(at: 37.1 + Double($0) / 60) }
        }
        let gl = try GLRenderer()
        let cpu = CPURenderer()
        let images = try gl.render(lists)
        #expect(images.count == lists.count)
        for (k, (list, image)) in zip(lists, images).enumerated() {
            let diff = ImageDiff(expected: cpu.render(list), observed: image, tolerance: 2)
            #expect(diff.pixelsOverTolerance == 0, "frame \(k): \(diff.failureLines.joined(separator: "\n"))")
        }
    }

    func assertParity(_ scene: LaidOutScene, label: String, times: [Double],
                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        let gl = try GLRenderer()
        let cpu = CPURenderer()
        var worst = 0
        for t in times {
            let list = scene.drawList(at: t)
            let diff = ImageDiff(expected: cpu.render(list), observed: try gl.render(list), tolerance: 2)
            worst = max(worst, diff.maxChannelDifference)
            #expect(diff.pixelsOverTolerance == 0,
                    "\(label) t=\(t): \(diff.pixelsOverTolerance) pixels differ by more than 2/255\n\(diff.failureLines.joined(separator: "\n"))",
                    sourceLocation: sourceLocation)
        }
        print("parity \(label) (\(scene.pixelSize.width)×\(scene.pixelSize.height) px): largest channel difference \(worst)/255 over \(times.count) times")
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
            (error as! ThrobberError).kind == .usage
        }
    }

    @Test func brokenShaderReportsTheFileAndTheDriverLog() throws {
        var sources = ShaderLibrary.embedded.sources
        sources["layers.frag"] = sources["layers.frag"]!.replacingOccurrences(of: "o_color = resolvePixel", with: "o_color = undefinedThing")
        let broken = ShaderLibrary(sources: sources, origin: "test")
        #expect {
            try GLRenderer(shaders: broken)
        } throws: { error in
            let error = error as! ThrobberError
            return error.kind == .backendFailure && error.message.contains("layers.frag")
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
        let list = try LaidOutScene(Scene()).drawList(at: 1)
        #expect(try GLRenderer(shaders: library).render(list) == GLRenderer().render(list))
        try FileManager.default.removeItem(at: directory.appendingPathComponent("layers.frag"))
        #expect(throws: ThrobberError.self) { try ShaderLibrary(directory: directory) }
    }
}
