import Foundation
import Testing
import Throbber
import ThrobberBatch
import ThrobberText

/// Issue 30: the wave ball's label in a frame's provenance (tEXt): captions of any characters
/// and the font files with their digests, hashed once while a file stays the same.
struct LabelProvenanceTests {
    /// The wave ball at 2× with its label settings, its text laid out.
    func ball(_ settings: [(String, String)]) throws -> LaidOutScene {
        try settings.reduce(Scene(WaveBall(), scale: 2)) { try $0.setting($1.0, to: $1.1) }.validated().layingOutText()
    }

    @Test func provenanceKeepsCaptionsWithSpacesNewlinesAndCJKAndTheFontFiles() throws {
        let scene = try ball([("label", "on"), ("caption", "电量 \"low\"\nback\\slash é")])
        let chunks = FrameText(scene, backend: "cpu", driver: "test").chunks(t: 0.5)
        for (_, text) in chunks { #expect(text.unicodeScalars.allSatisfy { $0.isASCII }, "\(text)") }
        let back = try FrameText.provenance(chunks, name: "frame")
        #expect(back.scene.model.value(of: "caption") == "电量 \"low\"\nback\\slash é")
        #expect(try back.scene.layingOutText().drawList(at: 0.5) == scene.drawList(at: 0.5))
        #expect(back.fonts.map(\.file).contains(FontRole.thin.defaultSource.path))
        #expect(back.fonts.allSatisfy { $0.sha256?.count == 64 })
        #expect(TextProvenance.changes(back.fonts).isEmpty)
        var changed = back.fonts
        changed[0].sha256 = String(repeating: "0", count: 64)
        #expect(TextProvenance.changes(changed).first?.contains("font changed") == true)
    }

    /// A font is hashed once per process while it is the same file; rewritten (same size, other
    /// bytes), it is hashed again, and a file gone reads as nil, not as its old digest.
    @Test func fontDigestsAreKeptWhileTheFileIsTheSame() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("throbber-digest-\(getpid()).bin").path
        defer { unlink(path) }
        try Data("first bytes".utf8).write(to: URL(fileURLWithPath: path))
        let digests = FontDigests()
        let first = try #require(digests.digest(of: path))
        // sha256sum of the same 11 bytes.
        #expect(first == "d67e08ade6e823c063affb00fea95adabffa75cf1a660d8fcea3223d68e8e44d")
        #expect(digests.digest(of: path) == first)
        #expect(digests.hashed == 1)
        try Data("other bytes".utf8).write(to: URL(fileURLWithPath: path))
        let second = try #require(digests.digest(of: path))
        #expect(second != first)
        #expect(digests.hashed == 2)
        digests.forget()
        #expect(digests.digest(of: path) == second)
        #expect(digests.hashed == 3)
        unlink(path)
        #expect(digests.digest(of: path) == nil)
    }
}
