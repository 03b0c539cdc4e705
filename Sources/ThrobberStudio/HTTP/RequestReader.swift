/// Reads one request from a connection within the limits: the head up to its blank line, then
/// exactly `Content-Length` bytes of body, all before one deadline.
struct RequestReader {
    /// What reading brought.
    enum Outcome {
        /// A request to hand to the handler.
        case request(HTTPRequest)
        /// A request the server answers itself.
        case refused(Refusal)
        /// The client closed before sending anything whole: nothing to answer.
        case gone
    }

    let limits: HTTPLimits
    let policy: HostPolicy

    func read(from connection: Connection) -> Outcome {
        var buffer: [UInt8] = []
        let outcome = read(from: connection, into: &buffer)
        // A refused HEAD is still a HEAD: its answer has no body (a client would read one as the next response).
        if case .refused(var refusal) = outcome, buffer.starts(with: "HEAD ".utf8) {
            refusal.head = true
            return .refused(refusal)
        }
        return outcome
    }

    private func read(from connection: Connection, into buffer: inout [UInt8]) -> Outcome {
        let deadline = Connection.now() + limits.requestSeconds
        var scanned = 0
        var lineEnd: Int?
        // The head: until a blank line, bounded by the request-line and head limits.
        let headEnd: (head: Int, body: Int)
        while true {
            if let found = RequestReader.blankLine(in: buffer, from: scanned) {
                headEnd = found
                break
            }
            scanned = max(0, buffer.count - 2)
            lineEnd = lineEnd ?? buffer.firstIndex(of: UInt8(ascii: "\n"))
            if (lineEnd ?? buffer.count) > limits.requestLineBytes {
                return .refused(Refusal(414, "the request line is over \(limits.requestLineBytes) bytes"))
            }
            if buffer.count > limits.headerBytes {
                return .refused(Refusal(431, "the request head is over \(limits.headerBytes) bytes"))
            }
            switch connection.read(into: &buffer, most: limits.headerBytes + 4 - buffer.count, deadline: deadline) {
            case .bytes: continue
            case .timedOut: return .refused(Refusal(408, "the request did not arrive within \(limits.requestSeconds) s"))
            case .closed: return buffer.isEmpty || connection.wasShutDown ? .gone : .refused(Refusal(400, "the request ended early"))
            }
        }
        if (buffer[..<headEnd.head].firstIndex(of: UInt8(ascii: "\n")) ?? headEnd.head) > limits.requestLineBytes {
            return .refused(Refusal(414, "the request line is over \(limits.requestLineBytes) bytes"))
        }
        if headEnd.head > limits.headerBytes {
            return .refused(Refusal(431, "the request head is over \(limits.headerBytes) bytes"))
        }
        let head: RequestHead
        let length: Int
        do {
            head = try HTTPParser.parseHead(buffer[..<headEnd.head], limits: limits, isAllowedAuthority: policy.allows(authority:))
            if let refusal = policy.refusal(head.headers) { return .refused(refusal) }
            length = try HTTPParser.bodyLength(head, limits: limits)
        } catch {
            return .refused(error)
        }
        // The body: what came with the head, then the rest, never more than `length`.
        var body = Array(buffer[headEnd.body...].prefix(length))
        // curl asks before sending a body over 1 KiB, and waits a second for the answer otherwise.
        if body.count < length, head.headers.contains(where: { $0.name == "expect" && $0.value.lowercased() == "100-continue" }) {
            connection.write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        while body.count < length {
            switch connection.read(into: &body, most: length - body.count, deadline: deadline) {
            case .bytes: continue
            case .timedOut: return .refused(Refusal(408, "the request did not arrive within \(limits.requestSeconds) s"))
            case .closed: return .gone
            }
        }
        return .request(HTTPRequest(method: head.method, path: head.path, query: head.query, headers: head.headers, body: body))
    }

    /// Where the head ends: the index of the line end before the blank line (the head's length)
    /// and the index after the blank line (the body's start). CRLF or bare LF.
    static func blankLine(in buffer: [UInt8], from start: Int) -> (head: Int, body: Int)? {
        var index = start
        while let newline = buffer[index...].firstIndex(of: UInt8(ascii: "\n")) {
            var next = newline + 1
            if next < buffer.count && buffer[next] == UInt8(ascii: "\r") { next += 1 }
            if next < buffer.count && buffer[next] == UInt8(ascii: "\n") { return (newline + 1, next + 1) }
            if next >= buffer.count { return nil }
            index = newline + 1
        }
        return nil
    }
}
