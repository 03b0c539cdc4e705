import Foundation
import Testing

/// Every relative link in README.md and docs/ leads somewhere: the file exists and, for
/// `file.md#anchor`, the file has that heading. The README is short and points into docs/, so a
/// page moved or a heading renamed would otherwise leave a reader at a dead end.
struct DocumentLinkTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// README.md and every Markdown file under docs/, as paths relative to the root.
    static func documents() throws -> [String] {
        let docs = root.appendingPathComponent("docs")
        let walker = try #require(FileManager.default.enumerator(atPath: docs.path))
        let pages = walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".md") }.map { "docs/\($0)" }
        return ["README.md"] + pages.sorted()
    }

    @Test func everyRelativeLinkResolves() throws {
        let documents = try DocumentLinkTests.documents()
        // The walk found the pages the README leads to.
        #expect(documents.contains("docs/architecture.md"), "\(documents)")
        var links = 0
        var broken: [DocumentLinks.Broken] = []
        for name in documents {
            let url = DocumentLinkTests.root.appendingPathComponent(name)
            let text = try String(contentsOf: url, encoding: .utf8)
            links += DocumentLinks.links(in: text).count
            broken += DocumentLinks.files.broken(in: text, at: url, shownAs: name)
        }
        #expect(links > 100, "only \(links) links found: the scan lost them")
        #expect(broken.isEmpty, "\(broken.count) broken links:\n\(broken.map(\.description).joined(separator: "\n"))")
    }

    /// The rule on made-up documents: a missing file, a missing heading, and a link to the
    /// document's own heading; code is not read as links; external links are not followed.
    @Test func brokenLinksAreFound() {
        let page = URL(fileURLWithPath: "/repo/docs/page.md")
        let other = URL(fileURLWithPath: "/repo/docs/other.md")
        let checker = DocumentLinks(
            read: { $0.path == other.path ? "# Other\n\n## Exit codes, and `why`\n\n## Exit codes, and why\n" : nil },
            exists: { $0.path == other.path || $0.path == "/repo/README.md" })
        let text = """
            # Page

            [ok](other.md) [ok](other.md#exit-codes-and-why-1) [ok](../README.md) [ok](#page)
            [gone](missing.md) ![gone](img/missing.png) [no heading](other.md#limits) [self](#nowhere)
            `[code](missing.md)` [web](https://example.com/missing)

            ```sh
            [fenced](missing.md)
            ```
            """
        let broken = checker.broken(in: text, at: page, shownAs: "docs/page.md")
        #expect(broken.map(\.target) == ["missing.md", "img/missing.png", "other.md#limits", "#nowhere"])
        #expect(broken.first?.line == 4)
        #expect(broken.first?.description == "docs/page.md:4: (missing.md) no such file")
    }

    /// GitHub's anchors: lowercase, punctuation dropped, spaces made hyphens, repeats numbered.
    @Test func anchorsAreGitHubs() {
        let text = "# Throbber\n## Batches: `throbber batch JOB.json`\n### 9.1 Groups\n## Two commands\n## Two commands\n"
            + "```\n# not a heading\n```\n## [Sheets](sheets.md) and *video*\n"
        #expect(DocumentLinks.anchors(in: text) == [
            "throbber", "batches-throbber-batch-jobjson", "91-groups", "two-commands", "two-commands-1", "sheets-and-video",
        ])
    }
}
