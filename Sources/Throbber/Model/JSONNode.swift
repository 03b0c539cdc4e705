/// A JSON value that remembers where it stood in its file, so a job file's errors can name the
/// line and column (Foundation's JSONSerialization cannot).
public struct JSONNode: Sendable {
    /// The value.
    public enum Value: Sendable {
        case null
        case bool(Bool)
        case number(Double, text: String)
        case string(String)
        case array([JSONNode])
        /// Members in file order (duplicate keys are a parse error).
        case object([Member])
    }

    /// One `"key": value` pair of an object.
    public struct Member: Sendable {
        public var key: String
        public var keyLine: Int
        public var keyColumn: Int
        public var value: JSONNode
    }

    public var value: Value
    /// 1-based line of the value's first character.
    public var line: Int
    /// 1-based column (in characters) of the value's first character.
    public var column: Int

    /// The value's type in words, for error messages.
    public var typeName: String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Parses a complete JSON document.
    ///
    /// - Throws: `JSONParseError` with the line and column of the first problem.
    public static func parse(_ text: String) throws -> JSONNode {
        var parser = JSONParser(Array(text.unicodeScalars))
        parser.skipWhitespace()
        let node = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.atEnd else { throw parser.error("unexpected text after the JSON document") }
        return node
    }
}

/// Where and why a JSON text could not be parsed.
public struct JSONParseError: Error, Sendable {
    public var line: Int
    public var column: Int
    public var message: String
}

private struct JSONParser {
    let scalars: [Unicode.Scalar]
    var index = 0
    var line = 1
    var column = 1
    /// Arrays and objects open around the current position; parsing recurses once per level,
    /// so `Limits.jsonDepth` bounds the stack a hostile file can take.
    var depth = 0

    init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

    var atEnd: Bool { index >= scalars.count }
    var current: Unicode.Scalar? { atEnd ? nil : scalars[index] }

    func error(_ message: String) -> JSONParseError { JSONParseError(line: line, column: column, message: message) }

    mutating func advance() {
        if scalars[index] == "\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
        index += 1
    }

    mutating func skipWhitespace() {
        while let c = current, c == " " || c == "\t" || c == "\n" || c == "\r" { advance() }
    }

    mutating func expect(_ literal: String, as value: JSONNode.Value, line: Int, column: Int) throws -> JSONNode {
        for scalar in literal.unicodeScalars {
            guard current == scalar else { throw error("invalid literal; expected \(literal)") }
            advance()
        }
        return JSONNode(value: value, line: line, column: column)
    }

    mutating func parseValue() throws -> JSONNode {
        let (startLine, startColumn) = (line, column)
        guard let c = current else { throw error("unexpected end of file; expected a value") }
        switch c {
        case "{": return try parseObject()
        case "[": return try parseArray()
        case "\"": return JSONNode(value: .string(try parseString()), line: startLine, column: startColumn)
        case "t": return try expect("true", as: .bool(true), line: startLine, column: startColumn)
        case "f": return try expect("false", as: .bool(false), line: startLine, column: startColumn)
        case "n": return try expect("null", as: .null, line: startLine, column: startColumn)
        case "-", "0"..."9": return try parseNumber()
        default: throw error("unexpected character '\(c)'; expected a value")
        }
    }

    /// Enters one more array or object, refusing to nest deeper than `Limits.jsonDepth`.
    mutating func enter() throws {
        depth += 1
        guard depth <= Limits.jsonDepth else {
            throw error("arrays and objects nest deeper than \(Limits.jsonDepth) levels")
        }
    }

    mutating func parseObject() throws -> JSONNode {
        let (startLine, startColumn) = (line, column)
        try enter()
        defer { depth -= 1 }
        advance()
        var members: [JSONNode.Member] = []
        var seenKeys: Set<String> = []
        skipWhitespace()
        if current == "}" {
            advance()
            return JSONNode(value: .object(members), line: startLine, column: startColumn)
        }
        while true {
            skipWhitespace()
            guard current == "\"" else { throw error("expected a quoted key") }
            let (keyLine, keyColumn) = (line, column)
            let key = try parseString()
            // A set, not a search of `members`: a file of a million keys must not cost 10¹² comparisons.
            guard seenKeys.insert(key).inserted else {
                throw JSONParseError(line: keyLine, column: keyColumn, message: "duplicate key \"\(ThrobberError.echoed(key))\"")
            }
            skipWhitespace()
            guard current == ":" else { throw error("expected ':' after the key \"\(ThrobberError.echoed(key))\"") }
            advance()
            skipWhitespace()
            members.append(.init(key: key, keyLine: keyLine, keyColumn: keyColumn, value: try parseValue()))
            skipWhitespace()
            if current == "," {
                advance()
                continue
            }
            if current == "}" {
                advance()
                return JSONNode(value: .object(members), line: startLine, column: startColumn)
            }
            throw error("expected ',' or '}' after the value of \"\(ThrobberError.echoed(key))\"")
        }
    }

    mutating func parseArray() throws -> JSONNode {
        let (startLine, startColumn) = (line, column)
        try enter()
        defer { depth -= 1 }
        advance()
        var elements: [JSONNode] = []
        skipWhitespace()
        if current == "]" {
            advance()
            return JSONNode(value: .array(elements), line: startLine, column: startColumn)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            if current == "," {
                advance()
                continue
            }
            if current == "]" {
                advance()
                return JSONNode(value: .array(elements), line: startLine, column: startColumn)
            }
            throw error("expected ',' or ']' in an array")
        }
    }

    mutating func parseString() throws -> String {
        advance()
        var result = String.UnicodeScalarView()
        while true {
            guard let c = current else { throw error("unterminated string") }
            if c == "\"" {
                advance()
                return String(result)
            }
            if c == "\\" {
                advance()
                guard let escape = current else { throw error("unterminated string") }
                advance()
                switch escape {
                case "\"": result.append("\"")
                case "\\": result.append("\\")
                case "/": result.append("/")
                case "b": result.append("\u{08}")
                case "f": result.append("\u{0C}")
                case "n": result.append("\n")
                case "r": result.append("\r")
                case "t": result.append("\t")
                case "u":
                    // A character outside the BMP is a surrogate pair, \uD83D\uDE00 (RFC 8259 §7); a
                    // surrogate alone is no character, refused rather than drawn as U+FFFD.
                    let code = try hexEscape()
                    if (0xDC00...0xDFFF).contains(code) {
                        throw error("invalid \\u\(String(code, radix: 16, uppercase: true)): a low surrogate with no high surrogate "
                                    + "before it (a character is \\uD800–\\uDBFF then \\uDC00–\\uDFFF, or one \\u escape)")
                    }
                    if (0xD800...0xDBFF).contains(code) {
                        guard current == "\\" else { throw loneHighSurrogate(code) }
                        advance()
                        guard current == "u" else { throw loneHighSurrogate(code) }
                        advance()
                        let low = try hexEscape()
                        guard (0xDC00...0xDFFF).contains(low) else { throw loneHighSurrogate(code) }
                        result.append(Unicode.Scalar(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))!)
                    } else {
                        result.append(Unicode.Scalar(code)!)
                    }
                default: throw error("invalid escape '\\\(escape)'")
                }
                continue
            }
            guard c.value >= 0x20 else { throw error("control character in a string") }
            result.append(c)
            advance()
        }
    }

    /// The four hex digits of a `\\u` escape.
    mutating func hexEscape() throws -> UInt32 {
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard let h = current, let digit = UInt32(String(h), radix: 16) else {
                throw error("invalid \\u escape")
            }
            code = code * 16 + digit
            advance()
        }
        return code
    }

    func loneHighSurrogate(_ code: UInt32) -> JSONParseError {
        error("invalid \\u\(String(code, radix: 16, uppercase: true)): a high surrogate must be followed by a low one, \\uDC00–\\uDFFF")
    }

    mutating func parseNumber() throws -> JSONNode {
        let (startLine, startColumn) = (line, column)
        var text = ""
        while let c = current, "-+.eE0123456789".unicodeScalars.contains(c) {
            text.unicodeScalars.append(c)
            advance()
        }
        guard let value = Double(text), value.isFinite else {
            throw JSONParseError(line: startLine, column: startColumn, message: "invalid number '\(ThrobberError.echoed(text))'")
        }
        return JSONNode(value: .number(value, text: text), line: startLine, column: startColumn)
    }
}
