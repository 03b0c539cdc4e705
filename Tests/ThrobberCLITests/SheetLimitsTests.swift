import Foundation
import Testing
import ThrobberTestSupport

/// A sheet's costs and paths are bounded before the first frame: its atlases grow linearly with
/// its pages, its page count has a cap, every output path names a file (not a directory, not
/// empty), and a resume names what it found at a WebP page.
@Suite(.serialized)
struct SheetLimitsTests {
    func write(_ text: String, in directory: URL, name: String = "job.json") throws -> String {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// A 12-px ring render of `frames` frames with `outputs` (JSON text).
    static func job(frames: Int, _ outputs: String) -> String {
        #"{"renders":[{"scene":"ring","frames":\#(frames),"parameters":{"hudSize":12,"hudCornerRadius":2},"outputs":[\#(outputs)]}]}"#
    }

    /// Each atlas lists what its page holds; only the first lists the whole clip and the other
    /// pages, so the atlases' bytes grow with the pages (not their square).
    @Test(arguments: [(40, 1), (400, 1), (1200, 1), (1200, 4)])
    func atlasesAreLinearInPages(frames: Int, perPage: Int) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let maxSize = perPage == 1 ? 12 : 24 // 1 or 2 × 2 frames of 12 px a page
        let path = try write(SheetLimitsTests.job(frames: frames, #"{"type":"sheet","path":"q/s{page}.png","maxSize":\#(maxSize)}"#), in: directory)
        let result = try runThrobber(["batch", path, "--backend", "cpu", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let pages = frames / perPage
        let q = directory.appendingPathComponent("q")
        #expect(try listing(q).count == 2 * pages)
        var total = 0, largestLater = 0
        for page in 0..<pages {
            let data = try Data(contentsOf: q.appendingPathComponent("s\(page).json"))
            total += data.count
            if page > 0 { largestLater = max(largestLater, data.count) }
            let atlas = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let meta = try #require(atlas["meta"] as? [String: Any])
            #expect((atlas["frames"] as? [String: Any])?.count == perPage)
            #expect((meta["related_multi_packs"] as? [String])?.count == (page == 0 ? pages - 1 : nil))
            #expect((meta["animations"] as? [String: [String]])?["ring"]?.count == (page == 0 ? frames : nil))
        }
        // A page's atlas is about 700 bytes and 300 more per frame; the first adds ~30 per name.
        #expect(largestLater <= 800 + 400 * perPage, "a later page's atlas takes \(largestLater) bytes")
        #expect(total <= pages * (800 + 400 * perPage) + 40 * (frames + pages), "\(pages) atlases take \(total) bytes")
    }

    /// More pages than `Limits.sheetPages` are refused before rendering, naming maxSize.
    @Test(arguments: [(10_001, 12), (40_004, 24), (1_000_000, 48)])
    func aSheetOfTooManyPagesIsRefusedBeforeRendering(frames: Int, maxSize: Int) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try write(SheetLimitsTests.job(frames: frames, #"{"type":"sheet","path":"q/s.png","maxSize":\#(maxSize)}"#), in: directory)
        let result = try runThrobber(["batch", path, "--backend", "cpu", "-q"])
        let perPage = (maxSize / 12) * (maxSize / 12)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("takes \((frames + perPage - 1) / perPage) pages") && result.stderr.contains("at most 10000 pages")
                && result.stderr.contains("\"maxSize\""), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try listing(directory) == ["job.json"])
    }

    /// An output path that names a directory, or nothing, is refused before anything is
    /// written, with 65 and the field, at its line and column.
    @Test(arguments: [
        (#"{"type":"sheet","path":"q/s.png","json":"q/"}"#, "json", "ends in '/'"),
        (#"{"type":"sheet","path":"q/s.png","json":""}"#, "json", "is empty"),
        (#"{"type":"sheet","path":"q/s.png","multiatlas":"q/"}"#, "multiatlas", "ends in '/'"),
        (#"{"type":"sheet","path":"q/s.png","multiatlas":"q/.."}"#, "multiatlas", "ends in '..'"),
        (#"{"type":"sheet","path":""}"#, "path", "is empty"),
        (#"{"type":"sheet","path":"q/"}"#, "path", "ends in '/'"),
        (#"{"type":"rgba","path":"q/"}"#, "path", "ends in '/'"),
        (#"{"type":"y4m","path":"q/."}"#, "path", "ends in '.'"),
        (#"{"type":"y4m","path":""}"#, "path", "is empty"),
        (#"{"type":"video","path":"q/a.gif/"}"#, "path", "ends in '/'"),
        (#"{"type":"png","pattern":"q/%d.png/"}"#, "pattern", "ends in '/'"),
    ])
    func anOutputPathThatNamesADirectoryIsRefusedAtItsField(output: String, field: String, problem: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try write(SheetLimitsTests.job(frames: 3, output), in: directory)
        let result = try runThrobber(["batch", path, "--backend", "cpu", "-q"])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("throbber: \(path):1:") && result.stderr.contains("invalid \(field) ")
                && result.stderr.contains(problem), "\(result.stderr)")
        #expect(try listing(directory) == ["job.json"], "written: \((try? listing(directory)) ?? [])")
    }

    /// An output whose file would be a directory another output is written in is refused before
    /// anything is written, naming both, whichever comes first.
    @Test(arguments: [
        (#"{"type":"sheet","path":"q/s.png","json":"q"}"#, "sheet atlas (json)"),
        (#"{"type":"rgba","path":"q"},{"type":"png","pattern":"q/%03d.png"}"#, "rgba"),
        (#"{"type":"png","pattern":"q/a/%03d.png"},{"type":"y4m","path":"q/a"}"#, "y4m"),
        (#"{"type":"video","path":"q/a.gif"},{"type":"sheet","path":"q/a.gif/s.png"}"#, "gif"),
    ])
    func anOutputThatIsAnotherOutputsDirectoryIsRefused(outputs: String, role: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try write(SheetLimitsTests.job(frames: 3, outputs), in: directory)
        let result = try runThrobber(["batch", path, "--backend", "cpu", "-q"])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("\(role) output (line 1) \(directory.path)/q") && result.stderr.contains("would have to be a directory"),
                "\(result.stderr)")
        #expect(try listing(directory) == ["job.json"], "written: \((try? listing(directory)) ?? [])")
    }

    /// The same holes on the command line are usage errors (64).
    @Test(arguments: [("m/", "ends in '/'"), ("", "is empty"), ("m/..", "ends in '..'")])
    func aManifestPathThatNamesADirectoryIsAUsageError(manifest: String, problem: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try write(SheetLimitsTests.job(frames: 3, #"{"type":"sheet","path":"s.png"}"#), in: directory)
        let result = try runThrobber(["batch", path, "--backend", "cpu", "-q", "--manifest", manifest], in: directory)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("the manifest \"\(manifest)\" \(problem)"), "\(result.stderr)")
        #expect(try listing(directory) == ["job.json"], "written: \((try? listing(directory)) ?? [])")
    }

    /// `--skip-existing` with a WebP sheet page there: the run's own page (its manifest records
    /// it) is replaced; anything else is named for what it is and left alone.
    @Test func aResumeNamesWhatItFindsAtAWebPPage() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try write(SheetLimitsTests.job(frames: 6, #"{"type":"sheet","path":"w/s.webp","maxSize":24}"#), in: directory)
        let w = directory.appendingPathComponent("w")
        #expect(try runThrobber(["batch", path, "--backend", "cpu", "-q"]).status == 0)
        #expect(try listing(w) == ["s-0.json", "s-0.webp", "s-1.json", "s-1.webp"])
        // The run's own page, with another page's atlas missing: replaced.
        try FileManager.default.removeItem(at: w.appendingPathComponent("s-1.json"))
        let resumed = try runThrobber(["batch", path, "--backend", "cpu", "-q", "--skip-existing"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try listing(w) == ["s-0.json", "s-0.webp", "s-1.json", "s-1.webp"])
        // A file that is no WebP at all.
        try FileManager.default.removeItem(at: w.appendingPathComponent("s-1.json"))
        try Data("hello".utf8).write(to: w.appendingPathComponent("s-0.webp"))
        let foreign = try runThrobber(["batch", path, "--backend", "cpu", "-q", "--skip-existing"])
        #expect(foreign.status == 65, "\(foreign.stderr)")
        #expect(foreign.stderr.contains("s-0.webp exists but is not a file Throbber wrote (not a WebP image") && !foreign.stderr.contains("PNG"),
                "\(foreign.stderr)")
        #expect(try Data(contentsOf: w.appendingPathComponent("s-0.webp")) == Data("hello".utf8))
        // A WebP page no manifest records: not known to be the run's.
        try FileManager.default.copyItem(at: w.appendingPathComponent("s-1.webp"), to: directory.appendingPathComponent("keep.webp"))
        try FileManager.default.removeItem(at: w.appendingPathComponent("s-0.webp"))
        try FileManager.default.copyItem(at: directory.appendingPathComponent("keep.webp"), to: w.appendingPathComponent("s-0.webp"))
        let unknown = try runThrobber(["batch", path, "--backend", "cpu", "-q", "--skip-existing"])
        #expect(unknown.status == 65, "\(unknown.stderr)")
        #expect(unknown.stderr.contains("s-0.webp exists but is not a file Throbber wrote (a WebP image that no manifest of this job records)"),
                "\(unknown.stderr)")
    }
}
