/// How much the studio's server accepts from one client, and for how long.
///
/// Every bound is checked before the bytes it bounds are held: a request line, a header block or
/// a body over its bound is refused by status (414, 431, 413) without being read whole, a client
/// that sends too slowly is answered 408, and a connection over the bound is answered 503 at once.
/// The defaults suit one person's browser on the same machine.
public struct HTTPLimits: Sendable {
    /// The longest request line (method, target, version), in bytes; longer is answered 414.
    public var requestLineBytes = 8_192
    /// The longest head: the request line and every header line, in bytes; longer is answered 431.
    public var headerBytes = 16_384
    /// The most header lines; more are answered 431.
    public var headerCount = 100
    /// The largest body (`Content-Length`), in bytes; larger is answered 413 before it is read.
    public var bodyBytes = 1_048_576
    /// Connections open at once, event streams included; one more is answered 503 and closed.
    public var connections = 32
    /// Event streams open at once; one more is answered 503.
    public var eventStreams = 8
    /// Seconds the whole request (line, headers, body) may take to arrive; slower is answered 408.
    public var requestSeconds = 10.0

    /// The defaults.
    public init() {}
}
