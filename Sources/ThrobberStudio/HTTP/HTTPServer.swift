import Foundation
import Glibc
import Throbber

/// The studio's HTTP/1.1 server: one IPv4 listener, one thread per connection, one request per
/// connection (`Connection: close`), every request bounded (`HTTPLimits`) and checked before the
/// handler sees it.
///
/// The server answers these itself: 400 for a malformed request line, header or target, a bad
/// percent-encoding or a path with ".", "..", "//", NUL or a backslash; 403 when Host is missing
/// or not this server, when Origin is not this server, or for `Sec-Fetch-Site: cross-site`
/// (`HostPolicy`); 405 for methods other than GET, HEAD and POST; 408 for a request slower than
/// `requestSeconds`; 411 for a POST without `Content-Length`; 413 for a body over `bodyBytes`
/// (not read); 414 and 431 for a request line or head over its bound; 501 for
/// `Transfer-Encoding`; 505 for versions other than HTTP/1.0 and 1.1; 503 when `connections` or
/// `eventStreams` are all in use.
public final class HTTPServer: @unchecked Sendable {
    /// The bound address.
    public let host: String
    /// The bound port (the kernel's choice when 0 was asked for).
    public let port: UInt16
    /// The page's address: `http://HOST:PORT/`.
    public var url: String { "http://\(host):\(port)/" }

    let limits: HTTPLimits
    let handler: any HTTPHandler
    let policy: HostPolicy
    private let listener: Int32
    private let lock = NSLock()
    private var stopRequested = false
    private var listening = true
    private var open: [ObjectIdentifier: Connection] = [:]
    private var streams = 0

    /// Binds and listens.
    ///
    /// - Parameters:
    ///   - host: an IPv4 address literal (`127.0.0.1`; `0.0.0.0` for every interface).
    ///   - port: the port; 0 for a free one the kernel picks (read it back from `port`).
    ///   - limits: the bounds on each request and on connections.
    ///   - allowedHosts: the Host header values accepted besides `HOST:PORT` of the bound address
    ///     (`localhost:PORT` is always accepted when bound to a loopback address, and
    ///     `127.0.0.1:PORT` and `localhost:PORT` when bound to `0.0.0.0`).
    ///   - handler: the application, called for every request the server does not refuse.
    /// - Throws: `ThrobberError` of kind `.usage` naming `--host` for an address that is not an
    ///   IPv4 literal or not this machine's; of kind `.cannotCreate` naming `--port` when the port
    ///   is in use or may not be bound; of kind `.io` when no socket can be opened.
    public init(host: String = "127.0.0.1", port: UInt16 = 0, limits: HTTPLimits = HTTPLimits(), allowedHosts: [String] = [],
                handler: any HTTPHandler) throws {
        // Writes use MSG_NOSIGNAL; this is for any write that does not (the process ignores it too).
        signal(SIGPIPE, SIG_IGN)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw ThrobberError.invalid("--host", host, allowed: "an IPv4 address such as 127.0.0.1 or 0.0.0.0 (names are not looked up)")
        }
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw ThrobberError("cannot open a socket: \(String(cString: strerror(errno)))", kind: .io, code: errno)
        }
        var one: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 128) == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw HTTPServer.bindError(code, host: host, port: port)
        }
        // Non-blocking, so an accept after poll never waits for a client that has already gone.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var actual = sockaddr_in()
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &size) }
        }
        self.host = host
        self.port = UInt16(bigEndian: actual.sin_port)
        self.limits = limits
        self.handler = handler
        self.listener = descriptor
        self.policy = HostPolicy(host: host, port: self.port, extra: allowedHosts)
    }

    deinit {
        if listening { Glibc.close(listener) }
    }

    /// The error for a failed bind or listen, naming the option a person would change.
    static func bindError(_ code: Int32, host: String, port: UInt16) -> ThrobberError {
        let reason = String(cString: strerror(code))
        switch code {
        case EADDRINUSE:
            return ThrobberError("--port \(port) is in use on \(host) (another server listens there); pick another port, or --port 0 for a free one",
                                 kind: .cannotCreate, code: code, field: "port")
        case EACCES:
            return ThrobberError("--port \(port) may not be bound (\(reason)): ports below 1024 need privileges; pick 1024…65535 or 0",
                                 kind: .cannotCreate, code: code, field: "port")
        case EADDRNOTAVAIL:
            return ThrobberError.invalid("--host", host, allowed: "an address of this machine, such as 127.0.0.1 (\(reason))")
        default:
            return ThrobberError("cannot listen on \(host):\(port) (--host, --port): \(reason)", kind: .cannotCreate, code: code, field: "port")
        }
    }

    /// Accepts until `stop()` is called or `shouldStop()` returns true (polled every 50 ms);
    /// then closes the listener, shuts down every open connection (event streams end, handlers
    /// blocked writing return), waits at most 0.5 s for connection threads, and returns.
    public func serve(shouldStop: @escaping @Sendable () -> Bool) {
        while !(lock.withLock { stopRequested }) && !shouldStop() {
            var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 50) > 0 else { continue }
            // accept4 is a GNU extension Glibc's module leaves out: close-on-exec is set at once
            // instead, so a child the studio starts (ffmpeg) never holds a client's socket open.
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            admit(Connection(descriptor: client))
        }
        let connections = lock.withLock {
            stopRequested = true
            if listening { Glibc.close(listener) }
            listening = false
            return Array(open.values)
        }
        for connection in connections { connection.shutDown() }
        let deadline = Connection.now() + 0.5
        while Connection.now() < deadline && !(lock.withLock { open.isEmpty }) {
            usleep(5_000)
        }
    }

    /// Makes `serve` return (within about 0.1 s); safe from any thread, more than once.
    public func stop() {
        lock.withLock { stopRequested = true }
    }

    /// Whether the server is stopping: streams end, new connections are refused.
    var isStopping: Bool { lock.withLock { stopRequested } }

    /// Starts the connection's thread, or answers 503 at once over the connection bound.
    private func admit(_ connection: Connection) {
        let admitted = lock.withLock {
            guard open.count < limits.connections && !stopRequested else { return false }
            open[ObjectIdentifier(connection)] = connection
            return true
        }
        guard admitted else {
            // On the accept thread: a short send timeout, so a client that does not read cannot stall accepting.
            Connection.setSendTimeout(connection.descriptor, seconds: 0.2)
            connection.write(ResponseWriter.bytes(.error(503, "too many connections; try again"), head: false))
            _ = Glibc.shutdown(connection.descriptor, Int32(SHUT_WR))
            var sink = [UInt8](repeating: 0, count: 16_384)
            _ = sink.withUnsafeMutableBytes { recv(connection.descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            connection.close()
            return
        }
        let thread = Thread { [self] in
            serve(connection)
            lock.withLock { _ = open.removeValue(forKey: ObjectIdentifier(connection)) }
            connection.close()
        }
        thread.start()
    }

    /// Takes an event-stream slot; false when all are in use.
    func openStream() -> Bool {
        lock.withLock {
            guard streams < limits.eventStreams else { return false }
            streams += 1
            return true
        }
    }

    func closeStream() {
        lock.withLock { streams -= 1 }
    }
}
