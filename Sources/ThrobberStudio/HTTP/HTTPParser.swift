/// A request the server answers itself instead of handing it on: the status and one line why.
struct Refusal: Error, Equatable {
    var status: Int
    var message: String
    /// Whether the request was a HEAD (its refusal is written without a body).
    var head = false

    init(_ status: Int, _ message: String) {
        self.status = status
        self.message = message
    }
}

/// A request's head, parsed and checked: what the reader needs to read its body.
struct RequestHead: Sendable {
    var method: String
    var path: String
    var query: [String: String]
    var headers: [(name: String, value: String)]
}

/// Strict parsing of a request head (RFC 9112 §2–§5, without what the studio never needs:
/// obs-fold, chunked bodies, absolute-form targets for other hosts). Pure, so it is tested alone.
enum HTTPParser {
    static let methods: Set<String> = ["GET", "HEAD", "POST"]

    /// tchar (RFC 9110 §5.6.2): the characters of methods and field names.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    static func isTokenScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && isTokenByte(UInt8(scalar.value))
    }

    /// Parses the head (the bytes before the blank line, without it).
    ///
    /// - Parameters:
    ///   - head: the request line and header lines, each ended by CRLF or a bare LF (the last
    ///     one's end may be missing).
    ///   - limits: the header count bound.
    ///   - isAllowedAuthority: whether an absolute-form target's authority ("host:port") is one
    ///     the server answers for.
    /// - Throws: the refusal: 400, 405, 431 or 505.
    static func parseHead(_ head: ArraySlice<UInt8>, limits: HTTPLimits, isAllowedAuthority: (String) -> Bool) throws(Refusal) -> RequestHead {
        var lines = head.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        }
        if lines.last?.isEmpty == true { lines.removeLast() }
        guard let requestLine = lines.first else { throw Refusal(400, "empty request") }
        let (method, target) = try parseRequestLine(requestLine)
        guard lines.count - 1 <= limits.headerCount else {
            throw Refusal(431, "more than \(limits.headerCount) header fields")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            headers.append(try parseField(line))
        }
        let (path, query) = try parseTarget(target, isAllowedAuthority: isAllowedAuthority)
        return RequestHead(method: method, path: path, query: query, headers: headers)
    }

    /// The body's length, checked after the Host policy (so a foreign page learns nothing from
    /// which bound it crossed): 501 for `Transfer-Encoding`, 400 for a malformed or disagreeing
    /// `Content-Length`, 413 over `bodyBytes`, 411 for a POST without one; 0 without one.
    static func bodyLength(_ head: RequestHead, limits: HTTPLimits) throws(Refusal) -> Int {
        if head.headers.contains(where: { $0.name == "transfer-encoding" }) {
            throw Refusal(501, "Transfer-Encoding is not supported; send Content-Length")
        }
        guard let length = try contentLength(head.headers, limits: limits) else {
            if head.method == "POST" { throw Refusal(411, "a POST needs Content-Length") }
            return 0
        }
        return length
    }

    /// `METHOD SP TARGET SP HTTP/1.x`, exactly.
    static func parseRequestLine(_ line: ArraySlice<UInt8>) throws(Refusal) -> (method: String, target: String) {
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, parts[0].allSatisfy(isTokenByte) else {
            throw Refusal(400, "malformed request line: expected METHOD SP TARGET SP HTTP/1.1")
        }
        guard parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else {
            throw Refusal(400, "malformed request target: only visible ASCII is allowed")
        }
        let version = Array(parts[2])
        let digit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        guard version.count == 8, version[0..<5].elementsEqual("HTTP/".utf8), digit(version[5]), version[6] == UInt8(ascii: "."), digit(version[7]) else {
            throw Refusal(400, "malformed request line: the version must be HTTP/1.0 or HTTP/1.1")
        }
        guard version[5] == UInt8(ascii: "1"), version[7] <= UInt8(ascii: "1") else {
            throw Refusal(505, "HTTP version \(String(decoding: version, as: UTF8.self)) is not supported; use HTTP/1.0 or HTTP/1.1")
        }
        let method = String(decoding: parts[0], as: UTF8.self)
        guard methods.contains(method) else {
            throw Refusal(405, "method \(method) is not allowed; allowed: GET, HEAD, POST")
        }
        return (method, String(decoding: parts[1], as: UTF8.self))
    }

    /// `name: value` with a token name, no space before the colon, and no continuation lines.
    static func parseField(_ line: ArraySlice<UInt8>) throws(Refusal) -> (name: String, value: String) {
        if let first = line.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            throw Refusal(400, "malformed header: continuation lines (obs-fold) are not allowed")
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
              line[line.startIndex..<colon].allSatisfy(isTokenByte) else {
            throw Refusal(400, "malformed header line: expected 'name: value' with a token name")
        }
        var value = line[line.index(after: colon)...]
        let blank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        while let first = value.first, blank(first) { value = value.dropFirst() }
        while let last = value.last, blank(last) { value = value.dropLast() }
        guard value.allSatisfy({ $0 == UInt8(ascii: "\t") || ($0 >= 0x20 && $0 != 0x7f) }) else {
            throw Refusal(400, "malformed header value: control characters are not allowed")
        }
        return (String(decoding: line[line.startIndex..<colon], as: UTF8.self).lowercased(), String(decoding: value, as: UTF8.self))
    }

    /// The body's length from the `Content-Length` fields: digits only, repeats must agree.
    static func contentLength(_ headers: [(name: String, value: String)], limits: HTTPLimits) throws(Refusal) -> Int? {
        var length: Int?
        for field in headers where field.name == "content-length" {
            guard !field.value.isEmpty, field.value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                throw Refusal(400, "invalid Content-Length '\(field.value.prefix(40))': digits only")
            }
            let digits = field.value.drop { $0 == "0" }
            let value = digits.count > 18 ? Int.max : Int(digits) ?? 0
            if let length, length != value { throw Refusal(400, "Content-Length fields disagree") }
            length = value
        }
        if let length, length > limits.bodyBytes {
            throw Refusal(413, "the body is over \(limits.bodyBytes) bytes")
        }
        return length
    }
}
