import Foundation
import Testing

/// A file does one trade (docs/architecture.md): no Swift source or test file is longer than
/// 400 lines, and no fuzz family module is either, so a file that grows past it is split by
/// trade before it becomes a second manual.
struct FileSizeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let mostLines = 400

    /// Every file under `folder` whose name ends in `suffix`, as paths relative to the root.
    static func files(under folder: String, ending suffix: String) throws -> [String] {
        let walker = try #require(FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path))
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(suffix) }.map { "\(folder)/\($0)" }.sorted()
    }

    @Test func noSourceFileIsLongerThan400Lines() throws {
        let files = try Self.files(under: "Sources", ending: ".swift") + Self.files(under: "Tests", ending: ".swift")
            + Self.files(under: "scripts/fuzzing", ending: ".py")
        // The walk found the package's sources.
        #expect(files.contains("Sources/Throbber/Model/Scene.swift") && files.count > 200, "\(files.count) files")
        var long: [String] = []
        for file in files {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
            if lines > Self.mostLines { long.append("\(file): \(lines) lines") }
        }
        #expect(long.isEmpty, "longer than \(Self.mostLines) lines (split by trade): \(long.joined(separator: "; "))")
    }
}
