import Foundation

/// The relative links of Markdown documents, and those that lead nowhere.
///
/// A link is `[text](target)` or `![alt](target)` outside code (fenced blocks and inline code
/// spans). An external link (`http:`, `https:`, `mailto:`) is not followed. Any other target is a
/// path relative to the document, which must exist; a `#anchor` on a Markdown file (or alone, on
/// the document itself) must be one of that file's headings, named as GitHub names them.
struct DocumentLinks: Sendable {
    /// One link that leads nowhere: where it is, what it says and why it fails.
    struct Broken: Equatable, Sendable, CustomStringConvertible {
        var document: String
        var line: Int
        var target: String
        var reason: String

        var description: String { "\(document):\(line): (\(target)) \(reason)" }
    }

    /// A link as written: its line (1-based) and its target.
    struct Link: Equatable, Sendable {
        var line: Int
        var target: String
    }

    /// Reads a file's text by its path, nil where there is none (a test's made-up documents).
    var read: @Sendable (URL) -> String?
    /// Whether something (a file or a directory) is at a path.
    var exists: @Sendable (URL) -> Bool

    /// Links on the file system.
    static let files = DocumentLinks(
        read: { try? String(contentsOf: $0, encoding: .utf8) },
        exists: { FileManager.default.fileExists(atPath: $0.path) })

    /// The links of `document` (at `url`) that lead nowhere.
    func broken(in document: String, at url: URL, shownAs name: String) -> [Broken] {
        var found: [Broken] = []
        for link in DocumentLinks.links(in: document) {
            let target = link.target
            if DocumentLinks.isExternal(target) { continue }
            let hash = target.firstIndex(of: "#")
            let pathPart = String(target[..<(hash ?? target.endIndex)])
            let anchor = hash.map { String(target[target.index(after: $0)...]) }
            let path = pathPart.removingPercentEncoding ?? pathPart
            let file = path.isEmpty ? url : url.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
            if !path.isEmpty && !exists(file) {
                found.append(Broken(document: name, line: link.line, target: target, reason: "no such file"))
                continue
            }
            guard let anchor, file.pathExtension == "md" else { continue }
            guard let text = path.isEmpty ? document : read(file) else {
                found.append(Broken(document: name, line: link.line, target: target, reason: "cannot be read"))
                continue
            }
            if !DocumentLinks.anchors(in: text).contains(anchor) {
                found.append(Broken(document: name, line: link.line, target: target, reason: "no heading with anchor #\(anchor)"))
            }
        }
        return found
    }

    /// Whether a target leaves the repository (not checked).
    static func isExternal(_ target: String) -> Bool {
        let lower = target.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("mailto:")
    }

    /// Every link of a Markdown text outside code, with its line.
    static func links(in text: String) -> [Link] {
        var links: [Link] = []
        let pattern = #/\]\(<?([^()\s<>]+)>?(?:\s+"[^"]*")?\)/#
        for (number, line) in proseLines(of: text) {
            for match in withoutInlineCode(line).matches(of: pattern) {
                links.append(Link(line: number, target: String(match.output.1)))
            }
        }
        return links
    }

    /// The anchors GitHub gives a Markdown text's headings: the heading's text as shown, lowercased,
    /// every character but letters, digits, `_`, `-` and spaces dropped, spaces made `-`; a heading
    /// met again gets `-1`, `-2` … after it.
    static func anchors(in text: String) -> Set<String> {
        var anchors = Set<String>()
        var seen: [String: Int] = [:]
        for (_, line) in proseLines(of: text) {
            guard let heading = line.wholeMatch(of: #/\s{0,3}#{1,6}\s+(.*?)\s*#*\s*/#) else { continue }
            let slug = slug(of: String(heading.output.1))
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            anchors.insert(count == 0 ? slug : "\(slug)-\(count)")
        }
        return anchors
    }

    /// The anchor of one heading's text.
    static func slug(of heading: String) -> String {
        // As shown: a link's text without its target, code without its backticks, no emphasis marks.
        var shown = heading.replacing(#/!?\[([^\]]*)\]\([^)]*\)/#) { String($0.output.1) }
        shown = shown.replacing(#/<[^>]+>/#, with: "")
        shown = shown.filter { $0 != "`" && $0 != "*" }
        var slug = ""
        for character in shown.lowercased() {
            if character == " " {
                slug.append("-")
            } else if character == "-" || character == "_" || character.isLetter || character.isNumber {
                slug.append(character)
            }
        }
        return slug
    }

    /// The lines of a Markdown text that are not in a fenced code block, numbered from 1.
    static func proseLines(of text: String) -> [(Int, String)] {
        var lines: [(Int, String)] = []
        var fence: String?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if let open = fence {
                if trimmed.hasPrefix(open) && trimmed.drop(while: { String($0) == String(open.first!) }).allSatisfy(\.isWhitespace) {
                    fence = nil
                }
                continue
            }
            if let marker = trimmed.prefixMatch(of: #/```+|~~~+/#) {
                fence = String(marker.output)
                continue
            }
            lines.append((index + 1, String(line)))
        }
        return lines
    }

    /// A line with its inline code spans taken out: a run of backticks up to the next run of as
    /// many (a run with no partner is kept, as Markdown shows it).
    static func withoutInlineCode(_ line: String) -> String {
        let characters = Array(line)
        var kept = ""
        var index = 0
        while index < characters.count {
            guard characters[index] == "`" else {
                kept.append(characters[index])
                index += 1
                continue
            }
            var end = index
            while end < characters.count && characters[end] == "`" { end += 1 }
            let run = end - index
            var close = end
            var closed: Int?
            while close < characters.count {
                guard characters[close] == "`" else { close += 1; continue }
                var after = close
                while after < characters.count && characters[after] == "`" { after += 1 }
                if after - close == run { closed = after; break }
                close = after
            }
            if let closed {
                index = closed
            } else {
                kept.append(contentsOf: characters[index..<end])
                index = end
            }
        }
        return kept
    }
}
