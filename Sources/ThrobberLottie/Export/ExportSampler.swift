import Foundation
import Throbber

/// A scene's elements at Lottie frames, each frame lowered once.
final class ExportSampler {
    let scene: LaidOutScene
    let start: Double
    let rate: Double
    let tolerance: Double
    private var cache: [Double: [ExportElement]] = [:]

    /// The scene at `textScale` times its scale, for its text (`ExportLowering.elements`).
    let textScene: LaidOutScene?
    static let textScale = 8.0

    init(scene: LaidOutScene, start: Double, rate: Double, tolerance: Double) {
        self.scene = scene
        self.start = start
        self.rate = rate
        self.tolerance = tolerance
        // Text is placed to a quarter pixel at the scale it is drawn at: laid out 8 times finer,
        // its outlines are within 1/32 pt of where any scale's glyphs sit on average.
        textScene = scene.text.flatMap { _ in
            var fine = scene.scene
            fine.scale *= ExportSampler.textScale
            guard let request = fine.textRequest, let engine = scene.textEngine, let text = try? engine.layOut(request) else { return nil }
            return try? LaidOutScene(fine, text: text, engine: engine)
        }
    }

    /// The elements at Lottie frame `frame`, each key made unique in its frame.
    func elements(at frame: Double) throws -> [ExportElement] {
        if let cached = cache[frame] { return cached }
        let t = start + frame / rate
        var elements = try ExportLowering.elements(of: try scene.checkedDrawList(at: t), tolerance: tolerance,
                                                   text: try textScene?.checkedDrawList(at: t), textScale: ExportSampler.textScale)
        var seen: [String: Int] = [:]
        for k in elements.indices {
            let n = seen[elements[k].key, default: 0]
            seen[elements[k].key] = n + 1
            if n > 0 { elements[k].key += "#\(n)" }
        }
        // The tracks keep every sample; the cache serves the bisections and probes around them,
        // so it stays small however long the export.
        if cache.count >= 256 { cache.removeAll(keepingCapacity: true) }
        cache[frame] = elements
        return elements
    }
}
