import Foundation
import Throbber
import ThrobberCPU
import ThrobberPNG

/// `throbber bench --png-sweep`: which zlib level, strategy and PNG row filters suit Throbber's
/// frames (flat colour, thin anti-aliased edges), measured rather than guessed.
enum PNGSweep {
    struct Candidate: Codable {
        var level: Int
        var strategy: String
        var filters: String
        var medianMs: Double
        var bytes: Double
        var withinTenPercentOfSmallest: Bool
        var chosen: Bool
    }

    static let strategies: [(String, Int?)] = [("default", nil), ("filtered", 1), ("huffman", 2), ("rle", 3)]
    static let filterSets: [(String, Int?)] = [("adaptive", nil), ("none", 0x08), ("sub", 0x10), ("up", 0x20), ("paeth", 0x80)]

    static func run(_ settings: BenchCommand.Settings, jsonPath: String?) throws {
        let cpu = CPURenderer()
        var frames: [Image] = []
        for id in settings.scenes {
            for size in settings.sizes {
                let scene = try BenchCommand.scene(id, size: size)
                let count = max(1, min(settings.frames, 12))
                frames += (0..<count).map { cpu.render(scene.drawList(at: scene.model.previewDuration * Double($0) / Double(count))) }
            }
        }
        let clock = ContinuousClock()
        var candidates: [Candidate] = []
        for level in 1...9 {
            for (strategyName, strategy) in strategies {
                for (filterName, filters) in filterSets {
                    let png = PNGCodec.Settings(level: level, strategy: strategy, filters: filters)
                    var samples: [Double] = []
                    var bytes = 0
                    for _ in 0..<settings.repeats {
                        bytes = 0
                        for frame in frames {
                            let start = clock.now
                            let data = try PNGCodec.encode(frame, settings: png)
                            samples.append((clock.now - start).seconds * 1000)
                            bytes += data.count
                        }
                    }
                    candidates.append(Candidate(level: level, strategy: strategyName, filters: filterName,
                                                medianMs: Summary(samples).median, bytes: Double(bytes) / Double(frames.count),
                                                withinTenPercentOfSmallest: false, chosen: false))
                }
            }
        }
        let smallest = candidates.map(\.bytes).min()!
        for i in candidates.indices { candidates[i].withinTenPercentOfSmallest = candidates[i].bytes <= smallest * 1.1 }
        if let best = candidates.indices.filter({ candidates[$0].withinTenPercentOfSmallest }).min(by: { candidates[$0].medianMs < candidates[$1].medianMs }) {
            candidates[best].chosen = true
        }
        print("## PNG encoder settings on \(frames.count) frames of \(settings.scenes.joined(separator: ", ")) at \(settings.sizes.map(String.init).joined(separator: ", ")) px")
        print("")
        print("| level | strategy | filters | median ms/frame | mean bytes | within 10% of smallest |")
        print("|---:|---|---|---:|---:|---|")
        for c in candidates.sorted(by: { $0.medianMs < $1.medianMs }) {
            print(String(format: "| %d | %@ | %@ | %.3f | %.0f | %@ |", c.level, c.strategy, c.filters, c.medianMs, c.bytes,
                         c.chosen ? "**chosen**" : (c.withinTenPercentOfSmallest ? "yes" : "")))
        }
        if let jsonPath { try DiffOptions.writeJSON(candidates, to: jsonPath) }
    }
}
