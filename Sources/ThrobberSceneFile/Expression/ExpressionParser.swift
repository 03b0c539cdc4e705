import Throbber

/// Turns expression text into an `ExpressionSyntax` tree: a tokenizer and a recursive-descent
/// parser for the grammar of docs/scene-files.md §6, checking the length, node and depth limits
/// as it goes.
///
/// Precedence, loosest first: `?:` (right-associative), `||`, `&&`, one comparison (not
/// chained), `+ -`, `* /` (left-associative), unary `- !`. The limits bound the work every
/// later stage does: recursion in this parser is bounded by the depth limit (binary chains are
/// loops, not recursion), and the compiler's and evaluator's recursion by the node limit.
struct ExpressionParser {
    /// One token and the scalars it spans.
    struct Token: Sendable, Hashable {
        /// What the token is.
        enum Kind: Sendable, Hashable {
            case number(Double)
            case name(String)
            case string(String)
            /// An operator or punctuation: `+`, `<=`, `(`, `,`, `.`, …
            case symbol(String)
            case end
        }

        var kind: Kind
        var start: Int
        var end: Int

        /// Whether this is the symbol `text`.
        func isSymbol(_ text: String) -> Bool { kind == .symbol(text) }
    }

    /// What the parser says it expected where a primary was missing.
    static let operandExpected = "a number, a name or '('"

    let source: String
    let scalars: [Unicode.Scalar]
    var tokens: [Token] = []
    var position = 0
    var nodeCount = 0
    var depth = 0

    /// Parses `source` as one expression.
    ///
    /// - Throws: `ExpressionError` of kind `syntax` or `limit`, its offset where the problem starts.
    static func parse(_ source: String) throws(ExpressionError) -> ExpressionSyntax {
        var parser = ExpressionParser(source: source)
        return try parser.parseWhole()
    }

    private init(source: String) {
        self.source = source
        self.scalars = Array(source.unicodeScalars)
    }

    private mutating func parseWhole() throws(ExpressionError) -> ExpressionSyntax {
        let longest = SceneExpression.maximumLength
        guard scalars.count <= longest else {
            throw ExpressionError(.limit, "expression \(ExpressionError.quoted(source)) is \(scalars.count) characters long; "
                + "at most \(longest) are allowed", offset: longest, source: source)
        }
        tokens = try tokenize()
        let syntax = try parseExpression()
        guard case .end = current.kind else { throw unexpected(current, expected: "an operator or the end") }
        return syntax
    }

    // MARK: Tokens

    private static func isDigit(_ c: Unicode.Scalar) -> Bool { c >= "0" && c <= "9" }
    private static func isNameStart(_ c: Unicode.Scalar) -> Bool { (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c == "_" }
    private static func isNamePart(_ c: Unicode.Scalar) -> Bool { isNameStart(c) || isDigit(c) }

    /// Whether `name` is spelled as the grammar's `name` rule: `[A-Za-z_][A-Za-z0-9_]*`.
    static func isName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, isNameStart(first) else { return false }
        return name.unicodeScalars.allSatisfy(isNamePart)
    }

    private func tokenize() throws(ExpressionError) -> [Token] {
        var tokens: [Token] = []
        let s = scalars
        var i = 0
        func digits(from index: Int) -> Int {
            var j = index
            while j < s.count, Self.isDigit(s[j]) { j += 1 }
            return j
        }
        while i < s.count {
            let c = s[i]
            let start = i
            if c == " " || c == "\t" || c == "\n" || c == "\r" {
                i += 1
                continue
            }
            if Self.isDigit(c) || (c == "." && i + 1 < s.count && Self.isDigit(s[i + 1])) {
                i = digits(from: i)
                if i < s.count, s[i] == "." {
                    guard i + 1 < s.count, Self.isDigit(s[i + 1]) else {
                        throw malformedNumber(start, i + 1, "digits must follow '.'")
                    }
                    i = digits(from: i + 1)
                }
                if i < s.count, s[i] == "e" || s[i] == "E" {
                    var j = i + 1
                    if j < s.count, s[j] == "+" || s[j] == "-" { j += 1 }
                    guard j < s.count, Self.isDigit(s[j]) else {
                        throw malformedNumber(start, j, "digits must follow the exponent")
                    }
                    i = digits(from: j)
                }
                let text = String(String.UnicodeScalarView(s[start..<i]))
                guard let value = Double(text), value.isFinite else {
                    throw malformedNumber(start, i, "it is too large for a number")
                }
                tokens.append(Token(kind: .number(value), start: start, end: i))
            } else if Self.isNameStart(c) {
                while i < s.count, Self.isNamePart(s[i]) { i += 1 }
                tokens.append(Token(kind: .name(String(String.UnicodeScalarView(s[start..<i]))), start: start, end: i))
            } else if c == "'" {
                guard let close = s[(i + 1)...].firstIndex(of: "'") else {
                    throw ExpressionError(.syntax, "expression \(ExpressionError.quoted(source)) has a string at offset \(start) "
                        + "with no closing \"'\"", offset: start, source: source)
                }
                tokens.append(Token(kind: .string(String(String.UnicodeScalarView(s[(i + 1)..<close]))), start: start, end: close + 1))
                i = close + 1
            } else {
                let pair = i + 1 < s.count ? String(String.UnicodeScalarView([c, s[i + 1]])) : ""
                if ["<=", ">=", "==", "!=", "&&", "||"].contains(pair) {
                    tokens.append(Token(kind: .symbol(pair), start: start, end: i + 2))
                    i += 2
                } else if "+-*/<>!?:(),.".unicodeScalars.contains(c) {
                    tokens.append(Token(kind: .symbol(String(c)), start: start, end: i + 1))
                    i += 1
                } else {
                    let hint = switch c {
                    case "=": "; compare with '=='"
                    case "&": "; 'and' is '&&'"
                    case "|": "; 'or' is '||'"
                    case "\"": "; strings are in single quotes"
                    default: ""
                    }
                    throw ExpressionError(.syntax, "expression \(ExpressionError.quoted(source)) has "
                        + "\(ExpressionError.quoted(String(c))) at offset \(start), which is not part of the language\(hint)",
                        offset: start, source: source)
                }
            }
        }
        tokens.append(Token(kind: .end, start: s.count, end: s.count))
        return tokens
    }

    private func malformedNumber(_ start: Int, _ end: Int, _ why: String) -> ExpressionError {
        let text = String(String.UnicodeScalarView(scalars[start..<min(end, scalars.count)]))
        return ExpressionError(.syntax, "expression \(ExpressionError.quoted(source)) has \(ExpressionError.quoted(text)) at offset "
            + "\(start), which is not a number: \(why)", offset: start, source: source)
    }

    // MARK: Grammar

    private var current: Token { tokens[position] }

    private mutating func advance() -> Token {
        let token = tokens[position]
        if position < tokens.count - 1 { position += 1 }
        return token
    }

    private func unexpected(_ token: Token, expected: String) -> ExpressionError {
        if case .end = token.kind {
            return ExpressionError(.syntax, "expression \(ExpressionError.quoted(source)) ends where \(expected) was expected",
                                   offset: token.start, source: source)
        }
        let text = String(String.UnicodeScalarView(scalars[token.start..<token.end]))
        return ExpressionError(.syntax, "expression \(ExpressionError.quoted(source)) has \(ExpressionError.quoted(text)) at offset "
            + "\(token.start) where \(expected) was expected", offset: token.start, source: source)
    }

    /// Counts one more node, starting at `offset`, against the node limit.
    private mutating func countNode(at offset: Int) throws(ExpressionError) {
        nodeCount += 1
        guard nodeCount <= SceneExpression.maximumNodes else {
            throw ExpressionError(.limit, "expression \(ExpressionError.quoted(source)) has more than \(SceneExpression.maximumNodes) "
                + "parts (numbers, names, operators and calls); the one at offset \(offset) is one too many",
                offset: offset, source: source)
        }
    }

    /// Enters one level of nesting (parentheses, a call's arguments, a `?:` branch, a unary
    /// operand) that starts at `offset`.
    private mutating func enter(at offset: Int) throws(ExpressionError) {
        depth += 1
        guard depth <= SceneExpression.maximumDepth else {
            throw ExpressionError(.limit, "expression \(ExpressionError.quoted(source)) nests more than \(SceneExpression.maximumDepth) "
                + "levels deep at offset \(offset) (parentheses, calls, '?:' branches and '-' or '!' each nest one level)",
                offset: offset, source: source)
        }
    }

    private mutating func expect(_ symbol: String, expected: String) throws(ExpressionError) -> Token {
        guard current.isSymbol(symbol) else { throw unexpected(current, expected: expected) }
        return advance()
    }

    private mutating func parseExpression() throws(ExpressionError) -> ExpressionSyntax {
        let condition = try parseOr()
        guard current.isSymbol("?") else { return condition }
        try countNode(at: advance().start)
        // The branches are nested expressions; the `else` branch recursing is what makes `?:`
        // right-associative.
        try enter(at: current.start)
        let whenTrue = try parseExpression()
        _ = try expect(":", expected: "an operator or ':'")
        let whenFalse = try parseExpression()
        depth -= 1
        return ExpressionSyntax(form: .conditional(condition, whenTrue, whenFalse), start: condition.start, end: whenFalse.end)
    }

    private mutating func parseOr() throws(ExpressionError) -> ExpressionSyntax {
        var left = try parseAnd()
        while current.isSymbol("||") {
            try countNode(at: advance().start)
            let right = try parseAnd()
            left = ExpressionSyntax(form: .binary(.or, left, right), start: left.start, end: right.end)
        }
        return left
    }

    private mutating func parseAnd() throws(ExpressionError) -> ExpressionSyntax {
        var left = try parseCompare()
        while current.isSymbol("&&") {
            try countNode(at: advance().start)
            let right = try parseCompare()
            left = ExpressionSyntax(form: .binary(.and, left, right), start: left.start, end: right.end)
        }
        return left
    }

    private func comparison(_ token: Token) -> ExpressionOperator? {
        guard case .symbol(let text) = token.kind, let op = ExpressionOperator(rawValue: text),
              ExpressionOperator.comparisons.contains(op) else { return nil }
        return op
    }

    private mutating func parseCompare() throws(ExpressionError) -> ExpressionSyntax {
        let left = try parseSum()
        guard let op = comparison(current) else { return left }
        try countNode(at: advance().start)
        let right = try parseSum()
        if comparison(current) != nil {
            let text = String(String.UnicodeScalarView(scalars[current.start..<current.end]))
            throw ExpressionError(.syntax, "expression \(ExpressionError.quoted(source)) chains comparisons with "
                + "\(ExpressionError.quoted(text)) at offset \(current.start); join them with '&&'",
                offset: current.start, source: source)
        }
        return ExpressionSyntax(form: .binary(op, left, right), start: left.start, end: right.end)
    }

    private mutating func parseSum() throws(ExpressionError) -> ExpressionSyntax {
        var left = try parseProduct()
        while current.isSymbol("+") || current.isSymbol("-") {
            let token = advance()
            try countNode(at: token.start)
            let right = try parseProduct()
            left = ExpressionSyntax(form: .binary(token.isSymbol("+") ? .add : .subtract, left, right), start: left.start, end: right.end)
        }
        return left
    }

    private mutating func parseProduct() throws(ExpressionError) -> ExpressionSyntax {
        var left = try parseUnary()
        while current.isSymbol("*") || current.isSymbol("/") {
            let token = advance()
            try countNode(at: token.start)
            let right = try parseUnary()
            left = ExpressionSyntax(form: .binary(token.isSymbol("*") ? .multiply : .divide, left, right), start: left.start, end: right.end)
        }
        return left
    }

    private mutating func parseUnary() throws(ExpressionError) -> ExpressionSyntax {
        guard current.isSymbol("-") || current.isSymbol("!") else { return try parsePrimary() }
        let token = advance()
        try countNode(at: token.start)
        try enter(at: token.start)
        let operand = try parseUnary()
        depth -= 1
        return ExpressionSyntax(form: token.isSymbol("-") ? .negate(operand) : .not(operand), start: token.start, end: operand.end)
    }

    private mutating func parsePrimary() throws(ExpressionError) -> ExpressionSyntax {
        let token = current
        switch token.kind {
        case .number(let value):
            try countNode(at: token.start)
            _ = advance()
            return ExpressionSyntax(form: .number(value), start: token.start, end: token.end)
        case .string(let text):
            try countNode(at: token.start)
            _ = advance()
            return ExpressionSyntax(form: .string(text), start: token.start, end: token.end)
        case .symbol("("):
            _ = advance()
            try enter(at: token.start)
            var inner = try parseExpression()
            let close = try expect(")", expected: "an operator or ')'")
            depth -= 1
            inner.start = token.start
            inner.end = close.end
            return inner
        case .name(let name):
            try countNode(at: token.start)
            _ = advance()
            if current.isSymbol("(") {
                try enter(at: advance().start)
                var arguments: [ExpressionSyntax] = []
                // `f()` parses, so that the arity check can say how many arguments `f` takes.
                if !current.isSymbol(")") {
                    while true {
                        arguments.append(try parseExpression())
                        guard current.isSymbol(",") else { break }
                        _ = advance()
                    }
                }
                let close = try expect(")", expected: arguments.isEmpty ? Self.operandExpected + " or ')'" : "an operator, ',' or ')'")
                depth -= 1
                return ExpressionSyntax(form: .call(function: name, arguments: arguments), start: token.start, end: close.end)
            }
            if current.isSymbol(".") {
                _ = advance()
                guard case .name(let field) = current.kind else { throw unexpected(current, expected: "a field name") }
                let fieldToken = advance()
                return ExpressionSyntax(form: .field(name: name, field: field, fieldOffset: fieldToken.start),
                                        start: token.start, end: fieldToken.end)
            }
            return ExpressionSyntax(form: .name(name), start: token.start, end: token.end)
        default:
            throw unexpected(token, expected: Self.operandExpected)
        }
    }
}
