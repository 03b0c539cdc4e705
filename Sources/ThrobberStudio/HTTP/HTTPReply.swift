/// What a handler answers a request with.
public enum HTTPReply: Sendable {
    /// One response, written whole; the connection closes after it.
    case response(HTTPResponse)
    /// Headers `Content-Type: text/event-stream` are written, then the closure runs on the
    /// connection's own thread until it returns; the connection closes after it.
    ///
    /// The closure should return once `EventStream.send` or `ping` returns false (the client has
    /// gone or the server is stopping). A HEAD request gets the headers and the closure never runs.
    case eventStream(@Sendable (EventStream) -> Void)
}

/// The application behind an `HTTPServer`: called once per request, on that connection's thread,
/// possibly on several threads at once.
public protocol HTTPHandler: Sendable {
    /// The reply to a request the server has already checked (method, path, Host, bounds).
    func respond(to request: HTTPRequest) -> HTTPReply
}
