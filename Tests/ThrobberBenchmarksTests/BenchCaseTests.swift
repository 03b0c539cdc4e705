import Foundation
import Testing
import Throbber
@testable import ThrobberBenchmarks
import ThrobberCPU
import ThrobberRender

/// The bench keeps its reference frames within a budget: past it they repeat the first ones,
/// sharing their memory, so a long `--frames` run does not hold a frame per list.
struct BenchCaseTests {
    @Test func referenceFramesPastTheBudgetRepeatTheFirstOnes() throws {
        let settings = Benchmarks.Settings(scenes: ["wave-ball"], sizes: [64], backends: [.cpu], stages: [.encode], frames: 7,
                                           repeats: 1, warmup: 0, png: .automatic, startup: false, device: nil)
        let frameBytes = 64 * 64 * 4
        let bench = try BenchCase("wave-ball", size: 64, settings: settings, scratch: FileManager.default.temporaryDirectory,
                                  referenceBudget: 3 * frameBytes)
        #expect(bench.distinctReferenceFrames == 3)
        try bench.renderReference(with: FrameRenderer(.cpu))
        #expect(bench.reference.count == 7)
        let cpu = CPURenderer()
        for (i, image) in bench.reference.enumerated() {
            // Frame i holds frame i mod 3, drawn once: the same storage, not a copy.
            #expect(image == cpu.render(bench.lists[i % 3]), "frame \(i)")
            let first = bench.reference[i % 3].pixels.withUnsafeBufferPointer { $0.baseAddress }
            #expect(image.pixels.withUnsafeBufferPointer { $0.baseAddress } == first, "frame \(i) is a copy")
        }
        // Distinct frames differ (the wave moves), so the repetition is visible.
        #expect(bench.reference[0] != bench.reference[1])
        let encoded = try bench.encodedFrames()
        #expect(encoded.count == 7)
        #expect(encoded[4] == encoded[1] && encoded[1] != encoded[2])
        // Within the budget every frame is its own.
        let roomy = try BenchCase("wave-ball", size: 64, settings: settings, scratch: FileManager.default.temporaryDirectory)
        try roomy.renderReference(with: FrameRenderer(.cpu))
        #expect(roomy.distinctReferenceFrames == 7)
        #expect(Set(roomy.reference.map(\.pixels)).count == 7)
    }

    /// `--scenes` names a scene with parameters set, so it is measured beside itself without them;
    /// a bad entry is refused naming what is allowed.
    @Test func sceneSpecsSetParameters() throws {
        let spec = try Benchmarks.SceneSpec("wave-ball:label=on:caption=Done")
        #expect(spec.id == "wave-ball")
        #expect(spec.settings.map(\.name) == ["label", "caption"])
        let scene = try Benchmarks.scene("wave-ball:label=on:caption=Done", size: 512)
        #expect(scene.pixelSize.width == 512 && scene.pixelSize.height == 512)
        #expect(scene.text != nil && scene.textRequest != nil)
        #expect(try Benchmarks.scene("wave-ball", size: 512).textRequest == nil)
        // The size is the longer side of the canvas the settings make: a phone screen at @3x, a
        // HUD grown around its status.
        let phone = try Benchmarks.scene("hud:screen=390x844:mask=gradient:status=Loading", size: 2532)
        #expect(phone.scale == 3 && phone.pixelSize.width == 1170 && phone.pixelSize.height == 2532)
        let grown = try Benchmarks.scene("hud:status=Uploading your photos", size: 400)
        #expect(max(grown.pixelSize.width, grown.pixelSize.height) == 400)
        for bad in ["nope", "wave-ball:label", "wave-ball:scale=2", "wave-ball:label=maybe", "wave-ball:=on"] {
            #expect(throws: ThrobberError.self, "\(bad)") { _ = try Benchmarks.scene(bad, size: 64) }
        }
    }
}
