/// How a response goes on the wire: the status line, the handler's fields with the ones every
/// response carries, and the body unless the request was HEAD.
enum ResponseWriter {
    /// The policy for HTML: nothing but the page's own files, no inline script or style, no
    /// framing (the page must keep to it: no inline scripts or styles).
    static let contentSecurityPolicy = "default-src 'self'; img-src 'self' blob: data:; connect-src 'self'; style-src 'self'; "
        + "script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

    /// Fields every response carries, in the order written.
    static let common: [(name: String, value: String)] = [
        ("Connection", "close"),
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Frame-Options", "DENY"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
    ]

    /// The bytes of `response`, its body left out for HEAD.
    static func bytes(_ response: HTTPResponse, head: Bool) -> [UInt8] {
        var fields = fields(of: response, streaming: false)
        fields.append(("Content-Length", String(response.body.count)))
        var out = Array(headText(status: response.status, fields: fields).utf8)
        if !head { out += response.body }
        return out
    }

    /// The head of an event stream: no length, the stream ends when the connection closes.
    static func eventStreamHead() -> [UInt8] { streamHead(contentType: "text/event-stream; charset=utf-8") }

    /// The head of a stream of `contentType` whose body ends when the connection closes.
    static func streamHead(contentType: String) -> [UInt8] {
        let response = HTTPResponse(status: 200, contentType: contentType, body: [])
        return Array(headText(status: 200, fields: fields(of: response, streaming: true)).utf8)
    }

    /// The handler's fields (CR, LF and NUL removed, so a value can never start a field or a body
    /// of its own; those the server owns dropped), then the common ones the handler did not set.
    static func fields(of response: HTTPResponse, streaming: Bool) -> [(name: String, value: String)] {
        let owned: Set<String> = ["connection", "content-length", "transfer-encoding"]
        var fields: [(name: String, value: String)] = []
        for field in response.headers where !owned.contains(field.name.lowercased()) {
            let name = String(field.name.unicodeScalars.filter { HTTPParser.isTokenScalar($0) })
            guard !name.isEmpty else { continue }
            fields.append((name, String(field.value.unicodeScalars.filter { $0 != "\r" && $0 != "\n" && $0 != "\0" })))
        }
        for field in common where !fields.contains(where: { $0.name.lowercased() == field.name.lowercased() }) {
            fields.append(field)
        }
        let isHTML = response.header("Content-Type")?.lowercased().hasPrefix("text/html") ?? false
        if isHTML && !fields.contains(where: { $0.name.lowercased() == "content-security-policy" }) {
            fields.append(("Content-Security-Policy", contentSecurityPolicy))
        }
        return fields
    }

    static func headText(status: Int, fields: [(name: String, value: String)]) -> String {
        var text = "HTTP/1.1 \(status) \(reason(status))\r\n"
        for field in fields { text += "\(field.name): \(field.value)\r\n" }
        return text + "\r\n"
    }

    /// The reason phrase of a status (only informative; clients read the number).
    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }
}
