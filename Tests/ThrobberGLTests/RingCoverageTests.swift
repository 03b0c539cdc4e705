import Testing
import Throbber
import ThrobberText
import ThrobberCPU
@testable import ThrobberGL
import ThrobberTestSupport

/// Rings of boxes drawn from coverage textures (GLRenderer's ring coverage cache) against the
/// same rings evaluated in the layers shader, and against the CPU reference: every scene at odd
/// scales and times, tick counts that are not multiples of 4, and random parameter sets of the
/// scenes with rings. Serialized and synchronous: a GL context is current on the thread that
/// made it.
@Suite(.serialized, .enabled(if: GLAvailability.osmesa.available, Comment(rawValue: GLAvailability.osmesa.reason)))
struct RingCoverageTests {
    /// Draw lists with rings: FrameStackTests' lists and 20 random cases of each scene.
    static func lists() throws -> [DrawList] {
        var lists = try FrameStackTests.lists()
        let sampler = ParameterSampler(seed: 11)
        for id in ["wave-ball", "activity"] {
            for index in 0..<20 {
                let sampled = try sampler.draw(id, index: index)
                lists.append(try sampled.scene.layingOutText().drawList(at: sampled.time))
            }
        }
        return lists
    }

    @Test func ringsFromTexturesMatchRingsInTheShaderAndTheCPU() throws {
        let inShader = try GLRenderer()
        inShader.cachesRingCoverage = false
        let cached = try GLRenderer()
        let cpu = CPURenderer()
        var drawnFromTextures = 0
        for list in try RingCoverageTests.lists() {
            let expected = try inShader.render(list)
            let before = cached.coverageTextureCount
            // Twice in one stack: the ring is seen in two frames, so both are drawn from its texture.
            let twice = try cached.render([list, list])
            if cached.coverageTextureCount > before { drawnFromTextures += 1 }
            let reference = cpu.render(list)
            for image in twice {
                let same = ImageDiff(expected: expected, observed: image, tolerance: 1)
                #expect(same.pixelsOverTolerance == 0, "\(list.width)×\(list.height): \(same.failureLines.joined(separator: "\n"))")
                let parity = ImageDiff(expected: reference, observed: image, tolerance: 2)
                #expect(parity.pixelsOverTolerance == 0, "\(list.width)×\(list.height): \(parity.failureLines.joined(separator: "\n"))")
            }
        }
        // Most of these lists have a ring of one box per pixel (the wave ball's, the spinner's).
        #expect(drawnFromTextures >= 20, "only \(drawnFromTextures) lists made a coverage texture")
        #expect(inShader.coverageTextureCount == 0)
    }

    @Test func aFrameSeenOnceMakesNoTexture() throws {
        let gl = try GLRenderer()
        _ = try gl.render(LaidOutScene(Scene(WaveBall())).drawList(at: 1))
        #expect(gl.coverageTextureCount == 0)
        // The same ring in a later frame is its second sighting.
        _ = try gl.render(LaidOutScene(Scene(WaveBall())).drawList(at: 2))
        #expect(gl.coverageTextureCount >= 1)
    }

    @Test func theTexturesKeptStayWithinTheirBudget() throws {
        let gl = try GLRenderer()
        // 12 sizes up to 1,200 px: 4 bytes a pixel would pass 64 MiB without eviction.
        for side in stride(from: 300, through: 1200, by: 80) {
            let list = try LaidOutScene(Scene(WaveBall(), scale: Double(side) / 300)).drawList(at: 3)
            _ = try gl.render([list, list])
            #expect(gl.coverageBytes <= RingCoverageCache.maximumBytes)
        }
        #expect(gl.coverageTextureCount >= 1)
    }

    /// A canvas whose rings' textures do not both fit the budget: the first keeps its texture
    /// for the stack, the other is drawn in the shader, and the frame is the same.
    @Test func ringsBeyondTheBudgetAreDrawnInTheShader() throws {
        let list = try LaidOutScene(Scene(WaveBall(), scale: 10).setting("progress", to: "1").setting("fillFrom", to: "1")).drawList(at: 2)
        #expect(list.width * list.height * 4 * 2 > RingCoverageCache.maximumBytes)
        let inShader = try GLRenderer()
        inShader.cachesRingCoverage = false
        let expected = try inShader.render(list)
        let gl = try GLRenderer()
        for image in try gl.render([list, list]) {
            let diff = ImageDiff(expected: expected, observed: image, tolerance: 1)
            #expect(diff.pixelsOverTolerance == 0, "\(diff.failureLines.joined(separator: "\n"))")
        }
        #expect(gl.coverageTextureCount == 1 && gl.coverageBytes <= RingCoverageCache.maximumBytes)
    }
}
