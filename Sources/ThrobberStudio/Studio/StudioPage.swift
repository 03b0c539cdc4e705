import Foundation
import Throbber
import ThrobberBatch

/// The page's three files: the copies compiled into the binary (`Page/`, embedded by the
/// EmbedStudioPage plugin), or, with `--page-dir`, the same three names read from a directory at
/// each request (for working on the page without rebuilding). Nothing else is ever served from disk.
struct StudioPage: Sendable {
    /// The files the page is made of, and their types.
    static let files = [
        "/index.html": "text/html; charset=utf-8",
        "/studio.js": "text/javascript; charset=utf-8",
        "/studio.css": "text/css; charset=utf-8",
    ]
    /// The most bytes a page file read from `--page-dir` may hold.
    static let largestFile = 4 << 20

    let directory: URL?

    /// - Throws: a usage error when `directory` lacks one of the page's files.
    init(directory: String?) throws {
        self.directory = directory.map { URL(fileURLWithPath: $0, isDirectory: true) }
        guard let base = self.directory else { return }
        for name in Self.files.keys.sorted() where !FileManager.default.fileExists(atPath: base.path + name) {
            throw ThrobberError.invalid("--page-dir", base.path, allowed: "a directory holding index.html, studio.js and studio.css "
                                        + "(\(name.dropFirst()) is missing)")
        }
    }

    /// The file `path` (one of `files`).
    func response(for path: String) -> HTTPResponse {
        guard let type = Self.files[path] else { return .error(404, "no such page") }
        let name = String(path.dropFirst())
        if let directory {
            // The one rule every input is read by: a regular file of at most `largestFile` bytes
            // (a FIFO or a device put there is refused, never read).
            do {
                let bytes = try InputFile.read(directory.appendingPathComponent(name).path, what: "page file",
                                               limit: Self.largestFile, streams: false)
                return HTTPResponse(status: 200, contentType: type, body: bytes)
            } catch {
                return .error(500, (error as? ThrobberError)?.message ?? "\(error)")
            }
        }
        guard let text = EmbeddedPage.sources[name] else { return .error(404, "no such page") }
        return HTTPResponse(status: 200, contentType: type, body: Array(text.utf8))
    }
}
