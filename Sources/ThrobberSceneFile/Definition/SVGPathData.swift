import Throbber

/// SVG path data (`d`, SVG 1.1 §8.3) read into a `PathGeometry`: every command, absolute and
/// relative — M L H V C S Q T A Z — with implicit repeats (extra pairs after M are lines), the
/// smooth commands reflecting the previous control point, and arcs converted to cubics
/// (SPEC §9). Numbers follow SVG's grammar (sign, digits, a point, an exponent; "1.5.5" is two
/// numbers), and an arc's flags may be written together ("011").
public enum SVGPathData {
    /// Bad path data: the character offset (in Unicode scalars from the start of the data) and
    /// what is wrong there.
    public struct Failure: Error, Sendable, Equatable {
        public var offset: Int
        public var message: String
    }

    /// Reads `data`.
    ///
    /// - Throws: `Failure` at the first character that does not fit the grammar.
    public static func read(_ data: String) throws -> PathGeometry {
        var scanner = Scanner(Array(data.unicodeScalars))
        return try scanner.read()
    }

    struct Scanner {
        let text: [Unicode.Scalar]
        var index = 0
        var path = PathGeometry()
        var current = PathPoint(0, 0)
        var subpathStart = PathPoint(0, 0)
        /// The last cubic's or quadratic's second control point, for S and T.
        var lastCubicControl: PathPoint?
        var lastQuadraticControl: PathPoint?

        init(_ text: [Unicode.Scalar]) { self.text = text }

        func fail(_ message: String) -> Failure {
            let shown = index < text.count ? "'\(ThrobberError.echoed(String(text[index])))'" : "the end"
            return Failure(offset: index, message: "\(message) at \(shown)")
        }

        mutating func skipSeparators() {
            while index < text.count, text[index] == " " || text[index] == "\t" || text[index] == "\n" || text[index] == "\r"
                    || text[index] == "\u{0C}" || text[index] == "," {
                index += 1
            }
        }

        mutating func skipSpaces() {
            while index < text.count, text[index] == " " || text[index] == "\t" || text[index] == "\n" || text[index] == "\r"
                    || text[index] == "\u{0C}" {
                index += 1
            }
        }

        /// Whether a number starts at the next non-separator.
        mutating func numberFollows() -> Bool {
            skipSeparators()
            guard index < text.count else { return false }
            let c = text[index]
            return c == "+" || c == "-" || c == "." || ("0"..."9").contains(c)
        }

        mutating func number() throws -> Double {
            skipSeparators()
            let start = index
            if index < text.count, text[index] == "+" || text[index] == "-" { index += 1 }
            var digits = 0
            while index < text.count, ("0"..."9").contains(text[index]) { index += 1; digits += 1 }
            if index < text.count, text[index] == "." {
                index += 1
                while index < text.count, ("0"..."9").contains(text[index]) { index += 1; digits += 1 }
            }
            guard digits > 0 else {
                index = start
                throw fail("a number is expected")
            }
            if index < text.count, text[index] == "e" || text[index] == "E" {
                let mark = index
                index += 1
                if index < text.count, text[index] == "+" || text[index] == "-" { index += 1 }
                var exponentDigits = 0
                while index < text.count, ("0"..."9").contains(text[index]) { index += 1; exponentDigits += 1 }
                if exponentDigits == 0 { index = mark }
            }
            guard let value = Double(String(String.UnicodeScalarView(text[start..<index]))), value.isFinite else {
                index = start
                throw fail("a finite number is expected")
            }
            return value
        }

        mutating func flag() throws -> Bool {
            skipSeparators()
            guard index < text.count, text[index] == "0" || text[index] == "1" else { throw fail("an arc flag (0 or 1) is expected") }
            index += 1
            return text[index - 1] == "1"
        }

        mutating func pair(relative: Bool) throws -> PathPoint {
            let x = try number(), y = try number()
            return relative ? PathPoint(current.x + x, current.y + y) : PathPoint(x, y)
        }

        mutating func append(_ segment: PathSegment) {
            if path.subpaths.isEmpty || path.subpaths[path.subpaths.count - 1].closed {
                // A segment after Z starts a new subpath at the closed one's start.
                path.subpaths.append(Subpath(start: subpathStart))
            }
            path.subpaths[path.subpaths.count - 1].segments.append(segment)
            current = segment.end
        }

        mutating func read() throws -> PathGeometry {
            skipSpaces()
            guard index < text.count else { return path }
            guard text[index] == "M" || text[index] == "m" else { throw fail("path data starts with M or m") }
            while true {
                skipSpaces()
                guard index < text.count else { return path }
                let command = text[index]
                index += 1
                let relative = ("a"..."z").contains(command)
                var cubicControl: PathPoint?
                var quadraticControl: PathPoint?
                var first = true
                repeat {
                    switch command {
                    case "M", "m":
                        let p = try pair(relative: relative)
                        if first {
                            path.subpaths.append(Subpath(start: p))
                            subpathStart = p
                            current = p
                        } else {
                            append(.line(to: p))
                        }
                    case "L", "l":
                        append(.line(to: try pair(relative: relative)))
                    case "H", "h":
                        let x = try number()
                        append(.line(to: PathPoint(relative ? current.x + x : x, current.y)))
                    case "V", "v":
                        let y = try number()
                        append(.line(to: PathPoint(current.x, relative ? current.y + y : y)))
                    case "C", "c":
                        let c1 = try pair(relative: relative), c2 = try pair(relative: relative), p = try pair(relative: relative)
                        append(.cubic(c1, c2, to: p))
                        cubicControl = c2
                    case "S", "s":
                        let previous = first ? lastCubicControl : cubicControl
                        let c1 = previous.map { 2 * current - $0 } ?? current
                        let c2 = try pair(relative: relative), p = try pair(relative: relative)
                        append(.cubic(c1, c2, to: p))
                        cubicControl = c2
                    case "Q", "q":
                        let q = try pair(relative: relative), p = try pair(relative: relative)
                        append(PathGeometry.cubic(quadraticFrom: current, control: q, to: p))
                        quadraticControl = q
                    case "T", "t":
                        let previous = first ? lastQuadraticControl : quadraticControl
                        let q = previous.map { 2 * current - $0 } ?? current
                        let p = try pair(relative: relative)
                        append(PathGeometry.cubic(quadraticFrom: current, control: q, to: p))
                        quadraticControl = q
                    case "A", "a":
                        let arguments = index
                        let rx = try number(), ry = try number(), rotation = try number()
                        let large = try flag(), sweep = try flag()
                        let p = try pair(relative: relative)
                        let from = current
                        guard let segments = PathGeometry.arc(from: from, radiusX: rx, radiusY: ry, rotation: rotation, largeArc: large,
                                                              sweep: sweep, to: p) else {
                            index = arguments
                            throw fail("an arc whose radii cannot be worked out in double precision (too far apart, or from the distance between its ends)")
                        }
                        for segment in segments { append(segment) }
                        current = p
                    case "Z", "z":
                        if !path.subpaths.isEmpty { path.subpaths[path.subpaths.count - 1].closed = true }
                        current = subpathStart
                    default:
                        index -= 1
                        throw fail("unknown path command")
                    }
                    first = false
                } while command != "Z" && command != "z" && numberFollows()
                lastCubicControl = "CcSs".unicodeScalars.contains(command) ? cubicControl : nil
                lastQuadraticControl = "QqTt".unicodeScalars.contains(command) ? quadraticControl : nil
            }
        }
    }
}

extension PathPoint {
    static func - (a: PathPoint, b: PathPoint) -> PathPoint { PathPoint(a.x - b.x, a.y - b.y) }
    static func * (k: Double, a: PathPoint) -> PathPoint { PathPoint(k * a.x, k * a.y) }
}
