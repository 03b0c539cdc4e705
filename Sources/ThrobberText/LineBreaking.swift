import Throbber

extension TextShaper {
    /// `text` set in lines at most `maxWidth` pt wide (SPEC §6 "Line breaking"): U+000A ends a
    /// line; otherwise lines fill greedily, a line ending after a space (the space dropped, not
    /// counted) or before or after a CJK character; a word wider than `maxWidth` breaks between
    /// characters. Each candidate line is shaped whole, so kerning across it counts.
    ///
    /// - Throws: as `shape`; a usage error for a width that is not a finite number > 0.
    public func lines(_ text: String, role: FontRole, size: Double, maxWidth: Double) throws -> [ShapedLine] {
        try wrappedLines(text, role: role, size: size, maxWidth: maxWidth).map(\.line)
    }

    /// `lines(_:role:size:maxWidth:)` with each line's text (a line's dropped space not in it).
    public func wrappedLines(_ text: String, role: FontRole, size: Double, maxWidth: Double) throws -> [(text: String, line: ShapedLine)] {
        guard maxWidth.isFinite, maxWidth > 0 else {
            throw ThrobberError.invalid("maxWidth", formatNumber(maxWidth), allowed: "a finite number > 0 (pt)")
        }
        var lines: [(text: String, line: ShapedLine)] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let scalars = Array(paragraph.unicodeScalars)
            func text(_ range: Range<Int>) -> String {
                var view = String.UnicodeScalarView()
                view.append(contentsOf: scalars[range])
                return String(view)
            }
            func line(_ range: Range<Int>) throws -> ShapedLine { try shape(text(range), role: role, size: size) }
            guard !scalars.isEmpty else {
                lines.append(("", try line(0..<0)))
                continue
            }
            var start = 0
            while start < scalars.count {
                // Where a line from `start` may end, and where the next then starts, in order.
                var candidates: [(end: Int, next: Int)] = []
                for i in start..<scalars.count {
                    if scalars[i] == " " { candidates.append((i, i + 1)) }
                    if TextShaper.isCJK(scalars[i]) {
                        if i > start { candidates.append((i, i)) }
                        candidates.append((i + 1, i + 1))
                    }
                }
                candidates.append((scalars.count, scalars.count))
                var chosen: (end: Int, next: Int, line: ShapedLine)?
                for candidate in candidates where candidate.end > start || candidate.next > start {
                    let shaped = try line(start..<candidate.end)
                    guard shaped.width <= maxWidth else { break }
                    chosen = (candidate.end, candidate.next, shaped)
                }
                if chosen == nil {
                    // A word wider than the line: as many characters as fit, at least one.
                    var end = start + 1
                    var shaped = try line(start..<end)
                    while end < scalars.count, scalars[end] != " " {
                        let longer = try line(start..<(end + 1))
                        guard longer.width <= maxWidth else { break }
                        (end, shaped) = (end + 1, longer)
                    }
                    chosen = (end, end, shaped)
                }
                lines.append((text(start..<chosen!.end), chosen!.line))
                start = max(chosen!.next, start + 1)
            }
        }
        return lines
    }

    /// SPEC §6's CJK ranges, where a line may break before or after any character.
    static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2E80...0x9FFF, 0xF900...0xFAFF, 0xFF00...0xFFEF: true
        default: false
        }
    }
}
