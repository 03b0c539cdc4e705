import Foundation
import Glibc

/// A TCP connection to 127.0.0.1:`port`, reads timing out after `timeout` seconds: how the
/// studio's tests talk to its server as a browser or a hostile client would.
///
/// - Throws: `LoopbackError` naming the port and the system's reason when it cannot connect.
public func loopbackSocket(port: UInt16, timeout: Int = 20) throws -> Int32 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        let reason = String(cString: strerror(errno))
        close(descriptor)
        throw LoopbackError(description: "cannot connect to 127.0.0.1:\(port): \(reason)")
    }
    var limit = timeval(tv_sec: timeout, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    return descriptor
}

/// Writes all of `text` (no SIGPIPE if the other end has gone).
public func loopbackSend(_ descriptor: Int32, _ text: String) {
    _ = Array(text.utf8).withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
}

/// Why a loopback connection failed.
public struct LoopbackError: Error, CustomStringConvertible {
    public var description: String
}
