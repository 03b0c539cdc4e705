import Foundation
import Testing
import Throbber
import ThrobberText
import ThrobberBatch

/// A frame's tEXt renders it again: over the whole parameter space, not only the defaults.
struct ProvenanceTests {
    /// 200 random cases per scene (every parameter drawn from its range, colours with alpha,
    /// transparent and opaque backgrounds, odd scales, times far from 0), with loop speeds on
    /// some: the scene rebuilt from the chunks alone draws the same draw list at the same time.
    @Test(arguments: SceneRegistry.ids)
    func chunksRebuildTheSameFrame(id: String) throws {
        let sampler = ParameterSampler(seed: 11)
        var random = SplitMix64(seed: 5)
        for index in 0..<200 {
            var scene = try sampler.draw(id, index: index) { try $0.layingOutText() }.scene
            if index % 3 == 0 {
                // A loop's retiming: speed factors that are not round numbers.
                for part in scene.model.periodicParts { scene.model.speeds.factors[part.name] = 0.5 + random.nextUnit() }
            }
            let t = try sampler.draw(id, index: index).time
            let laidOut = try scene.layingOutText()
            let chunks = FrameText(laidOut, backend: "cpu", driver: "test").chunks(t: t)
            let back = try FrameText.provenance(chunks, name: "case \(index)")
            #expect(back.times == [t])
            // A scene that measures its text (the hud's status) knows its size once laid out.
            #expect(try back.scene.layingOutText().pixelSize == laidOut.pixelSize)
            #expect(try back.scene.layingOutText().drawList(at: t) == laidOut.drawList(at: t), "\(id) #\(index): \(chunks)")
            // No placeholder --set does not take (waveLength=width, ringColor=style) and one background.
            // (`mask=none` is one of the hud's masks, a value, not a placeholder.)
            let parameters = chunks.first { $0.0 == FrameText.Key.parameters }!.1.replacingOccurrences(of: "mask=none", with: "")
            #expect(!parameters.contains("=width") && !parameters.contains("=style") && !parameters.contains("=none"), "\(parameters)")
            #expect(!parameters.contains("background="), "\(parameters)")
            #expect(chunks.filter { $0.0 == FrameText.Key.background }.count == 1)
        }
    }

    /// A sheet's chunks give every cell's time and the layout.
    @Test func sheetChunksCarryEveryCell() throws {
        let scene = Scene(try SceneRegistry.model("activity"), scale: 1.5)
        let times = [0, 0.125, 0.25, 1e5 + 0.1]
        let chunks = FrameText(try LaidOutScene(scene), backend: "gl", driver: "llvmpipe").chunks(columns: 3, times: times, layout: .contact)
        let back = try FrameText.provenance(chunks, name: "sheet")
        #expect(back.times == times && back.columns == 3 && back.layout == .contact && back.backend == "gl")
    }

    /// Chunks that are missing or do not make a scene are bad data, named.
    @Test func badChunksAreNamed() throws {
        let good = FrameText(try LaidOutScene(Scene()), backend: "cpu", driver: "x").chunks(t: 1)
        func failure(_ chunks: [(String, String)]) -> String {
            do {
                _ = try FrameText.provenance(chunks, name: "f.png")
                return "accepted"
            } catch let error as ThrobberError {
                return error.kind == .badData ? error.message : "kind \(error.kind)"
            } catch { return "\(error)" }
        }
        #expect(failure(good.filter { $0.0 != FrameText.Key.scene }).contains("no Throbber:scene"))
        #expect(failure(good.map { $0.0 == FrameText.Key.parameters ? ($0.0, "tickCount=0") : $0 }).contains("tickCount"))
        #expect(failure(good.map { $0.0 == FrameText.Key.time ? ($0.0, "soon") : $0 }).contains("Throbber:time"))
        #expect(failure(good.map { $0.0 == FrameText.Key.scene ? ($0.0, "wave-bal") : $0 }).contains("wave-ball"))
        #expect(failure(good + [(FrameText.Key.speeds, "frontPhase=-1")]).contains("Throbber:speeds"))
    }
}
