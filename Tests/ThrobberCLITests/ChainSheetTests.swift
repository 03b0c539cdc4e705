import Foundation
import Testing
import Throbber
import ThrobberBatch
import ThrobberPNG
import ThrobberTestSupport

/// A chained render's sheet pages each record only the links that drew their cells, so a page's
/// provenance grows with its cells, not with the chain, and every page still renders again and
/// is kept by a resume.
@Suite(.serialized)
struct ChainSheetTests {
    /// `links` links of `length` frames each, each with its own corner radius, on a grid sheet
    /// of `perPage` frames a page (12-px frames).
    static func job(links: Int, length: Int, across: Int) -> String {
        let chain = (0..<links).map { #"{"frames":\#(length),"parameters":{"hudCornerRadius":\#(1 + $0 % 5)}}"# }
        return #"{"backend":"cpu","renders":[{"scene":"ring","fps":30,"parameters":{"hudSize":12},"chain":[\#(chain.joined(separator: ","))],"#
            + #""outputs":[{"type":"sheet","path":"s-{page}.png","maxSize":\#(12 * across)}]}]}"#
    }

    @Test(arguments: [(200, 1, 2), (60, 3, 2), (90, 1, 3), (7, 5, 1)])
    func eachPageRecordsTheLinksThatDrewItAndRendersAgain(links: Int, length: Int, across: Int) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let jobFile = directory.appendingPathComponent("job.json")
        try Data(ChainSheetTests.job(links: links, length: length, across: across).utf8).write(to: jobFile)
        let batch = try runThrobber(["batch", jobFile.path, "-q"])
        #expect(batch.status == 0, "\(batch.stderr)")
        let perPage = across * across, frames = links * length
        let pages = (frames + perPage - 1) / perPage
        for page in 0..<pages {
            let image = directory.appendingPathComponent("s-\(page).png")
            let chain = try PNGCodec.textChunks(Data(contentsOf: image)).first { $0.0 == FrameText.Key.chain }?.1
            // The links of frames page·perPage … : the one drawing the first cell (unless it is the
            // first link, which Throbber:parameters records) and each starting on the page.
            let cells = page * perPage..<min(frames, (page + 1) * perPage)
            let drawing = Set(cells.map { $0 / length })
            let expected = drawing.sorted().filter { $0 > 0 }.map { link in "from=\(formatNumber(Double(link * length) / 30))\t" }
            let lines = chain?.split(separator: "\n").map(String.init) ?? []
            #expect(lines.count == expected.count, "page \(page): \(lines)")
            for (line, prefix) in zip(lines, expected) { #expect(line.hasPrefix(prefix), "page \(page): \(line)") }
            // The atlas records the same links.
            let atlas = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("s-\(page).json")))
                                     as? [String: Any])
            let throbber = try #require((atlas["meta"] as? [String: Any])?["throbber"] as? [String: String])
            #expect(throbber["chain"] == chain, "page \(page)")
        }
        // Every page renders again cell for cell from its own tEXt.
        for page in Set([0, pages / 2, pages - 1]) {
            let result = try runThrobber(["reproduce", directory.appendingPathComponent("s-\(page).png").path])
            #expect(result.status == 0 && result.stdout.hasPrefix("same "), "page \(page): \(result.stdout)\(result.stderr)")
        }
        // A resume keeps every page: their tEXt and atlases are what this run writes.
        let again = try runThrobber(["batch", jobFile.path, "--skip-existing"])
        #expect(again.status == 0 && again.stderr.contains("rendered 0 frames"), "\(again.stderr)")
    }
}
