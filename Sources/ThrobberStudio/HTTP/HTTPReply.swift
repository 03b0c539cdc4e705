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
    /// Headers with `contentType` and no length are written, then the closure writes the body as
    /// it goes (`EventStream.send(parts:)`) on the connection's own thread until it returns; the
    /// body ends when the connection closes. Bounded with the event streams.
    case byteStream(contentType: String, @Sendable (EventStream) -> Void)
}

/// The application behind an `HTTPServer`: called once per request, on that connection's thread,
/// possibly on several threads at once.
public protocol HTTPHandler: Sendable {
    /// The reply to a request the server has already checked (method, path, Host, bounds).
    func respond(to request: HTTPRequest) -> HTTPReply
}
