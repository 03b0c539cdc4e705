import Throbber

/// One response: a status, header fields and a body.
///
/// The server adds the fields every response carries when it writes one (`Connection: close`,
/// `Content-Length`, no caching, no sniffing, no framing, no referrer, same-origin resources, and
/// for HTML the content security policy), so a handler sets only what is its own.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields the handler sets, `Content-Type` among them.
    public var headers: [(name: String, value: String)]
    /// The body (not written for a HEAD request; its length still is).
    public var body: [UInt8]

    /// A response with a content type.
    ///
    /// - Parameters:
    ///   - status: the status code.
    ///   - contentType: the `Content-Type` field's value.
    ///   - body: the bytes of the body.
    ///   - headers: further header fields (`X-Width`, ...).
    public init(status: Int, contentType: String, body: [UInt8], headers: [(name: String, value: String)] = []) {
        self.status = status
        self.headers = [("Content-Type", contentType)] + headers
        self.body = body
    }

    /// A JSON response (`application/json; charset=utf-8`) whose body is `text`.
    public static func json(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json; charset=utf-8", body: Array(text.utf8))
    }

    /// A JSON error response: `{"error": message}`.
    public static func error(_ status: Int, _ message: String) -> HTTPResponse {
        json(status, "{\"error\": \(JSONOutput.quoted(message))}")
    }

    /// The value of the first header field named `name` (case-insensitive), if any.
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name.lowercased() == lower }?.value
    }
}
