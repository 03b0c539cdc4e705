extension HTTPServer {
    /// One connection's life, on its own thread: read the request, refuse it or hand it to the
    /// handler, write the reply.
    func serve(_ connection: Connection) {
        switch RequestReader(limits: limits, policy: policy).read(from: connection) {
        case .gone:
            return
        case .refused(let refusal):
            var response = HTTPResponse.error(refusal.status, refusal.message)
            if refusal.status == 405 { response.headers.append(("Allow", "GET, HEAD, POST")) }
            connection.write(ResponseWriter.bytes(response, head: refusal.head))
            connection.lingeringClose()
        case .request(let request):
            let head = request.method == "HEAD"
            switch handler.respond(to: request) {
            case .response(let response):
                connection.write(ResponseWriter.bytes(response, head: head))
            case .eventStream(let body):
                stream(connection, head: head, ResponseWriter.eventStreamHead(), body)
            case .byteStream(let contentType, let body):
                stream(connection, head: head, ResponseWriter.streamHead(contentType: contentType), body)
            }
        }
    }

    /// A stream's head, then its body as the handler writes it, within the bound on streams.
    private func stream(_ connection: Connection, head: Bool, _ headBytes: [UInt8], _ body: @Sendable (EventStream) -> Void) {
        guard openStream() else {
            connection.write(ResponseWriter.bytes(.error(503, "too many event streams; close another page"), head: head))
            return
        }
        defer { closeStream() }
        guard connection.write(headBytes), !head else { return }
        body(EventStream(connection: connection, server: self))
    }
}
