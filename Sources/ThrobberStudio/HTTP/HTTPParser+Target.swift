extension HTTPParser {
    /// The target's path and query: origin-form (`/path?query`), or absolute-form
    /// (`http://authority/path?query`) for an authority the server answers for.
    ///
    /// The path is percent-decoded once and must then start with "/" and hold no NUL or other
    /// control character, no backslash, no empty segment ("//") and no "." or ".." segment, so
    /// no decoding a handler might do later and no file system it might reach can read it as
    /// another place. `%252e` stays `%2e`: one decoding, never two.
    static func parseTarget(_ target: String, isAllowedAuthority: (String) -> Bool) throws(Refusal) -> (path: String, query: [String: String]) {
        var rest = Substring(target)
        if !rest.hasPrefix("/") {
            guard rest.lowercased().hasPrefix("http://") else {
                throw Refusal(400, "malformed request target: expected a path starting with '/'")
            }
            rest = rest.dropFirst("http://".count)
            let end = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
            guard isAllowedAuthority(rest[..<end].lowercased()) else {
                throw Refusal(400, "the request target names another host")
            }
            rest = rest[end...]
            if !rest.hasPrefix("/") { rest = "/" + rest }
        }
        guard !rest.contains("#") else { throw Refusal(400, "malformed request target: a fragment ('#') is not sent") }
        let question = rest.firstIndex(of: "?")
        let rawPath = rest[..<(question ?? rest.endIndex)]
        let path = try decodedPath(rawPath)
        let query = try question.map { q throws(Refusal) in try decodedQuery(rest[rest.index(after: q)...]) } ?? [:]
        return (path, query)
    }

    /// The path decoded once and checked (see `parseTarget`).
    static func decodedPath(_ raw: Substring) throws(Refusal) -> String {
        guard let bytes = percentDecoded(raw.utf8, plusIsSpace: false), let path = String(validating: bytes, as: UTF8.self) else {
            throw Refusal(400, "bad path: invalid percent-encoding (%XX with two hex digits, UTF-8)")
        }
        guard path.hasPrefix("/") else { throw Refusal(400, "bad path: it must start with '/'") }
        guard !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else {
            throw Refusal(400, "bad path: control characters (NUL included) are not allowed")
        }
        guard !path.contains("\\") else { throw Refusal(400, "bad path: backslashes are not allowed") }
        guard !path.contains("//") else { throw Refusal(400, "bad path: empty segments ('//') are not allowed") }
        for segment in path.split(separator: "/") where segment == "." || segment == ".." {
            throw Refusal(400, "bad path: '.' and '..' segments are not allowed")
        }
        return path
    }

    /// `name=value&...`, each part percent-decoded with '+' as a space; the first of a repeated name.
    static func decodedQuery(_ raw: Substring) throws(Refusal) -> [String: String] {
        var query: [String: String] = [:]
        for pair in raw.split(separator: "&") {
            let equals = pair.firstIndex(of: "=")
            let name = pair[..<(equals ?? pair.endIndex)]
            let value = equals.map { pair[pair.index(after: $0)...] } ?? ""
            guard let nameBytes = percentDecoded(name.utf8, plusIsSpace: true), let valueBytes = percentDecoded(value.utf8, plusIsSpace: true),
                  let decodedName = String(validating: nameBytes, as: UTF8.self), let decodedValue = String(validating: valueBytes, as: UTF8.self) else {
                throw Refusal(400, "bad query: invalid percent-encoding (%XX with two hex digits, UTF-8)")
            }
            if query[decodedName] == nil { query[decodedName] = decodedValue }
        }
        return query
    }

    /// The bytes with each `%XX` decoded once; nil for a '%' not followed by two hex digits.
    static func percentDecoded(_ text: Substring.UTF8View, plusIsSpace: Bool) -> [UInt8]? {
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var index = text.startIndex
        while index != text.endIndex {
            let byte = text[index]
            index = text.index(after: index)
            if byte == UInt8(ascii: "%") {
                guard index != text.endIndex, let high = hex(text[index]) else { return nil }
                index = text.index(after: index)
                guard index != text.endIndex, let low = hex(text[index]) else { return nil }
                index = text.index(after: index)
                out.append(high << 4 | low)
            } else {
                out.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            }
        }
        return out
    }
}
