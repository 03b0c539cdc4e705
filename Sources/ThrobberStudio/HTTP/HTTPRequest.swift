/// One request as the server hands it to the handler: already checked and decoded.
///
/// The server answers malformed requests itself (see `HTTPServer`), so a handler only ever sees a
/// method it serves, a path that is safe to compare against its routes (decoded once, starting
/// with "/", without "." or ".." segments, empty segments, NUL, control characters or
/// backslashes), a Host the server is bound to, and the whole body.
public struct HTTPRequest: Sendable {
    /// "GET", "POST" or "HEAD" (a HEAD is answered as a GET without the body).
    public var method: String
    /// The target's path, percent-decoded once.
    public var path: String
    /// The query's parameters, percent-decoded, '+' read as a space; the first of a repeated name.
    public var query: [String: String]
    /// The header fields in the order received, names lowercased.
    public var headers: [(name: String, value: String)]
    /// The body, `Content-Length` bytes (empty without one).
    public var body: [UInt8]

    /// Creates a request (the server does; tests of handlers may).
    public init(method: String, path: String, query: [String: String] = [:], headers: [(name: String, value: String)] = [],
                body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The value of the first header field named `name` (case-insensitive), if any.
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name == lower }?.value
    }
}
