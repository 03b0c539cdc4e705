/// Which pages may talk to the server: the defence against DNS rebinding and cross-site requests.
///
/// A page from another site can make a browser send requests to 127.0.0.1, and a name it
/// controls can be re-pointed at 127.0.0.1 (DNS rebinding) so the browser thinks the studio is
/// same-origin. Neither can choose the `Host` the browser sends (it is the page's own name), nor
/// the `Origin` of a cross-origin request, nor `Sec-Fetch-Site`. So a request is answered only
/// when its Host is an address the server is bound to (or a name it was told of), its Origin, if
/// any, is that same host over http, and it is not marked cross-site.
struct HostPolicy: Sendable {
    /// Accepted `Host` values, lowercased ("127.0.0.1:8080").
    let hosts: Set<String>

    /// - Parameters:
    ///   - host: the bound IPv4 address.
    ///   - port: the bound port.
    ///   - extra: further accepted Host values, as given ("studio.local:8080").
    init(host: String, port: UInt16, extra: [String]) {
        var hosts: Set<String> = ["\(host):\(port)"]
        if host.hasPrefix("127.") { hosts.insert("localhost:\(port)") }
        // Every interface includes loopback: a page opened there names it so. Other names of the
        // machine are the caller's to list (`allowedHosts`): the server cannot tell them from a
        // rebinding attacker's.
        if host == "0.0.0.0" { hosts.formUnion(["127.0.0.1:\(port)", "localhost:\(port)"]) }
        // Port 80 is the default: a browser leaves it out of Host and Origin.
        if port == 80 { hosts.formUnion(hosts.map { String($0.dropLast(3)) }) }
        hosts.formUnion(extra.map { $0.lowercased() })
        self.hosts = hosts
    }

    /// Whether `authority` ("host:port", any case) is one of ours.
    func allows(authority: String) -> Bool {
        hosts.contains(authority.lowercased())
    }

    /// The refusal for a request with these header fields (names lowercased), or nil to answer it.
    func refusal(_ headers: [(name: String, value: String)]) -> Refusal? {
        let host = headers.filter { $0.name == "host" }
        guard host.count <= 1 else { return Refusal(400, "more than one Host header") }
        guard let value = host.first?.value else { return Refusal(403, "a Host header is required") }
        guard allows(authority: value) else { return Refusal(403, "Host '\(value.prefix(80))' is not this server") }
        for origin in headers where origin.name == "origin" {
            let lower = origin.value.lowercased()
            guard lower.hasPrefix("http://"), allows(authority: String(lower.dropFirst("http://".count))) else {
                return Refusal(403, "Origin '\(origin.value.prefix(80))' is not this server")
            }
        }
        if headers.contains(where: { $0.name == "sec-fetch-site" && $0.value.lowercased() == "cross-site" }) {
            return Refusal(403, "cross-site requests are not answered")
        }
        return nil
    }
}
