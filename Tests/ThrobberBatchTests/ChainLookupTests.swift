import Foundation
import Testing
@testable import Throbber
@testable import ThrobberBatch

/// A chain's link for a frame is found by bisection: the same link as walking every link, for
/// chains of 2 to thousands of links with links of any length.
struct ChainLookupTests {
    /// A chained ring render of links `lengths` frames long, each with its own corner radius.
    func clip(_ lengths: [Int]) throws -> Clip {
        let links = lengths.enumerated().map { i, n in #"{"frames":\#(n),"parameters":{"hudCornerRadius":\#(1 + i % 10)}}"# }
        let text = #"{"renders":[{"scene":"ring","chain":[\#(links.joined(separator: ","))],"outputs":[{"type":"rgba","path":"x.rgba"}]}]}"#
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chain-\(UUID().uuidString).json")
        try text.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        return try Job.load(path: url.path, baseDirectory: "/out").clips[0]
    }

    @Test(arguments: [2, 3, 17, 1000, 5000])
    func eachFrameIsDrawnByTheLinkThatHoldsIt(links: Int) throws {
        var random = SystemRandomNumberGenerator()
        let lengths = (0..<links).map { _ in Int.random(in: 1...(links > 100 ? 3 : 40), using: &random) }
        let clip = try clip(lengths)
        #expect(clip.chain.count == links - 1 && clip.frameCount == lengths.reduce(0, +))
        var k = 0
        for (link, length) in lengths.enumerated() {
            for _ in 0..<length {
                #expect(clip.linkIndex(k) == link, "frame \(k)")
                #expect(clip.scene(forFrame: k).model.assignments.first { $0.name == "hudCornerRadius" }?.value == "\(1 + link % 10)", "frame \(k)")
                k += 1
            }
        }
        // Past either end: the first link before it, the last after it.
        #expect(clip.linkIndex(-1) == 0 && clip.linkIndex(k + 5) == links - 1)
    }
}
