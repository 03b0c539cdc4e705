import CZlib

extension ZipArchive {
    /// The bytes of the entry `name`, if the archive holds it.
    ///
    /// - Throws: `ArchiveFailure` as `contents(of:bound:)` does.
    func contents(named name: String, bound: Int) throws -> [UInt8]? {
        guard let index = byName[name] else { return nil }
        return try contents(of: entries[index], bound: bound)
    }

    /// An entry's bytes, inflated where it is deflated, and checked against its CRC-32.
    ///
    /// The output is allocated once at the declared size (which the directory already held to
    /// the largest entry), never grown: a stream that would produce more than it declared stops
    /// there and is refused, as is one that produces less or is damaged.
    ///
    /// - Parameters:
    ///   - entry: one of `entries`.
    ///   - bound: the largest size this entry may have, for what it holds (JSON, an image).
    /// - Throws: `ArchiveFailure` naming the entry.
    func contents(of entry: Entry, bound: Int) throws -> [UInt8] {
        guard entry.inflatedSize <= bound else {
            throw ArchiveFailure(entry: entry.name, "declares \(entry.inflatedSize) bytes; at most \(bound) are read")
        }
        let stored = bytes[entry.dataStart..<entry.dataStart + entry.storedSize]
        let data = try entry.method == 0 ? Array(stored) : Self.inflate(stored, size: entry.inflatedSize, name: entry.name)
        let crc = data.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
        guard crc == entry.crc else {
            throw ArchiveFailure(entry: entry.name, "fails its CRC-32 check (stored \(hex(entry.crc)), computed \(hex(crc)))")
        }
        return data
    }

    /// Inflates a raw deflate stream (no zlib or gzip wrapper, as ZIP stores it) that must
    /// produce exactly `size` bytes.
    static func inflate(_ input: ArraySlice<UInt8>, size: Int, name: String) throws -> [UInt8] {
        // One byte more than declared: filling it is how a stream that runs on is caught.
        var output = [UInt8](repeating: 0, count: size + 1)
        var stream = z_stream()
        // -15: a raw stream with a 32 KiB window. inflateInit2 is a macro Swift cannot call.
        guard inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ArchiveFailure(entry: name, "cannot be inflated: zlib could not start")
        }
        defer { inflateEnd(&stream) }
        let (status, produced, leftIn) = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                let status = CZlib.inflate(&stream, Z_FINISH)
                return (status, target.count - Int(stream.avail_out), Int(stream.avail_in))
            }
        }
        if produced > size {
            throw ArchiveFailure(entry: name, "inflates past its declared \(size) bytes")
        }
        switch status {
        case Z_STREAM_END:
            guard produced == size else {
                throw ArchiveFailure(entry: name, "inflates to \(produced) bytes, not the \(size) it declares")
            }
            guard leftIn == 0 else { throw ArchiveFailure(entry: name, "has \(leftIn) bytes after its deflate stream") }
        case Z_BUF_ERROR where leftIn == 0:
            throw ArchiveFailure(entry: name, "its deflate stream is cut short")
        default:
            let reason = stream.msg.map { String(cString: $0) } ?? "zlib status \(status)"
            throw ArchiveFailure(entry: name, "its deflate stream is damaged (\(reason))")
        }
        output.removeLast()
        return output
    }
}

private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
}
